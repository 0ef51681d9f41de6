/**
 * How one value of a catalogue column becomes a spreadsheet cell: numbers stay numbers, ISO calendar dates
 * become real date cells, the spec's Y/N flags read Yes/No, empty values are empty cells, and text is made
 * safe for the file format. Pure functions, shared by the xlsx and CSV writers.
 */
import { flagAnswer, isUnreported, type ColumnKind } from '../../../shared/columns.ts';

/** Excel's limit on the characters of one cell; a longer one makes Excel "repair" the file. */
export const CELL_CHARACTERS_MAX = 32_767;

/**
 * Characters XML 1.0 cannot carry (C0 controls but tab, newline and return; lone surrogates; U+FFFE and
 * U+FFFF). Written into a sheet, any of them makes Excel refuse or "repair" the workbook.
 */
const XML_ILLEGAL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as a cell can hold it: XML-illegal characters removed, cut at Excel's limit without splitting a pair. */
export function cellText(text: string): string {
  const clean = text.replace(XML_ILLEGAL, '');
  if (clean.length <= CELL_CHARACTERS_MAX) return clean;
  const cut = clean.slice(0, CELL_CHARACTERS_MAX);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** The number written in `text` from `start` to `end` in ASCII digits, or -1 if any is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const HYPHEN = 45;

/**
 * An ISO calendar date (YYYY-MM-DD) as the Date ExcelJS writes for it. ExcelJS turns a Date into a serial
 * day number from its UTC fields, so the date is built with Date.UTC: midnight local time would shift a
 * day west of UTC. Read by character codes rather than a regular expression: an export reads two dates a
 * manifest, and the match's arrays were a measurable part of what it allocated.
 */
export function calendarDate(text: string): Date | undefined {
  const date = text.trim();
  if (date.length !== 10 || date.charCodeAt(4) !== HYPHEN || date.charCodeAt(7) !== HYPHEN) return undefined;
  const year = digits(date, 0, 4);
  const month = digits(date, 5, 7);
  const day = digits(date, 8, 10);
  if (year < 0 || month < 0 || day < 0) return undefined;
  const value = new Date(Date.UTC(year, month - 1, day));
  // 2024-02-30 rolls over to March; such a date is kept as the text the API sent. Date.UTC reads years
  // 0-99 as 1900-1999, which the full year check catches too.
  return value.getUTCFullYear() === year && value.getUTCMonth() === month - 1 && value.getUTCDate() === day
    ? value
    : undefined;
}

export type CellValue = string | number | Date | null;

/** A number's cell: empty when it is not finite, or a report's 0 that is no report (isUnreported). */
export function numberCell(kind: ColumnKind, value: number): number | null {
  return Number.isFinite(value) && !isUnreported(kind, value) ? value : null;
}

/** The cell for one value; null is an empty cell. */
export function cellValue(kind: ColumnKind, value: unknown): CellValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') {
    if (kind.type === 'number' || kind.type === 'count') return numberCell(kind, value);
  }
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (text === '') return null;
  // A number the server could only give as text ("Not Available") is kept as the text it sent.
  if (kind.type === 'number' || kind.type === 'count') return cellText(text);
  switch (kind.type) {
    case 'date':
      return calendarDate(text) ?? cellText(text);
    case 'flag':
      return flagAnswer(text) ?? cellText(text);
    case 'codes':
      return cellText(
        text
          .split(',')
          .map((code) => code.trim())
          .filter((code) => code !== '')
          .join(', '),
      );
    case 'text':
      return cellText(text);
  }
}

/** The number format of a column's cells; undefined for text, which needs none. */
export function numberFormat(kind: ColumnKind): string | undefined {
  switch (kind.type) {
    case 'number':
      return kind.decimals === 0 ? '0' : `0.${'0'.repeat(kind.decimals)}`;
    case 'count':
      return '#,##0';
    case 'date':
      return 'yyyy-mm-dd';
    case 'flag':
    case 'codes':
    case 'text':
      return undefined;
  }
}

/** Characters a value takes when shown, for sizing its column. */
export function shownLength(kind: ColumnKind, cell: CellValue): number {
  if (cell === null) return 0;
  if (cell instanceof Date) return 10;
  if (typeof cell === 'number') {
    const digits = Math.trunc(Math.abs(cell)).toString().length;
    const separators = Math.floor((digits - 1) / 3);
    return digits + separators + (kind.type === 'number' ? kind.decimals + 1 : 0) + (cell < 0 ? 1 : 0);
  }
  return cell.length;
}

/** Column widths in characters: wide enough for the header and the sampled values, within reason. */
export function columnWidth(header: string, longest: number): number {
  return Math.min(60, Math.max(8, header.length + 2, longest + 2));
}
