/**
 * Reads a written workbook back with SheetJS, a reader independent of the ExcelJS writer under test:
 * typed cells per sheet, plus the raw XML of a part for what SheetJS does not model (frozen panes, bold).
 */
import { readFile } from 'node:fs/promises';
import * as XLSX from '@e965/xlsx';

export interface ReadCell {
  /** SheetJS cell type: n number, s string, b boolean, d date, e error. */
  t: string;
  v: string | number | boolean | Date;
  /** Number format, when the cell has one. */
  z?: string;
}

export interface ReadBook {
  sheetNames: string[];
  /** Rows of a sheet as cells (undefined for an empty cell), header row first. */
  rows(sheet: string): (ReadCell | undefined)[][];
  autofilter(sheet: string): string | undefined;
  /** The XML of a zip part, e.g. xl/worksheets/sheet1.xml. */
  part(name: string): string;
}

/** CFB's types are declared `any` by SheetJS; this is the little of it used here. */
interface Container {
  FileIndex: { name: string; content: Uint8Array }[];
  FullPaths: string[];
}
interface ContainerReader {
  read(bytes: Buffer, options: { type: 'buffer' }): Container;
}
const CFB = XLSX.CFB as ContainerReader;

export async function readBook(path: string): Promise<ReadBook> {
  const bytes = await readFile(path);
  const book = XLSX.read(bytes, { type: 'buffer', cellNF: true, cellDates: false });
  const container = CFB.read(bytes, { type: 'buffer' });
  return {
    sheetNames: book.SheetNames,
    rows(name) {
      const sheet = book.Sheets[name];
      if (!sheet?.['!ref']) return [];
      const range = XLSX.utils.decode_range(sheet['!ref']);
      const rows: (ReadCell | undefined)[][] = [];
      for (let r = range.s.r; r <= range.e.r; r += 1) {
        const row: (ReadCell | undefined)[] = [];
        for (let c = range.s.c; c <= range.e.c; c += 1) {
          const cell = sheet[XLSX.utils.encode_cell({ r, c })] as XLSX.CellObject | undefined;
          row.push(
            cell && cell.v !== undefined
              ? {
                  t: cell.t,
                  v: cell.v,
                  ...(cell.z && cell.z !== 'General' ? { z: String(cell.z) } : {}),
                }
              : undefined,
          );
        }
        rows.push(row);
      }
      return rows;
    },
    autofilter: (name) => book.Sheets[name]?.['!autofilter']?.ref,
    part(name) {
      const index = container.FullPaths.findIndex((path) => path.endsWith(`/${name}`) || path === name);
      const entry = container.FileIndex[index];
      if (!entry) throw new Error(`no part ${name} in the workbook`);
      return Buffer.from(entry.content).toString('utf8');
    },
  };
}

/** Excel's serial day number of an ISO calendar date (1900 date system). */
export function excelSerial(isoDate: string): number {
  return Date.parse(`${isoDate}T00:00:00Z`) / 86_400_000 + 25_569;
}
