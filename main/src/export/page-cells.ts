/**
 * An API list page read straight into a sheet's cells: each exported field is checked by its column's
 * kind while it is converted, instead of the page's schema first copying every row and waste line and the
 * cells being made from the copy (measured on 100,000 manifests with their waste lines: the schema's
 * parse, its copies and their collection were a third of the writer thread's time). The checks and the
 * messages are the schema's (shared/api): numbers may come as " 1,234.56" text, other fields are text, a
 * manifest's fields may be missing, a waste line's may not. Fields that are not exported are not read.
 */
import { WASTE_LINE_COLUMNS, isNumeric, type Column, type ColumnKind } from '../../../shared/columns.ts';
import { BOUNDS_MESSAGES, LIMITS } from '../../../shared/api/limits.ts';
import { numberFromText } from '../../../shared/api/number-text.ts';
import { MESSAGES } from '../../../shared/ipc/messages.ts';
import { cellValue, numberCell, type CellValue } from './cells.ts';
import type { ExportPage, ExportRow, PageShape } from './grid-file.ts';

/** A page as cells: the rows in the file's column order, their waste lines in the catalogue's. */
export interface CellPage {
  totalElements: number;
  cells: CellValue[][];
  /** Every waste line of the page's rows; empty unless the file has a Waste lines sheet. */
  lineCells: CellValue[][];
}

const INVALID = Symbol('invalid');

/** The cell for one field's value, or INVALID when the value is not of the field's wire type. */
function fieldCell(kind: ColumnKind, value: unknown, optional: boolean): CellValue | typeof INVALID {
  if (value === undefined) return optional ? null : INVALID;
  if (typeof value === 'string' && value.length > LIMITS.fieldTextMax) return INVALID;
  if (isNumeric(kind)) {
    const number =
      typeof value === 'number' ? value : typeof value === 'string' ? numberFromText(value) : undefined;
    if (number === undefined || !Number.isFinite(number)) return INVALID;
    return numberCell(kind, number);
  }
  return typeof value === 'string' ? cellValue(kind, value) : INVALID;
}

/** A value as a message shows it, cut short: it may be a whole object. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(typeof value === 'string' ? value.slice(0, 61) : value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Why `value` is not a cell of `kind`, as the schema words it. */
function problem(kind: ColumnKind, value: unknown): string {
  if (typeof value === 'string' && value.length > LIMITS.fieldTextMax) return BOUNDS_MESSAGES.fieldText;
  if (!isNumeric(kind)) return `expected text, got ${shown(value)}`;
  return typeof value === 'number' ? 'expected a finite number' : `expected a number, got ${shown(value)}`;
}

type Fields = Readonly<Record<string, unknown>>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a list page's JSON text into cells; a page that does not read throws `fail`'s error. */
export function readPageCells(
  text: string,
  { columns, wasteLines }: PageShape,
  fail: (message: string) => Error,
): CellPage {
  const wrong = (path: string, issue: string) => fail(MESSAGES.unexpectedShape(` at ${path}`, issue));
  let body: unknown = null;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(MESSAGES.notJson);
    }
  }
  if (!isFields(body)) throw fail(MESSAGES.unexpectedShape('', `expected an object, got ${shown(body)}`));
  const total = body.totalElements;
  const totalElements = typeof total === 'string' ? numberFromText(total) : total;
  if (typeof totalElements !== 'number' || !Number.isFinite(totalElements))
    throw wrong('totalElements', `expected a number, got ${shown(total)}`);
  const { content } = body;
  if (!Array.isArray(content)) throw wrong('content', `expected a list, got ${shown(content)}`);

  const cells: CellValue[][] = new Array<CellValue[]>(content.length);
  const lineCells: CellValue[][] = [];
  for (let index = 0; index < content.length; index += 1) {
    const row: unknown = content[index];
    if (!isFields(row)) throw wrong(`content.${index}`, `expected an object, got ${shown(row)}`);
    const rowCells = fieldCells(row, columns, true);
    if (!Array.isArray(rowCells)) throw wrong(`content.${index}.${rowCells.field}`, rowCells.issue);
    cells[index] = rowCells;
    if (!wasteLines) continue;
    const lines = row.waste_lines;
    if (lines === undefined) continue;
    if (!Array.isArray(lines))
      throw wrong(`content.${index}.waste_lines`, `expected a list, got ${shown(lines)}`);
    if (lines.length > LIMITS.wasteLinesMax)
      throw wrong(`content.${index}.waste_lines`, BOUNDS_MESSAGES.wasteLines);
    for (let number = 0; number < lines.length; number += 1) {
      const line: unknown = lines[number];
      const path = `content.${index}.waste_lines.${number}`;
      if (!isFields(line)) throw wrong(path, `expected an object, got ${shown(line)}`);
      const cellsOfLine = fieldCells(line, WASTE_LINE_COLUMNS, false);
      if (!Array.isArray(cellsOfLine)) throw wrong(`${path}.${cellsOfLine.field}`, cellsOfLine.issue);
      lineCells.push(cellsOfLine);
    }
  }
  return { totalElements, cells, lineCells };
}

/** A row's or a waste line's cells, or the first field that is not of its wire type and why. */
function fieldCells(
  fields: Fields,
  columns: readonly Column<string>[],
  optional: boolean,
): CellValue[] | { field: string; issue: string } {
  const cells: CellValue[] = new Array<CellValue>(columns.length);
  for (let index = 0; index < columns.length; index += 1) {
    const { field, kind } = columns[index] as Column<string>;
    const value = fields[field];
    const cell = fieldCell(kind, value, optional);
    if (cell === INVALID) return { field, issue: problem(kind, value) };
    cells[index] = cell;
  }
  return cells;
}

function cellsOf(columns: readonly Column<string>[], row: ExportRow): CellValue[] {
  return columns.map((column) => cellValue(column.kind, row[column.field]));
}

function wasteLinesOf(row: ExportRow): readonly ExportRow[] {
  const lines = row.waste_lines;
  return Array.isArray(lines) ? (lines as ExportRow[]) : [];
}

/** A page of rows already read (offline rows, checked in main) as cells, with its waste lines' if wanted. */
export function recordPageCells({ columns, wasteLines }: PageShape, page: ExportPage): CellPage {
  return {
    totalElements: page.totalElements,
    cells: page.rows.map((row) => cellsOf(columns, row)),
    lineCells: wasteLines
      ? page.rows.flatMap((row) => wasteLinesOf(row).map((line) => cellsOf(WASTE_LINE_COLUMNS, line)))
      : [],
  };
}
