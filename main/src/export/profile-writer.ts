/**
 * A generator's profile as a workbook: a Profile sheet of its facts (section, field, value: the screen's
 * labels and order, from shared/profile-fields.ts), then one sheet per table of the detail (site activities,
 * waste codes, management methods, NAICS, SIC). Small, but written with the same streaming writer and cell
 * rules as a grid export.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { GeneratorDetail } from '../../../shared/api/index.ts';
import type { ColumnKind } from '../../../shared/columns.ts';
import { PROFILE_FACTS, PROFILE_TABLES } from '../../../shared/profile-fields.ts';
import { cellText, cellValue, columnWidth, numberFormat, shownLength, type CellValue } from './cells.ts';
import { frozenSheet, workbookWriter, type WorkbookWriter, type Worksheet } from './exceljs-adapter.ts';

export interface ProfileSource {
  server: string;
  user: string;
  exportedAt: Date;
}

const BOLD = { bold: true } as const;
const TEXT: ColumnKind = { type: 'text' };

interface Fact {
  section: string;
  label: string;
  kind: ColumnKind;
  cell: CellValue;
}

function header(sheet: Worksheet, titles: readonly string[]): void {
  const row = sheet.addRow(titles);
  row.font = BOLD;
  row.commit();
}

/**
 * Writes the workbook to `path`; answers the number of facts and table rows written. Stops between sheets
 * when `signal` aborts, throwing its reason with the file closed (the caller removes it).
 */
export async function writeProfileWorkbook(
  path: string,
  detail: GeneratorDetail,
  source: ProfileSource,
  signal: AbortSignal,
): Promise<number> {
  signal.throwIfAborted();
  const stream = createWriteStream(path);
  const closed = once(stream, 'close');
  const workbook = workbookWriter(stream);
  try {
    return await writeSheets(workbook, detail, source, signal, closed);
  } catch (error) {
    stream.destroy();
    await closed.catch(() => undefined);
    throw error;
  }
}

async function writeSheets(
  workbook: WorkbookWriter,
  detail: GeneratorDetail,
  source: ProfileSource,
  signal: AbortSignal,
  closed: Promise<unknown>,
): Promise<number> {
  const facts: Fact[] = [
    // The screen shows the name as the profile's title; the sheet gives it a row of its own.
    {
      section: 'Identity',
      label: 'Generator name',
      kind: TEXT,
      cell: cellValue(TEXT, detail.generator_data.generator_name),
    },
    ...PROFILE_FACTS.map((fact) => ({ ...fact, cell: cellValue(fact.kind, fact.value(detail)) })),
  ];
  const profile = frozenSheet(workbook, 'Profile');
  profile.columns = [
    { key: 'section', width: columnWidth('Section', Math.max(...facts.map((fact) => fact.section.length))) },
    { key: 'field', width: columnWidth('Field', Math.max(...facts.map((fact) => fact.label.length))) },
    {
      key: 'value',
      width: columnWidth('Value', Math.max(...facts.map((fact) => shownLength(fact.kind, fact.cell)))),
    },
  ];
  header(profile, ['Section', 'Field', 'Value']);
  for (const fact of facts) {
    const row = profile.addRow([fact.section, fact.label, fact.cell]);
    const format = numberFormat(fact.kind);
    if (format && fact.cell !== null && typeof fact.cell !== 'string') row.getCell(3).numFmt = format;
    row.commit();
  }
  for (const [label, value] of [
    ['Server', source.server],
    ['User', source.user],
  ] as const) {
    profile.addRow(['Export', label, cellText(value)]).commit();
  }
  const exported = profile.addRow(['Export', 'Exported at', source.exportedAt]);
  exported.getCell(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
  exported.commit();
  profile.commit();

  let rows = facts.length;
  for (const table of PROFILE_TABLES) {
    signal.throwIfAborted();
    const sheet = frozenSheet(workbook, table.sheet);
    const cells = table
      .rows(detail)
      .map((values) => table.columns.map((column, c) => cellValue(column.kind, values[c])));
    sheet.columns = table.columns.map((column, c) => {
      const format = numberFormat(column.kind);
      const longest = Math.max(0, ...cells.map((row) => shownLength(column.kind, row[c] ?? null)));
      return {
        key: String(c),
        width: columnWidth(column.header, longest),
        ...(format ? { style: { numFmt: format } } : {}),
      };
    });
    header(
      sheet,
      table.columns.map((column) => column.header),
    );
    for (const row of cells) sheet.addRow(row).commit();
    rows += cells.length;
    sheet.commit();
  }
  signal.throwIfAborted();
  await workbook.commit();
  await closed;
  return rows;
}
