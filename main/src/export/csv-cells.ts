/**
 * How a cell is written in a CSV file so that no spreadsheet turns it into a formula (CSV injection), in
 * whichever separator it splits the file on. Excel reads CSV with the system's list separator: `,` in some
 * locales, `;` in others, and a user may pick tab or `|`. A field quoted for one reading is not for another:
 * read with `;`, the field `"x;=HYPERLINK(…)"` of a `,` file splits inside its quotes, and
 * `=HYPERLINK(…)` becomes a live formula in the next cell. So, for text cells (numbers and dates are
 * written plain and cannot start one):
 *
 * 1. every piece of the text that starts after a separator any reading may use (`,` `;` tab `|` CR LF),
 *    and the text itself, gets a leading apostrophe when it would start a formula: its first character
 *    after any spaces and quotes is `=`, `+`, `-` or `@` (or the text starts with a tab or CR);
 * 2. a field holding a quote or any of those separators is quoted (RFC 4180, quotes doubled), so the reading
 *    the file was written for sees one cell.
 *
 * The apostrophe is what Excel itself shows for text typed as `'=…`; it is visible in the cell, which is
 * the price of the file being safe to open anywhere.
 */
import type { CellValue } from './cells.ts';

/** The separators some spreadsheet may split a line on, and the line ends. */
const SEPARATORS = ',;\t|\r\n';

/** A piece of text (at the start, or after a separator) that would start a formula. */
const FORMULA_PIECE = /(^|[,;\t|\r\n])(?=[\s"]*[=+\-@])|^(?=[\t\r])/g;

/** Text with every piece that could start a formula guarded by an apostrophe (rule 1). */
export function guardFormulas(text: string): string {
  return text.replace(FORMULA_PIECE, "$1'");
}

const NEEDS_QUOTES = new RegExp(`["${SEPARATORS}]`);

/** A field quoted when it holds a quote or a separator (rule 2). */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One cell as CSV: empty, a plain number, an ISO date, or guarded and quoted text. */
export function csvCell(cell: CellValue): string {
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (typeof cell === 'number') return String(cell);
  return csvField(guardFormulas(cell));
}
