/**
 * Excel's row limit per sheet, with a small limit injected (5 rows, the header included) instead of a
 * million rows: an export through main's real export threads continues onto `Manifests (2)`, `(3)`… and
 * `Waste lines (2)`…, each sheet with its header, frozen and filtered, every row once and in order, the
 * Query sheet saying which rows went where; the waste lines report their own progress; and a server whose
 * pages never end is stopped at the first page's total.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../shared/api/index.ts';
import { MANIFEST_COLUMNS, WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import { apiPages, type FetchPage } from '../../../main/src/export/api-pages.ts';
import { moreRowsThanCounted } from '../../../main/src/export/errors.ts';
import { createExports, type ExportEvents } from '../../../main/src/export/export-jobs.ts';
import type { ExportRow, GridFile, WriteProgress } from '../../../main/src/export/grid-file.ts';
import { apiPage } from './api-page.ts';
import { readBook } from './workbook-reader.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'sheet-limit-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const SHEET_ROWS = 5;

const file: GridFile = {
  format: 'xlsx',
  sheetName: 'Manifests',
  columns: MANIFEST_COLUMNS.filter((column) =>
    ['manifest_tracking_number', 'generator_name'].includes(column.field),
  ),
  wasteLines: true,
  describe: (rows) => [['Rows', rows]],
};

/** Manifest `index` with `index % 3 + 1` waste lines. */
function manifest(index: number): ExportRow {
  const tracking = `${String(index).padStart(9, '0')}JJK`;
  return {
    manifest_tracking_number: tracking,
    generator_name: `Generator ${index}`,
    waste_lines: Array.from({ length: (index % 3) + 1 }, (_, line) => ({
      manifest_tracking_number: tracking,
      waste_line_number: line + 1,
      usdot_haz_indicator: 'Y',
      usdot_id_number: 'UN1993',
      usdot_desc: 'Flammable liquid, n.o.s.',
      container_count: 1,
      container_type_code: 'DM',
      epa_waste_indicator: 'Y',
      waste_quantity_tons: 0.5,
      transporter: 'Rapid Haul',
      federal_waste_codes: 'D001',
      mmc_and_desc: 'H141 - Storage',
    })),
  };
}

function run(fetchPage: FetchPage) {
  const progress: WriteProgress[] = [];
  let settle: (outcome: { done?: number; failed?: string }) => void = () => undefined;
  const outcome = new Promise<{ done?: number; failed?: string }>((resolve) => {
    settle = resolve;
  });
  const events: ExportEvents = {
    progress: (_id, update) => progress.push(update),
    done: (_id, { rows }) => settle({ done: rows }),
    failed: (_id, message) => settle({ failed: message }),
  };
  const exports = createExports({ events, spillFolder: join(folder, 'spill'), sheetRows: SHEET_ROWS });
  const target = join(folder, 'manifests.xlsx');
  exports.start({
    target,
    file,
    pages: (signal) =>
      apiPages(
        fetchPage,
        signal,
        () => Promise.resolve(false),
        () => undefined,
      ),
  });
  return { outcome, progress, target };
}

