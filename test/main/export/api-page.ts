/** A list page as the API sends it to an export: its JSON bytes, as the client hands them to the reader. */
import type { EncodedPage, ExportRow } from '../../../main/src/export/grid-file.ts';

export function apiPage(
  list: EncodedPage['list'],
  totalElements: number | string,
  content: readonly ExportRow[],
): EncodedPage {
  return { list, json: new TextEncoder().encode(JSON.stringify({ totalElements, content })) };
}
