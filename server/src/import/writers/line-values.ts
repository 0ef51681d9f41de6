/**
 * A waste line's stored values (LINE_COLUMNS' order) as the writers write and compare them: its quantity in
 * tons, its codes as one list, and its management method beside RCRAInfo's short text for it.
 */
import { loadReference } from '../../data/reference.ts';
import type { WasteLineRecord } from '../model/records.ts';
import { storedTons } from './held-totals.ts';
import { LINE_COLUMNS, same } from './writer-sql.ts';

export class LineValues {
  private readonly methodDescriptions: Map<string, string>;

  constructor() {
    // RCRAInfo's short text where there is one, as e-Manifest writes it beside the code (as the demo does).
    this.methodDescriptions = new Map(
      loadReference().managementMethods.map((method) => [
        method.code,
        method.shortDescription || method.description.toUpperCase(),
      ]),
    );
  }

  private mmcAndDescription(line: WasteLineRecord): string {
    if (line.managementMethodCode === '') return '';
    const description =
      line.managementMethodDescription || this.methodDescriptions.get(line.managementMethodCode) || '';
    return description === '' ? line.managementMethodCode : `${line.managementMethodCode} - ${description}`;
  }

  of(line: WasteLineRecord): unknown[] {
    return [
      line.dotHazardous,
      line.dotIdNumber,
      line.dotDescription,
      line.containerCount,
      line.containerType,
      line.epaWaste,
      storedTons(line),
      line.federalWasteCodes.join(','),
      line.managementMethodCode,
      this.mmcAndDescription(line),
    ];
  }

  /**
   * A stored line equals a row when every value does, except that the stored codes may hold more: codes
   * EM_FEDERAL_WASTE_CODE added to the line's own list are kept when the line is read again.
   */
  same(stored: readonly unknown[], values: readonly unknown[]): boolean {
    const codes = LINE_COLUMNS.indexOf('federal_waste_codes');
    if (!same(stored.toSpliced(codes, 1), values.toSpliced(codes, 1))) return false;
    const have = new Set(String(stored[codes]).split(','));
    return String(values[codes])
      .split(',')
      .every((code) => code === '' || have.has(code));
  }
}