describe('a table longer than a sheet', () => {
  it('goes on in numbered sheets, each with its header, frozen and filtered, and the Query sheet lists them', async () => {
    const rows = Array.from({ length: 11 }, (_, index) => manifest(index));
    const lines = rows.flatMap((row) => row.waste_lines as ExportRow[]);
    expect(lines).toHaveLength(21);
    const { outcome, progress, target } = run(() =>
      Promise.resolve({ ok: true, data: apiPage('manifests', 11, rows) }),
    );
    expect(await outcome).toEqual({ done: 11 });

    const book = await readBook(target);
    expect(book.sheetNames).toEqual([
      'Manifests',
      'Manifests (2)',
      'Manifests (3)',
      'Waste lines',
      'Waste lines (2)',
      'Waste lines (3)',
      'Waste lines (4)',
      'Waste lines (5)',
      'Waste lines (6)',
      'Query',
    ]);
    const manifestSheets = book.sheetNames.filter((name) => name.startsWith('Manifests'));
    const lineSheets = book.sheetNames.filter((name) => name.startsWith('Waste lines'));
    for (const [sheets, columns] of [
      [manifestSheets, file.columns],
      [lineSheets, WASTE_LINE_COLUMNS],
    ] as const) {
      for (const [index, name] of sheets.entries()) {
        const sheetRows = book.rows(name);
        expect(sheetRows.length, name).toBeLessThanOrEqual(SHEET_ROWS);
        expect(
          sheetRows[0]?.map((cell) => cell?.v),
          name,
        ).toEqual(columns.map((column) => column.header));
        const last = String.fromCharCode(64 + columns.length);
        expect(book.autofilter(name), name).toBe(`A1:${last}${sheetRows.length}`);
        expect(
          book.part(
            `xl/worksheets/sheet${index + 1 + (columns === WASTE_LINE_COLUMNS ? manifestSheets.length : 0)}.xml`,
          ),
        ).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
      }
    }
    const written = manifestSheets.flatMap((name) =>
      book
        .rows(name)
        .slice(1)
        .map((cells) => cells[0]?.v),
    );
    expect(written).toEqual(rows.map((row) => row.manifest_tracking_number));
    const writtenLines = lineSheets.flatMap((name) =>
      book
        .rows(name)
        .slice(1)
        .map((cells) => `${String(cells[0]?.v)}#${String(cells[1]?.v)}`),
    );
    expect(writtenLines).toEqual(
      lines.map((line) => `${String(line.manifest_tracking_number)}#${String(line.waste_line_number)}`),
    );

    const query = book.rows('Query').map(([label, value]) => [label?.v, value?.v]);
    expect(query.filter(([label]) => label === 'Sheet')).toEqual([
      ['Sheet', 'Manifests: rows 1 to 4 of 11'],
      ['Sheet', 'Manifests (2): rows 5 to 8 of 11'],
      ['Sheet', 'Manifests (3): rows 9 to 11 of 11'],
      ['Sheet', 'Waste lines: waste lines 1 to 4 of 21'],
      ['Sheet', 'Waste lines (2): waste lines 5 to 8 of 21'],
      ['Sheet', 'Waste lines (3): waste lines 9 to 12 of 21'],
      ['Sheet', 'Waste lines (4): waste lines 13 to 16 of 21'],
      ['Sheet', 'Waste lines (5): waste lines 17 to 20 of 21'],
      ['Sheet', 'Waste lines (6): waste lines 21 to 21 of 21'],
    ]);

    // The waste lines are a phase of their own: counted once every row is written, ending at all of them.
    const phase = progress.filter((update) => update.wasteLines);
    expect(phase.length).toBeGreaterThan(0);
    expect(phase.at(-1)).toEqual({ rowsWritten: 11, total: 11, wasteLines: { written: 21, total: 21 } });
  });

  it('stops a server whose pages never end at the first page’s total, with a clear error and no file', async () => {
    const asked: number[] = [];
    const endless: FetchPage = (page) => {
      asked.push(page);
      const rows = Array.from({ length: LIMITS.pageSizeMax }, (_, index) =>
        manifest(page * LIMITS.pageSizeMax + index),
      );
      return Promise.resolve({
        ok: true,
        data: apiPage('manifests', 1_250 + page * LIMITS.pageSizeMax, rows),
      });
    };
    const { outcome } = run(endless);
    expect(await outcome).toEqual({ failed: moreRowsThanCounted(1_250) });
    expect(Math.max(...asked)).toBeLessThanOrEqual(3);
    expect(await readdir(folder)).toEqual(['spill']);
    expect(await readdir(join(folder, 'spill'))).toEqual([]);
  });
});
