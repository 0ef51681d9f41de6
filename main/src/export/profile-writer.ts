/**
 * A generator's profile as a workbook: a Profile sheet of field/value pairs (its sections as they read on
 * screen), then one sheet per table of the detail (site activities, waste codes, management methods, NAICS,
 * SIC). Small, but written with the same streaming writer and cell rules as a grid export.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import ExcelJS from 'exceljs';
import type { GeneratorDetail } from '../../../shared/api/index.ts';
import { PROFILE_FACTS, PROFILE_TABLES } from '../../../shared/profile-fields.ts';
import { cellText, cellValue, columnWidth, numberFormat, shownLength } from './cells.ts';

export interface ProfileSource {
  server: string;
  user: string;
  exportedAt: Date;
}

const BOLD = { bold: true } as const;

/** Writes the workbook to `path`; answers the number of facts and table rows written. */
export async function writeProfileWorkbook(
  path: string,
  detail: GeneratorDetail,
  source: ProfileSource,
): Promise<number> {
  const stream = createWriteStream(path);
  const closed = once(stream, 'close');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  let rows = 0;

  const facts = workbook.addWorksheet('Profile', { views: [{ state: 'frozen', ySplit: 1 }] });
  const values = PROFILE_FACTS.map((fact) => cellValue(fact.kind, fact.value(detail)));
  facts.columns = [
    { key: 'section', width: 22 },
    {
      key: 'field',
      width: columnWidth('Field', Math.max(...PROFILE_FACTS.map((fact) => fact.label.length))),
    },
    {
      key: 'value',
      width: columnWidth('Value', Math.max(...values.map((value) => shownLength({ type: 'text' }, value)))),
    },
  ];
  const header = facts.addRow(['Section', 'Field', 'Value']);
  header.font = BOLD;
  header.commit();
  PROFILE_FACTS.forEach((fact, index) => {
    const row = facts.addRow([fact.section, fact.label, values[index] ?? null]);
    const format = numberFormat(fact.kind);
    if (format) row.getCell(3).numFmt = format;
    row.commit();
    rows += 1;
  });
  for (const [label, value] of [
    ['Server', source.server],
    ['User', source.user],
  ] as const) {
    facts.addRow(['Export', label, cellText(value)]).commit();
  }
  const exported = facts.addRow(['Export', 'Exported at', source.exportedAt]);
  exported.getCell(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
  exported.commit();
  facts.commit();

  for (const table of PROFILE_TABLES) {
    const sheet = workbook.addWorksheet(table.title, { views: [{ state: 'frozen', ySplit: 1 }] });
    const cells = table
      .rows(detail)
      .map((values) => table.columns.map((column, c) => cellValue(column.kind, values[c])));
    sheet.columns = table.columns.map((column, c) => {
      const format = numberFormat(column.kind);
      return {
        key: String(c),
        width: columnWidth(
          column.header,
          Math.max(0, ...cells.map((row) => shownLength(column.kind, row[c] ?? null))),
        ),
        ...(format ? { style: { numFmt: format } } : {}),
      };
    });
    const head = sheet.addRow(table.columns.map((column) => column.header));
    head.font = BOLD;
    head.commit();
    for (const row of cells) sheet.addRow(row).commit();
    rows += cells.length;
    sheet.commit();
  }
  await workbook.commit();
  await closed;
  return rows;
}
