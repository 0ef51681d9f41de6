import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENERATOR_COLUMNS, MANIFEST_COLUMNS, WASTE_LINE_COLUMNS } from '../../../shared/columns.ts';
import { CELL_CHARACTERS_MAX } from '../../../main/src/export/cells.ts';
import type { ExportPage, ExportRow, GridFile, WriteProgress } from '../../../main/src/export/grid-file.ts';
import { excelSerial, readBook } from './workbook-reader.ts';
import { writeRecords } from './write-records.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'grid-writer-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** Pages as the API gives them, one event-loop turn apart. */
async function* pagesOf(rows: readonly ExportRow[], size = 3): AsyncGenerator<ExportPage> {
  for (let start = 0; start < rows.length; start += size) {
    await Promise.resolve();
    yield { totalElements: rows.length, rows: rows.slice(start, start + size) };
  }
}

const manifestFile: GridFile = {
  format: 'xlsx',
  sheetName: 'Manifests',
  columns: MANIFEST_COLUMNS,
  wasteLines: true,
  describe: (rows) => [
    ['Rows', rows],
    ['Search', 'acme'],
  ],
};

function line(tracking: string, number: number, extra: Partial<Record<string, unknown>> = {}): ExportRow {
  return {
    manifest_tracking_number: tracking,
    waste_line_number: number,
    usdot_haz_indicator: 'Y',
    usdot_id_number: 'UN1993',
    usdot_desc: 'Flammable liquid, n.o.s.',
    container_count: 2,
    container_type_code: 'DM',
    epa_waste_indicator: 'N',
    waste_quantity_tons: 0.125,
    transporter: 'Rapid Haul',
    federal_waste_codes: 'D001,F003',
    mmc_and_desc: 'H141 - Storage',
    ...extra,
  };
}

function manifest(index: number, extra: Partial<Record<string, unknown>> = {}): ExportRow {
  const tracking = `${String(index).padStart(9, '0')}JJK`;
  return {
    manifest_tracking_number: tracking,
    generator_name: `Générateur ${index} Straße`,
    transporter: 'Rapid Haul',
    designated_facility_name: 'Clean Harbors',
    shipped_date: '2024-02-29',
    received_date: index % 2 === 0 ? '' : '2024-03-02',
    total_waste_quantity_tons: 1234.5 + index,
    container_count: 1200 + index,
    waste_stream_count: 2,
    generator_location_state: 'CA',
    generator_epa_id: `CAD${index}`,
    waste_lines: [line(tracking, 1), line(tracking, 2, { epa_waste_indicator: 'Y' })],
    ...extra,
  };
}

/** The rows written as each page's progress told them; the waste lines' own phase apart. */
const progress = () => {
  const seen: number[] = [];
  return {
    seen,
    onProgress: ({ rowsWritten, wasteLines }: WriteProgress) => {
      if (!wasteLines) seen.push(rowsWritten);
    },
  };
};

