/**
 * What a workbook must hold for the API's rows, cell by cell and typed, as SheetJS reads it back: shared by
 * the exports from the server and from offline data, whose rows must read back the same.
 */
import { expect } from 'vitest';
import type { Column } from '../../../shared/columns.ts';
import { excelSerial, type ReadBook, type ReadCell } from './workbook-reader.ts';

/** The cell an API value must become, as SheetJS reads it back. */
export function expectedCell(column: Column<string>, value: unknown): ReadCell | undefined {
  if (value === undefined || value === '') return undefined;
  switch (column.kind.type) {
    case 'number':
      return { t: 'n', v: value as number, z: '0.00' };
    case 'count':
      return { t: 'n', v: value as number, z: '#,##0' };
    case 'date':
      return { t: 'n', v: excelSerial(value as string), z: 'yyyy-mm-dd' };
    case 'flag':
      return { t: 's', v: value === 'Y' ? 'Yes' : value === 'N' ? 'No' : (value as string) };
    case 'codes':
      return {
        t: 's',
        v: (value as string)
          .split(',')
          .map((code) => code.trim())
          .filter(Boolean)
          .join(', '),
      };
    case 'text': {
      const text = (value as string).trim().replaceAll('\u0007', '');
      return text === '' ? undefined : { t: 's', v: text };
    }
  }
}

export function expectSheet(
  cells: (ReadCell | undefined)[][],
  columns: readonly Column<string>[],
  rows: readonly Record<string, unknown>[],
) {
  const [header, ...body] = cells;
  expect(header?.map((cell) => cell?.v)).toEqual(columns.map((column) => column.header));
  expect(body).toHaveLength(rows.length);
  body.forEach((line, index) => {
    const expected = columns.map((column) => expectedCell(column, rows[index]?.[column.field]));
    // Trailing empty cells are not in the sheet's range.
    expect(line.concat(Array(Math.max(0, expected.length - line.length)).fill(undefined))).toEqual(expected);
  });
}

/** The Query sheet as label → value. */
export function queryOf(book: ReadBook): Record<string, unknown> {
  return Object.fromEntries(book.rows('Query').map(([label, value]) => [String(label?.v), value?.v]));
}
