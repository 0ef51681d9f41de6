/**
 * Copying from a results grid: the focused cell's text, or the selected rows as tab-separated text under a
 * header line. AG Grid's clipboard module is Enterprise only, so the grid asks this module instead. The
 * text is what the grid shows, so a figure pastes as "1,234.50", the way the user read it.
 */
import type { Column, GridApi, IRowNode } from 'ag-grid-community';
import { formatCount } from '../base/format.ts';
import { selectedNow } from './grid-selection.ts';

/** One column as copied: its header (the catalogue's) and the text the grid shows for a row. */
export type CopyColumn<Row> = { header: string; text: (row: Row) => string };

/**
 * A value as one TSV field. Tabs and line breaks inside a value would start a new column or row where the
 * value is pasted, so each becomes a space; nothing else needs escaping, since TSV has no quoting.
 */
export function tsvField(text: string): string {
  return text.replace(/\r\n|[\t\r\n]/g, ' ');
}

/** A header line, then one line per row, fields separated by tabs. */
export function rowsAsTsv<Row>(columns: readonly CopyColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => tsvField(column.header))];
  for (const row of rows) lines.push(columns.map((column) => tsvField(column.text(row))));
  return lines.map((fields) => fields.join('\t')).join('\n');
}

/** Writes text to the system clipboard; the answer is undefined, or why it could not. */
export async function writeClipboard(text: string): Promise<string | undefined> {
  // The Clipboard API exists in secure contexts only: the app's own page and the bridge on 127.0.0.1.
  if (!navigator.clipboard) return 'This window has no access to the clipboard.';
  try {
    await navigator.clipboard.writeText(text);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `The clipboard refused the text: ${reason}`;
  }
}

/** A cell's text as the grid shows it (through the column's formatter, if it has one). */
function cellText<Row>(api: GridApi<Row>, node: IRowNode<Row>, column: Column): string {
  return api.getCellValue({ rowNode: node, colKey: column, useFormatter: true }) ?? '';
}

/**
 * What Ctrl+C copies: the selected rows with a header line when more than one is selected (selecting
 * rows is how a user says "these rows"), else the focused cell alone. Undefined when nothing is focused.
 */
export function copyOf<Row>(api: GridApi<Row>): { text: string; notice: string } | undefined {
  const selected = selectedNow(api);
  if (selected.length > 1) {
    const columns: CopyColumn<IRowNode<Row>>[] = api.getAllDisplayedColumns().map((column) => ({
      header: column.getColDef().headerName ?? column.getColId(),
      text: (node) => cellText(api, node, column),
    }));
    const rows = [...selected].sort((a, b) => (a.rowIndex ?? 0) - (b.rowIndex ?? 0));
    return { text: rowsAsTsv(columns, rows), notice: `Copied ${formatCount(rows.length)} rows` };
  }
  const focused = api.getFocusedCell();
  const node = focused ? api.getDisplayedRowAtIndex(focused.rowIndex) : undefined;
  if (!focused || !node?.data) return undefined;
  const header = focused.column.getColDef().headerName ?? focused.column.getColId();
  return { text: tsvField(cellText(api, node, focused.column)), notice: `Copied ${header}` };
}
