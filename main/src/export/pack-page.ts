/**
 * A page as the writer takes it: read into cells (an API page with the same tolerant checks and the same
 * messages as any other answer, page-cells.ts; offline rows already checked in main) and packed into
 * buffers (cell-batch.ts) that move between threads for nothing. The reader thread does this for every page.
 */
import { WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import { packCells, type PackedPage } from './cell-batch.ts';
import type { PageCount, PageShape, SourcePage } from './grid-file.ts';
import { readPageCells, recordPageCells } from './page-cells.ts';

/** Packs `page` for a file of `shape`; a page that does not read throws `fail`'s error with the user's message. */
export function packSourcePage(
  page: SourcePage,
  shape: PageShape,
  fail: (message: string) => Error,
): { page: PackedPage; counted: PageCount } {
  const { totalElements, cells, lineCells } =
    'rows' in page
      ? recordPageCells(shape, page)
      : readPageCells(
          Buffer.from(page.json.buffer, page.json.byteOffset, page.json.byteLength).toString(),
          shape,
          fail,
        );
  return {
    page: {
      totalElements,
      rowBatches: packCells(cells, shape.columns.length),
      lineBatches: shape.wasteLines ? packCells(lineCells, WASTE_LINE_COLUMNS.length) : [],
    },
    counted: { rows: cells.length, totalElements },
  };
}

/** The buffers of a packed page, moved rather than copied when it is posted to another thread. */
export function packedBuffers(page: PackedPage): ArrayBuffer[] {
  return [...page.rowBatches, ...page.lineBatches].map((batch) => batch.buffer as ArrayBuffer);
}
