/**
 * One table of an export written into as many sheets as Excel's row limit needs: `Manifests`, then
 * `Manifests (2)`, `(3)`… Past 1,048,576 rows a sheet is damaged for Excel (it "repairs" the file and drops
 * the rest), and 1,000,000 manifests carry about 2,500,000 waste lines. Each sheet has the bold header, the
 * frozen first row, the autofilter over its own rows and the same column widths; the Query sheet lists which
 * rows went where.
 *
 * ExcelJS's streaming writer holds one sheet open at a time: a sheet is committed before the next starts.
 * Styles are one object per column, shared by all its cells: ExcelJS caches a style by object identity, and
 * the fresh object it gives each cell otherwise costs a style lookup per cell (measured: 7 s of 25 s for
 * 100,000 manifests with their waste lines).
 */
import type ExcelJS from 'exceljs';
import type { Column } from '../../../shared/columns.ts';
import { columnWidth, numberFormat, shownLength, type CellValue } from './cells.ts';
import { frozenSheet, type WorkbookWriter, type Worksheet } from './exceljs-adapter.ts';

/** Excel's rows per sheet, the header included. */
export const EXCEL_SHEET_ROWS = 1_048_576;

const BOLD = { bold: true } as const;

type CellStyle = Partial<ExcelJS.Style>;
const PLAIN: CellStyle = Object.freeze({});

/** Widths wide enough for the header and the sampled cells. */
function sheetColumns(columns: readonly Column<string>[], sample: readonly (readonly CellValue[])[]) {
  return columns.map((column, index) => {
    const longest = Math.max(0, ...sample.map((cells) => shownLength(column.kind, cells[index] ?? null)));
    return { key: column.field, width: columnWidth(column.header, longest) };
  });
}

/** One style object per column, shared by every cell of it: a number format for numbers and dates. */
function columnStyles(columns: readonly Column<string>[]): CellStyle[] {
  return columns.map((column) => {
    const format = numberFormat(column.kind);
    return format ? Object.freeze({ numFmt: format }) : PLAIN;
  });
}

/** Where the rows of one sheet went, 1-based over the whole table. */
export interface SheetSpan {
  name: string;
  first: number;
  last: number;
}

const count = (value: number) => value.toLocaleString('en-US');

export class SheetSeries {
  private readonly workbook: WorkbookWriter;
  private readonly name: string;
  private readonly columns: readonly Column<string>[];
  private readonly styles: readonly CellStyle[];
  /** Data rows a sheet takes: Excel's limit less the header. */
  private readonly perSheet: number;
  private widths: ReturnType<typeof sheetColumns> | undefined;
  private sheet: Worksheet | undefined;
  private inSheet = 0;
  private rows = 0;
  private readonly spans: SheetSpan[] = [];

  /** `sheetRows`: rows a sheet may hold, the header included (Excel's limit unless a test lowers it). */
  constructor(
    workbook: WorkbookWriter,
    name: string,
    columns: readonly Column<string>[],
    sheetRows = EXCEL_SHEET_ROWS,
  ) {
    if (!Number.isInteger(sheetRows) || sheetRows < 2)
      throw new Error(`a sheet holds at least 2 rows, not ${sheetRows}`);
    this.workbook = workbook;
    this.name = name;
    this.columns = columns;
    this.styles = columnStyles(columns);
    this.perSheet = sheetRows - 1;
  }

  /** The sheet rows go into now, once there is one. */
  get current(): Worksheet | undefined {
    return this.sheet;
  }

  /** Sizes the columns from `sample` (the first rows) and opens the first sheet. */
  start(sample: readonly (readonly CellValue[])[]): void {
    this.widths ??= sheetColumns(this.columns, sample);
    if (!this.sheet) this.open();
  }

  add(values: readonly CellValue[]): void {
    if (!this.sheet) this.start([values]);
    else if (this.inSheet === this.perSheet) {
      this.close();
      this.open();
    }
    const row = (this.sheet as Worksheet).addRow(values);
    for (let index = 0; index < values.length; index += 1)
      row.getCell(index + 1).style = this.styles[index] ?? PLAIN;
    row.commit();
    this.inSheet += 1;
    this.rows += 1;
  }

  /** Closes the last sheet (a table with no rows still gets one, with its header). */
  finish(): void {
    if (!this.sheet) this.start([]);
    this.close();
  }

  /** The Query sheet's lines: which rows each sheet holds. */
  queryLines(noun: string): [string, string][] {
    return this.spans.map(({ name, first, last }) => [
      'Sheet',
      last < first
        ? `${name}: no ${noun}`
        : `${name}: ${noun} ${count(first)} to ${count(last)} of ${count(this.rows)}`,
    ]);
  }

  private open(): void {
    const number = this.spans.length + 1;
    const name = number === 1 ? this.name : `${this.name} (${number})`;
    const sheet = frozenSheet(this.workbook, name);
    sheet.columns = this.widths ?? sheetColumns(this.columns, []);
    const header = sheet.addRow(this.columns.map((column) => column.header));
    header.font = BOLD;
    header.commit();
    this.sheet = sheet;
    this.inSheet = 0;
    this.spans.push({ name, first: this.rows + 1, last: this.rows });
  }

  private close(): void {
    const sheet = this.sheet;
    const span = this.spans.at(-1);
    if (!sheet || !span) return;
    span.last = this.rows;
    sheet.autoFilter = {
      from: { row: 1, column: 1 },
      to: { row: this.inSheet + 1, column: this.columns.length },
    };
    sheet.commit();
    this.sheet = undefined;
  }
}
