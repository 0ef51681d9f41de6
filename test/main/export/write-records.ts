/**
 * The grid writer as the grid-writer and CSV tests drive it: pages of records packed as the export's reader
 * thread packs them (pack-page.ts), written to a real file.
 */
import { createWriteStream } from 'node:fs';
import type { ExportPage, GridFile } from '../../../main/src/export/grid-file.ts';
import { writeGridFile, type WriteOptions } from '../../../main/src/export/grid-writer.ts';
import { packSourcePage } from '../../../main/src/export/pack-page.ts';

async function* packed(file: GridFile, pages: AsyncIterable<ExportPage>) {
  for await (const page of pages) yield packSourcePage(page, file, (message) => new Error(message)).page;
}

export function writeRecords(
  path: string,
  file: GridFile,
  pages: AsyncIterable<ExportPage>,
  options: WriteOptions,
): Promise<number> {
  return writeGridFile(file, packed(file, pages), createWriteStream(path), options);
}