describe('the xlsx grid writer', () => {
  it('writes typed cells, a bold frozen header, an autofilter, waste lines and the query', async () => {
    const rows = Array.from({ length: 7 }, (_, index) => manifest(index));
    const path = join(folder, 'manifests.xlsx');
    const { seen, onProgress } = progress();
    const written = await writeRecords(path, manifestFile, pagesOf(rows), {
      signal: new AbortController().signal,
      onProgress,
      spillPath: join(folder, 'lines.cells'),
    });
    expect(written).toBe(7);
    expect(seen).toEqual([3, 6, 7]);

    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Manifests', 'Waste lines', 'Query']);
    const [header, ...body] = book.rows('Manifests');
    expect(header?.map((cell) => cell?.v)).toEqual(MANIFEST_COLUMNS.map((column) => column.header));
    expect(body).toHaveLength(7);
    body.forEach((cells, index) => {
      const row = rows[index]!;
      MANIFEST_COLUMNS.forEach((column, c) => {
        const cell = cells[c];
        const value = row[column.field];
        switch (column.kind.type) {
          case 'number':
            expect(cell).toEqual({ t: 'n', v: value, z: '0.00' });
            break;
          case 'count':
            expect(cell).toEqual({ t: 'n', v: value, z: '#,##0' });
            break;
          case 'date':
            if (value === '') expect(cell).toBeUndefined();
            else expect(cell).toMatchObject({ t: 'n', v: excelSerial(value as string), z: 'yyyy-mm-dd' });
            break;
          case 'text':
          case 'flag':
          case 'codes':
            expect(cell).toEqual({ t: 's', v: value });
        }
      });
    });
    expect(book.autofilter('Manifests')).toBe(`A1:K8`);

    const sheet = book.part('xl/worksheets/sheet1.xml');
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/);
    expect(book.part('xl/styles.xml')).toMatch(/<b\/>/);
    expect(sheet).not.toContain('sharedStrings');

    const [lineHeader, ...lines] = book.rows('Waste lines');
    expect(lineHeader?.map((cell) => cell?.v)).toEqual(WASTE_LINE_COLUMNS.map((column) => column.header));
    expect(lineHeader?.[0]?.v).toBe('Tracking number');
    expect(lines).toHaveLength(14);
    expect(lines[1]?.map((cell) => cell?.v)).toEqual([
      '000000000JJK',
      2,
      'Yes',
      'UN1993',
      'Flammable liquid, n.o.s.',
      2,
      'DM',
      'Yes',
      0.125,
      'Rapid Haul',
      'D001, F003',
      'H141 - Storage',
    ]);
    expect(book.autofilter('Waste lines')).toBe('A1:L15');
    expect(book.rows('Query').map((cells) => cells.map((cell) => cell?.v))).toEqual([
      ['Rows', 7],
      ['Search', 'acme'],
      ['Sheet', 'Manifests: rows 1 to 7 of 7'],
      ['Sheet', 'Waste lines: waste lines 1 to 14 of 14'],
    ]);
  });

  it('keeps every waste line, in order, when their batches straddle the reads of the spill file', async () => {
    // 600 rows a page, 3 lines each with a long non-ASCII description: about 900 KB of waste lines a page.
    const description = 'Déchets liquides inflammables, n.s.a. — '.repeat(8);
    const rows = Array.from({ length: 1_500 }, (_, index) => {
      const tracking = `${String(index).padStart(9, '0')}JJK`;
      return manifest(index, {
        waste_lines: [1, 2, 3].map((number) =>
          line(tracking, number, { usdot_desc: `${description}${index}` }),
        ),
      });
    });
    const path = join(folder, 'many-lines.xlsx');
    await writeRecords(path, manifestFile, pagesOf(rows, 600), {
      signal: new AbortController().signal,
      onProgress: () => undefined,
      spillPath: join(folder, 'lines.cells'),
    });
    const lines = (await readBook(path)).rows('Waste lines').slice(1);
    expect(lines).toHaveLength(4_500);
    lines.forEach((cells, index) => {
      const row = Math.floor(index / 3);
      expect([cells[0]?.v, cells[1]?.v, cells[4]?.v]).toEqual([
        `${String(row).padStart(9, '0')}JJK`,
        (index % 3) + 1,
        `${description}${row}`,
      ]);
    });
  });

  it('removes XML-illegal characters, keeps non-ASCII text and cuts at Excel’s cell limit', async () => {
    const rows = [
      manifest(1, { generator_name: 'Bad\u0000na\u0007me\u001f ok\ttab', transporter: 'x'.repeat(40_000) }),
      manifest(2, {
        generator_name: 'İstanbul 東京 😀',
        designated_facility_name: `${'y'.repeat(CELL_CHARACTERS_MAX - 1)}😀`,
      }),
    ];
    const path = join(folder, 'odd.xlsx');
    await writeRecords(path, { ...manifestFile, wasteLines: false }, pagesOf(rows), {
      signal: new AbortController().signal,
      onProgress: () => undefined,
      spillPath: join(folder, 'unused.cells'),
    });
    const book = await readBook(path);
    expect(book.sheetNames).toEqual(['Manifests', 'Query']);
    const [, first, second] = book.rows('Manifests');
    expect(first?.[1]?.v).toBe('Badname ok\ttab');
    expect(String(first?.[4]?.v)).toHaveLength(CELL_CHARACTERS_MAX);
    expect(second?.[1]?.v).toBe('İstanbul 東京 😀');
    // The cut does not split the emoji's surrogate pair: it goes whole.
    expect(second?.[5]?.v).toBe('y'.repeat(CELL_CHARACTERS_MAX - 1));
  });

  it('writes just the header when nothing matches', async () => {
    const path = join(folder, 'empty.xlsx');
    const generators: GridFile = {
      format: 'xlsx',
      sheetName: 'Generators',
      columns: GENERATOR_COLUMNS,
      wasteLines: false,
      describe: () => [['Rows', 0]],
    };
    expect(
      await writeRecords(path, generators, pagesOf([]), {
        signal: new AbortController().signal,
        onProgress: () => undefined,
        spillPath: join(folder, 'unused.cells'),
      }),
    ).toBe(0);
    const book = await readBook(path);
    expect(book.rows('Generators')).toHaveLength(1);
  });

  it('stops at an abort with the signal’s reason and leaves its spill file behind it removed', async () => {
    const controller = new AbortController();
    async function* endless(): AsyncGenerator<ExportPage> {
      for (let index = 0; ; index += 1) {
        await Promise.resolve();
        if (index === 2) controller.abort(new Error('stopped by the user'));
        yield { totalElements: 1_000_000, rows: [manifest(index)] };
      }
    }
    const spillPath = join(folder, 'lines.cells');
    await expect(
      writeRecords(join(folder, 'aborted.xlsx'), manifestFile, endless(), {
        signal: controller.signal,
        onProgress: () => undefined,
        spillPath,
      }),
    ).rejects.toThrow('stopped by the user');
    await expect(readFile(spillPath)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('the CSV grid writer', () => {
  it('writes a BOM, CRLF rows, plain numbers, ISO dates, quoted fields and guarded formulas', async () => {
    const rows = [
      manifest(1, {
        generator_name: 'Acme, "West"',
        transporter: '=HYPERLINK("x")',
        designated_facility_name: 'Two\nlines',
      }),
    ];
    const path = join(folder, 'manifests.csv');
    await writeRecords(path, { ...manifestFile, format: 'csv' }, pagesOf(rows), {
      signal: new AbortController().signal,
      onProgress: () => undefined,
      spillPath: join(folder, 'unused.cells'),
    });
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('\uFEFFTracking number,Generator,Generator EPA ID,')).toBe(true);
    const [, body] = text.slice(1).split('\r\n');
    expect(body).toBe(
      `000000001JJK,"Acme, ""West""",CAD1,CA,"'=HYPERLINK(""x"")","Two\nlines",2024-02-29,2024-03-02,1235.5,1201,2`,
    );
  });
});
