/**
 * `data:import` on files written in EPA's layouts with the mess real exports carry (fixtures/README.md),
 * on EPA's and haztrak's example manifests and handler, and on the demo dataset written out as EPA files:
 * what is stored, updated, skipped, rejected (with file, line, column, reason and the raw row) and kept
 * pending until its manifest arrives; the same files twice change nothing; a run stopped mid-file (killed,
 * asked to stop, or its PostgreSQL connection ended by the server) resumes to the same database; a second
 * import while one runs is refused; and an import into a database with data keeps every derived table equal
 * to what one build from scratch gives. One suite for both backends (import-support.ts): with
 * TRACKER_TEST_BACKEND=postgres every import goes into PostgreSQL, whose content must also equal an
 * import of the same files into SQLite.
 */
import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { parseCsv } from '../../../server/src/data/reference.ts';
import { importFiles } from '../../../server/src/import/import-files.ts';
import {
  ImportStopped,
  JSON_BATCH_ROWS,
  runImport,
  type ImportEvent,
} from '../../../server/src/import/run.ts';
import { discoverSources } from '../../../server/src/import/sources.ts';
import { MAX_BATCH_ROWS, type SinkBatch } from '../../../server/src/import/model/sink.ts';
import { FROM_MANIFESTS_NOTE } from '../../../server/src/import/writers/writers.ts';
import { writeEpaFiles } from '../../helpers/epa-files.ts';
import { LIMITS } from '../../../shared/api/limits.ts';
import { MAX_RECORD_CHARS } from '../../../server/src/import/csv-reader.ts';
import { MAX_BATCH_CHARS } from '../../../server/src/import/read-rows.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import { writerLockHolder } from '../../../server/src/postgres/pg-writer-lock.ts';
import { TEST_BACKEND, endSession, endWhileWaiting } from '../../helpers/postgres-database.ts';
import { writeZip } from '../../helpers/zip-writer.ts';
import {
  FIXTURES,
  contentOf,
  expectSearchIndexesIntact,
  newTarget,
  onePerRowLists,
  openSink,
  rowsWritten,
  servedContent,
  sqliteFile,
  wrapSink,
  type ImportTarget,
} from './import-support.ts';

let dir = '';
const targets: ImportTarget[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-import-'));
});
afterAll(async () => {
  await Promise.all(targets.map((target) => target.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A new database on the backend under test, closed (dropped) after the file's tests. */
async function target(name: string): Promise<ImportTarget> {
  const made = await newTarget(dir, name);
  targets.push(made);
  return made;
}

/** The rows of each batch an import of `folder` into a new target `name` writes, and the import's result. */
async function batchSizes(name: string, folder: string, batchRows: number) {
  const sink = await openSink(await target(name));
  const sizes: number[] = [];
  const watched = wrapSink(sink, {
    write: (batch) => {
      sizes.push(batch.rows);
      return sink.write(batch);
    },
  });
  try {
    const result = await runImport({ sink: watched, sources: await discoverSources([folder]), batchRows });
    return { sizes, result };
  } finally {
    await sink.close();
  }
}

/** The report of an import into `name`, in the test's folder whatever the backend. */
const report = (name: string) => join(dir, `${name}.report.csv`);

/** Each file's counts as "read stored updated unchanged skipped rejected pending", by file name. */
function counts(result: Awaited<ReturnType<typeof importFiles>>): Record<string, string> {
  return Object.fromEntries(
    result.files.map((file): [string, string] => [
      file.path.split('/').at(-1) ?? '',
      Object.values(file.counts).join(' '),
    ]),
  );
}

/** The report's records, read back as CSV (raw rows hold line breaks). */
function reportRecords(path: string | undefined): string[][] {
  if (!path) return [];
  return parseCsv(readFileSync(path, 'utf8'));
}

describe('EPA-layout files with the mess real exports carry', () => {
  let db: ImportTarget;
  let week1: Awaited<ReturnType<typeof importFiles>>;
  let week2: Awaited<ReturnType<typeof importFiles>>;

  beforeAll(async () => {
    db = await target('weeks.db');
    week1 = await importFiles({ db: db.db, paths: [join(FIXTURES, 'week1')], report: report('week1') });
    week2 = await importFiles({ db: db.db, paths: [join(FIXTURES, 'week2')], report: report('week2') });
  });

  it('counts each file: read, stored, updated, unchanged, skipped, rejected, pending', () => {
    expect(counts(week1)).toEqual({
      'HD_REPORTING.csv': '4 2 0 0 0 2 0',
      'EM_MANIFEST.csv': '8 3 1 0 0 4 0',
      'EM_TRANSPORTER.csv': '4 4 0 0 0 0 0',
      'EM_WASTE_LINE_0.csv': '3 3 0 0 0 0 0',
      'EM_WASTE_LINE_1.csv': '5 2 0 0 0 2 1',
      'EM_FEDERAL_WASTE_CODE.zip!EM_FEDERAL_WASTE_CODE.csv': '3 0 2 1 0 0 0',
    });
    expect(week1.generatorsFromManifests).toBe(1);
    expect(counts(week2)).toEqual({
      'EM_MANIFEST.csv': '3 2 0 0 1 0 0',
      'EM_WASTE_LINE.csv': '2 1 0 0 1 0 0',
    });
    expect(week2.appliedFromEarlierRuns).toBe(1);
  });

  it('reports every rejected and pending row with its file, line, column, reason and the row as read', () => {
    const [header, ...records] = reportRecords(week1.reportPath);
    expect(header).toEqual(['file', 'line', 'column', 'reason', 'raw']);
    const rows = records.map(([file = '', ...rest]) => [
      file.replace(/^.*fixtures\//, ''),
      ...rest.slice(0, 3),
    ]);
    expect(rows).toEqual([
      ['week1/EM_MANIFEST.csv', '4', 'RECEIVED DATE', 'not a date: "2024-02-31"'],
      ['week1/EM_MANIFEST.csv', '5', 'MANIFEST TRACKING NUMBER', 'no MANIFEST TRACKING NUMBER'],
      [
        'week1/EM_MANIFEST.csv',
        '8',
        '',
        'conflicts with the stored manifest of the same UPDATED DATE (2024-03-02)',
      ],
      ['week1/EM_MANIFEST.csv', '9', 'TOTAL QUANTITY TONS', 'not a number: "abc"'],
      ['week1/EM_WASTE_LINE_1.csv', '5', 'NUMBER OF CONTAINERS', 'not a number: "x3"'],
      ['week1/EM_WASTE_LINE_1.csv', '6', '', 'the file ends inside a quoted field: a cut last line'],
      ['week1/HD_REPORTING.csv', '4', 'HANDLER ID', 'no HANDLER ID'],
      ['week1/HD_REPORTING.csv', '5', 'HHANDLER LAST CHANGE', 'not a date: "not-a-date"'],
      [
        'week1/EM_WASTE_LINE_1.csv',
        '4',
        '',
        'pending: no manifest 000000199ELC yet; kept and applied when it arrives',
      ],
    ]);
    // The row as read, quotes and all.
    expect(records[2]?.[4]).toMatch(/^"000000101ELC","2024-03-02",.*"9\.5"$/);
    expect(week2.reportPath).toBeUndefined();
  });

  it('stores what the rows say, derived totals and all', async () => {
    {
      const manifest = (tracking: string) =>
        db.row(
          `SELECT generator_name, transporter, total_waste_quantity_tons AS tons, container_count,
                  waste_stream_count, updated_date, received_date FROM manifests WHERE manifest_tracking_number = ?`,
          tracking,
        );
      // Quoted commas and doubled quotes; the transporter of line 1; the source's own total.
      expect(await manifest('000000101ELC')).toEqual({
        generator_name: 'Acme "Best" Coatings, Inc.',
        transporter: 'Bayou Haulers, Inc.',
        tons: 1.5,
        container_count: 6,
        waste_stream_count: 2,
        updated_date: '2024-03-02',
        received_date: '2024-02-28',
      });
      // No total given: the lines' tons, 2 tons plus 150 kg.
      expect(await manifest('000000102ELC')).toMatchObject({ tons: 2.1653, container_count: 4 });
      // The newer UPDATED DATE replaced the older in week 1; week 2's older copy and its line were skipped.
      expect(await manifest('000000104FLE')).toMatchObject({
        tons: 0.8,
        updated_date: '2024-03-09',
        received_date: '2024-02-22',
      });
      expect(
        await db.rows(
          "SELECT usdot_desc, waste_quantity_tons FROM waste_lines WHERE manifest_id = (SELECT id FROM manifests WHERE manifest_tracking_number = '000000104FLE')",
        ),
      ).toEqual([{ usdot_desc: 'NA1993, Waste Diesel fuel, 3, III', waste_quantity_tons: 0.19525 }]);
      // The line kept pending in week 1 was applied when week 2 brought its manifest.
      expect(await manifest('000000199ELC')).toMatchObject({
        container_count: 1,
        waste_stream_count: 1,
        tons: 1,
      });
      // EM_FEDERAL_WASTE_CODE (zipped) added to the codes the waste line listed.
      expect(
        await db.rows(
          `SELECT w.waste_line_number, w.federal_waste_codes, w.transporter, w.mmc_and_desc FROM waste_lines w
           JOIN manifests m ON m.id = w.manifest_id WHERE m.manifest_tracking_number = '000000101ELC'
           ORDER BY w.waste_line_number`,
        ),
      ).toEqual([
        {
          waste_line_number: 1,
          federal_waste_codes: 'D001,F003',
          transporter: 'TXR000000050',
          mmc_and_desc: 'H141 - STORAGE, BULKING, AND/OR TRANSFER OFF SITE',
        },
        {
          waste_line_number: 2,
          federal_waste_codes: 'D018',
          transporter: 'TXR000000050',
          mmc_and_desc: 'H040 - INCINERATION',
        },
      ]);
      const generator = (id: string) =>
        db.row(
          `SELECT generator_name, record_source, public_notes, physical_address, registration_status,
                  federal_generator_status_universe AS status, shipped_count, federal_waste_codes
           FROM generators WHERE epa_handler_id = ?`,
          id,
        );
      expect(await generator('TXD000000001')).toEqual({
        generator_name: 'Acme "Best" Coatings, Inc.',
        record_source: 'handler',
        public_notes: '',
        physical_address: '1 Main St, Bldg 2',
        registration_status: 'Active',
        status: 'Large Quantity Generator',
        shipped_count: 1,
        federal_waste_codes: 'D001,D018,F003',
      });
      // Named by manifests only (its handler row had a bad date): created from them, and marked.
      expect(await generator('OKD000000009')).toMatchObject({
        record_source: 'manifest',
        public_notes: FROM_MANIFESTS_NOTE,
      });
      expect(await generator('TXD000000003')).toMatchObject({
        record_source: 'manifest',
        generator_name: 'Idle Shop',
      });
      expect(await db.value('SELECT CAST(count(*) AS INTEGER) FROM import_pending')).toBe(0);
      await expectSearchIndexesIntact(db);
    }
  });

  it('changes nothing when the same files are imported again', async () => {
    const before = await contentOf(db);
    const again = await importFiles({
      db: db.db,
      paths: [join(FIXTURES, 'week1'), join(FIXTURES, 'week2')],
      report: report('again'),
    });
    expect(again.totals.stored).toBe(0);
    expect(again.totals.updated).toBe(0);
    expect(await contentOf(db)).toEqual(before);
    await expectSearchIndexesIntact(db);
  });

  it('rewrites no manifest or waste line whose transporter and totals a batch leaves as they were', async () => {
    // A code added to a stored line touches its manifest: the line's codes change, its manifest's
    // transporter, containers, line count and tons and its other line's transporter do not.
    const codes = join(dir, 'codes');
    mkdirSync(codes);
    writeFileSync(
      join(codes, 'EM_FEDERAL_WASTE_CODE.csv'),
      '"MANIFEST TRACKING NUMBER","WASTE LINE NUMBER","FEDERAL WASTE CODE"\r\n"000000101ELC","2","D035"\r\n',
    );
    let result: Awaited<ReturnType<typeof importFiles>> | undefined;
    const written = await rowsWritten(db, async () => {
      result = await importFiles({ db: db.db, paths: [codes], report: report('codes') });
    });
    expect(result?.totals.updated).toBe(1);
    expect(written).toEqual({ manifests: 0, wasteLines: 1 });
  });
});

describe('the same files into a database that has data', () => {
  it('counts and stores what an import into an empty one does, its rows held until their manifests', async () => {
    const empty = await target('week1-empty.db');
    const bulk = await importFiles({
      db: empty.db,
      paths: [join(FIXTURES, 'week1')],
      report: report('empty'),
    });
    // One of week 1's handlers first: the database has data, so the week is read as an append is.
    const seed = join(dir, 'seed');
    mkdirSync(seed);
    const handlers = readFileSync(join(FIXTURES, 'week1', 'HD_REPORTING.csv'), 'utf8').split('\n');
    writeFileSync(join(seed, 'HD_REPORTING.csv'), `${handlers.slice(0, 2).join('\n')}\n`);
    const seeded = await target('week1-seeded.db');
    await importFiles({ db: seeded.db, paths: [seed], report: report('seed') });
    // A row a transaction: the manifest's two versions and its held lines each in a batch of their own.
    const appended = await importFiles({
      db: seeded.db,
      paths: [join(FIXTURES, 'week1')],
      report: report('appended'),
      batchRows: 1,
    });
    const manifestTables = (result: typeof bulk) => {
      const { 'HD_REPORTING.csv': _handlers, ...rest } = counts(result);
      return rest;
    };
    expect(manifestTables(appended)).toEqual(manifestTables(bulk));
    expect(counts(appended)['HD_REPORTING.csv']).toBe('4 1 0 1 0 2 0');
    // The manifest read twice (an older UPDATED DATE, then a newer) keeps the lines the week gives it.
    expect(await contentOf(seeded)).toEqual(await contentOf(empty));
    expect(reportRecords(appended.reportPath)).toEqual(reportRecords(bulk.reportPath));
  });
});

describe('the size of a batch', () => {
  it('refuses more rows a batch than memory holds before touching the database', async () => {
    const db = await target('batch-too-large.db');
    const sink = await openSink(db);
    let began = false;
    const watched = wrapSink(sink, {
      begin: (files, options) => {
        began = true;
        return sink.begin(files, options);
      },
    });
    try {
      await expect(
        runImport({
          sink: watched,
          sources: await discoverSources([join(FIXTURES, 'week1')]),
          batchRows: MAX_BATCH_ROWS + 1,
        }),
      ).rejects.toThrow(
        /^batchRows must be a whole number from 1 to 20,000: a batch is held in memory whole$/,
      );
    } finally {
      await sink.close();
    }
    expect(began).toBe(false);
  });

  it('holds at most JSON_BATCH_ROWS manifests of a JSON file, whatever batchRows asks', async () => {
    const folder = join(dir, 'json-batches');
    mkdirSync(folder);
    const manifests = Array.from({ length: JSON_BATCH_ROWS + 1 }, (_, index) =>
      JSON.stringify({
        manifestTrackingNumber: `${String(400_000_000 + index)}ELC`,
        status: 'Signed',
        generator: { epaSiteId: 'TXD000000003', name: 'Works' },
        wastes: [],
      }),
    );
    writeFileSync(join(folder, 'manifests.jsonl'), manifests.join('\n'));
    const { sizes } = await batchSizes('json-batches.db', folder, 10_000);
    expect(sizes).toEqual([JSON_BATCH_ROWS, 1]);
  });

  it('ends a batch at MAX_BATCH_CHARS of text, whatever batchRows allows', async () => {
    const folder = join(dir, 'wide-rows');
    mkdirSync(folder);
    // Rows of a little over 600,000 characters (a column the importer does not read): 14 reach the bound.
    const notes = 'n'.repeat(600_000);
    const rows = Array.from(
      { length: 30 },
      (_, index) => `TXD${String(index + 1).padStart(9, '0')},Handler ${index + 1},HOUSTON,TX,${notes}`,
    );
    writeFileSync(
      join(folder, 'HD_REPORTING.csv'),
      ['HANDLER ID,HANDLER NAME,LOCATION CITY,LOCATION STATE,NOTES', ...rows].join('\n'),
    );
    expect(Math.ceil(MAX_BATCH_CHARS / (rows[0]?.length ?? 0))).toBe(14);
    const { sizes, result } = await batchSizes('wide-rows.db', folder, 10_000);
    expect(result.totals.stored).toBe(30);
    expect(sizes).toEqual([14, 14, 2]);
  });

  it('holds one batch at a time: a batch written is let go of while the next is read', async () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const folder = join(dir, 'one-batch-held');
    mkdirSync(folder);
    const lines = [
      'HANDLER ID,HANDLER NAME,LOCATION CITY,LOCATION STATE,LOCATION ZIP,HHANDLER LAST CHANGE',
      ...Array.from(
        { length: 6 },
        (_, index) =>
          `TXD${String(index + 1).padStart(9, '0')},Handler ${index + 1},HOUSTON,TX,77001,2026-11-02`,
      ),
    ];
    writeFileSync(join(folder, 'HD_REPORTING.csv'), lines.join('\n'));
    const written: WeakRef<object>[] = [];
    /** Whether the batch written last was still in memory, each time the reader asked for another line. */
    const heldWhileReading: boolean[] = [];
    async function* lineByLine(): AsyncGenerator<Buffer> {
      for (const line of lines) {
        const last = written.at(-1);
        if (last) {
          // Past the job that wrote it (a WeakRef keeps its target until then), then a full collection.
          await new Promise((resolve) => setImmediate(resolve));
          collect();
          heldWhileReading.push(last.deref() !== undefined);
        }
        yield Buffer.from(`${line}\n`);
      }
    }
    const sources = (await discoverSources([folder])).map((source) => ({
      ...source,
      open: () =>
        Promise.resolve({
          stream: Readable.from(lineByLine(), { objectMode: false, highWaterMark: 1 }),
          storedBytesRead: () => 0,
        }),
    }));
    const db = await target('one-batch-held.db');
    const sink = await openSink(db);
    const watched = wrapSink(sink, {
      write: (batch) => {
        written.push(new WeakRef(batch.records));
        return sink.write(batch);
      },
    });
    try {
      await runImport({ sink: watched, sources, batchRows: 2 });
    } finally {
      await sink.close();
    }
    expect(heldWhileReading.length).toBeGreaterThan(0);
    expect(heldWhileReading).not.toContain(true);
  });
});

describe('one import at a time', () => {
  it('refuses a second import into a database while one runs, changing nothing, and takes the next after', async () => {
    const db = await target('one-at-a-time.db');
    const running = await openSink(db);
    const stored = () =>
      db.values(
        'SELECT CAST(count(*) AS INTEGER) FROM manifests UNION ALL SELECT CAST(count(*) AS INTEGER) FROM import_runs',
      );
    try {
      await expect(
        importFiles({ db: db.db, paths: [join(FIXTURES, 'week1')], report: report('locked-second') }),
      ).rejects.toThrow(/^another import or load is writing into .+: wait until it ends$/);
      expect(await stored()).toEqual([[0], [0]]);
    } finally {
      await running.close();
    }
    const next = await importFiles({
      db: db.db,
      paths: [join(FIXTURES, 'week1')],
      report: report('locked-next'),
    });
    expect(next.totals.stored).toBeGreaterThan(0);
  });
});

describe('an import asked to stop', () => {
  it('stops after the batch it writes, and the same files resume it to the database one run gives', async () => {
    const whole = await target('asked-whole.db');
    await importFiles({ db: whole.db, paths: [join(FIXTURES, 'week1')], report: report('asked-whole') });
    const stopped = await target('asked-stopped.db');
    const stop = new AbortController();
    await expect(
      importFiles({
        db: stopped.db,
        paths: [join(FIXTURES, 'week1')],
        report: report('asked-stopped'),
        batchRows: 2,
        signal: stop.signal,
        // Asked as the first batch is stored.
        onEvent: (event) => {
          if (event.kind === 'progress') stop.abort();
        },
      }),
    ).rejects.toEqual(new ImportStopped(2));
    const resumed = await importFiles({
      db: stopped.db,
      paths: [join(FIXTURES, 'week1')],
      report: report('asked-resumed'),
    });
    expect(resumed.resumed).toBe(true);
    expect(await contentOf(stopped)).toEqual(await contentOf(whole));
  });
});

describe('a connection the server ends in the middle (PostgreSQL)', () => {
  /**
   * An import into `name` in batches of two rows whose connection the server ends (an administrator, a
   * restart), either while the second batch's transaction waits on the file-progress table, locked
   * beforehand by another session, or after the first batch, once the backend has gone and the client has
   * had time to see it (the next batch then opens another connection). Resolves with the import's error
   * message ("" if it went on to the end), after a run of the same files resumed it to the content of one
   * uninterrupted import.
   */
  async function cutImport(name: string, when: 'in a batch' | 'between batches'): Promise<string> {
    const week1 = join(FIXTURES, 'week1');
    const whole = await target(`${name}-whole`);
    await importFiles({ db: whole.db, paths: [week1], report: report(`${name}-whole`) });

    const cut = await target(name);
    const admin = await connect(cut.db, { max: 1 });
    const sink = await openSink(cut);
    const pid = await writerLockHolder(admin);
    if (pid === undefined) throw new Error('the import holds no writer lock');

    const writeCutOff = async (batch: SinkBatch) => {
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const ending = admin.begin(async (tx) => {
        await tx`LOCK TABLE import_files IN ACCESS EXCLUSIVE MODE`;
        locked();
        await endWhileWaiting(tx, pid);
      });
      await lockTaken;
      try {
        return await sink.write(batch);
      } finally {
        await ending;
      }
    };

    let writes = 0;
    const cutting = wrapSink(sink, {
      write: async (batch) => {
        writes += 1;
        if (when === 'in a batch' && writes === 2) return await writeCutOff(batch);
        const counts = await sink.write(batch);
        if (when === 'between batches' && writes === 1) {
          await endSession(admin, pid);
          // The client reads the closed socket at its next turn of the event loop, idle meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return counts;
      },
    });
    let failure = '';
    try {
      await runImport({ sink: cutting, sources: await discoverSources([week1]), batchRows: 2 });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
    } finally {
      await sink.close();
      await admin.end();
    }

    const resumed = await importFiles({ db: cut.db, paths: [week1], report: report(name) });
    expect(resumed.resumed).toBe(true);
    expect(await contentOf(cut)).toEqual(await contentOf(whole));
    return failure;
  }

  it.runIf(TEST_BACKEND === 'postgres')(
    'says so in a sentence, every batch before kept, and the same files resume the import',
    async () => {
      expect(await cutImport('cut', 'in a batch')).toMatch(
        /^postgres:\/\/.+ did not take the import's last step: .+\. Every batch before is kept: once the database answers \(with room to write\), run the same command again to resume\.$/,
      );
    },
  );

  it.runIf(TEST_BACKEND === 'postgres')(
    'between two batches: the import stops rather than go on without its lock on the connection the client opens again',
    async () => {
      expect(await cutImport('cut-between', 'between batches')).toMatch(
        /^postgres:\/\/.+ ended the import's connection between two batches, and with it the lock that keeps a second import out, so the import stopped\. Every batch before is kept: run the same command again to resume\.$/,
      );
    },
  );
});

describe('one handler several times in a batch', () => {
  it('keeps the newest change date: each row is compared with what the rows before it stored', async () => {
    const [header = '', first = ''] = readFileSync(join(FIXTURES, 'week1', 'HD_REPORTING.csv'), 'utf8').split(
      /\r?\n/,
    );
    const version = (name: string, changed: string) =>
      first.replace('"Acme ""Best"" Coatings, Inc."', name).replace('2023-11-02', changed);
    const folder = join(dir, 'handler-thrice-files');
    mkdirSync(folder);
    writeFileSync(
      join(folder, 'HD_REPORTING.csv'),
      [
        header,
        version('October', '2023-10-01'),
        version('December', '2023-12-01'),
        version('November', '2023-11-01'),
      ]
        .map((row) => `${row}\r\n`)
        .join(''),
    );
    const db = await target('handler-thrice');
    const result = await importFiles({ db: db.db, paths: [folder], report: report('handler-thrice') });
    // read, stored, updated, unchanged, skipped, rejected, pending: the older November row is skipped.
    expect(counts(result)['HD_REPORTING.csv']).toBe('3 1 1 0 1 0 0');
    expect(await db.row('SELECT generator_name, source_updated FROM generators')).toEqual({
      generator_name: 'December',
      source_updated: '2023-12-01',
    });
  });
});

describe('rows kept pending', () => {
  it('are applied in the order they were read: of two versions of one waste line, the first read is kept', async () => {
    // Two versions of a line of 000000102ELC (3 containers, then 4), kept pending for a run while the
    // manifest is unknown; the next run brings it, and the rows waiting for it are applied in file order.
    const [header = '', , first = ''] = readFileSync(
      join(FIXTURES, 'week1', 'EM_WASTE_LINE_1.csv'),
      'utf8',
    ).split(/\r?\n/);
    expect(first).toMatch(/^"000000102ELC","2","Y","UN1263","UN1263, Waste Paint, 3, II","3",/);
    const lines = join(dir, 'two-versions');
    mkdirSync(lines);
    const second = first.replace('II","3",', 'II","4",');
    expect(second).not.toBe(first);
    writeFileSync(join(lines, 'EM_WASTE_LINE_0.csv'), [header, first, second, ''].join('\r\n'));
    const manifests = join(dir, 'their-manifests');
    mkdirSync(manifests);
    copyFileSync(join(FIXTURES, 'week1', 'EM_MANIFEST.csv'), join(manifests, 'EM_MANIFEST.csv'));
    const ordered = await target('pending-order.db');
    const held = await importFiles({ db: ordered.db, paths: [lines], report: report('two-versions') });
    expect(held.totals.pending).toBe(2);
    const applied = await importFiles({
      db: ordered.db,
      paths: [manifests],
      report: report('their-manifests'),
    });
    expect(applied.appliedFromEarlierRuns).toBe(2);
    // The second, of a number the manifest already has from this run, is compared and refused, not lost.
    const refused = reportRecords(applied.reportPath).filter(([file = '']) => file.endsWith('LINE_0.csv'));
    expect(refused.map(([, line, , reason]) => [line, reason])).toEqual([
      ['3', 'conflicts with the waste line 2 this import already stored'],
    ]);
    const line = (await contentOf(ordered)).wasteLines?.find(
      (row) => (row as unknown[])[0] === '000000102ELC',
    ) as unknown[];
    expect(line.slice(0, 6)).toEqual(['000000102ELC', 2, 'Y', 'UN1263', 'UN1263, Waste Paint, 3, II', 3]);
  });
});

describe('a NUL character (U+0000) in a row', () => {
  it('refuses the row with the column that holds it, keeps the rest, and reports the row with the NUL shown', async () => {
    const db = await target('nul.db');
    const folder = join(dir, 'nul');
    mkdirSync(folder);
    const [header = '', row = ''] = readFileSync(join(FIXTURES, 'week2', 'EM_MANIFEST.csv'), 'utf8').split(
      /\r?\n/,
    );
    const withNul = row.replace('000000199ELC', '000000302ELC').replace('Lone Star', 'Lone\u0000Star');
    const good = row.replace('000000199ELC', '000000301ELC');
    writeFileSync(join(folder, 'EM_MANIFEST.csv'), [header, good, withNul, ''].join('\r\n'));
    const manifest = (number: string) => ({
      manifestTrackingNumber: number,
      status: 'Signed',
      generator: { epaSiteId: 'TXD000000003', name: number.endsWith('FLE') ? 'Nul\u0000Works' : 'Works' },
      wastes: [],
    });
    writeFileSync(
      join(folder, 'manifests.jsonl'),
      [manifest('000000303ELC'), manifest('000000304FLE')].map((value) => JSON.stringify(value)).join('\n'),
    );

    const result = await importFiles({ db: db.db, paths: [folder], report: report('nul') });
    expect(counts(result)).toEqual({
      'EM_MANIFEST.csv': '2 1 0 0 0 1 0',
      'manifests.jsonl': '2 1 0 0 0 1 0',
    });
    const [, ...records] = reportRecords(result.reportPath);
    const reason = 'holds a NUL character (U+0000), which no database text can hold';
    expect(
      records.map(([file = '', line, column, why]) => [file.split('/').at(-1), line, column, why]),
    ).toEqual([
      ['EM_MANIFEST.csv', '3', 'GENERATOR NAME', reason],
      ['manifests.jsonl', '2', '', reason],
    ]);
    expect(records[0]?.[4]).toContain('"Lone\u2400Star Metal Finishing"');
    const stored = await db.rows('SELECT manifest_tracking_number FROM manifests ORDER BY 1');
    expect(stored.map((entry) => entry.manifest_tracking_number)).toEqual(['000000301ELC', '000000303ELC']);
  });
});

describe('two versions of one manifest changed on the same day', () => {
  it('keeps the later by the time of its UPDATED DATE or updatedDate, and skips the earlier read after it', async () => {
    const db = await target('same-day.db');
    const [header = '', row = ''] = readFileSync(join(FIXTURES, 'week2', 'EM_MANIFEST.csv'), 'utf8').split(
      /\r?\n/,
    );
    /** A CSV version of 000000501ELC and a JSON version of 000000502ELC, each in a folder of its own. */
    const versions = (name: string, updated: string, received: string) => {
      const folder = join(dir, name);
      mkdirSync(folder);
      const csv = row
        .replace('000000199ELC', '000000501ELC')
        .replace('"2024-03-12"', `"${updated.replace('T', ' ')}"`)
        .replace('"2024-03-11"', `"${received}"`);
      writeFileSync(join(folder, 'EM_MANIFEST.csv'), [header, csv, ''].join('\r\n'));
      const json = {
        manifestTrackingNumber: '000000502ELC',
        updatedDate: `${updated}.000+0000`,
        shippedDate: '2024-03-10T08:00:00.000+0000',
        ...(received ? { receivedDate: `${received}T12:00:00.000+0000` } : {}),
        generator: { epaSiteId: 'TXD000000002', name: 'Lone Star Metal Finishing' },
        wastes: [],
      };
      writeFileSync(join(folder, 'manifest.json'), JSON.stringify(json));
      return folder;
    };
    const morning = versions('same-day-morning', '2024-03-12T09:00:00', '');
    const afternoon = versions('same-day-afternoon', '2024-03-12T17:30:00', '2024-03-12');
    const stored = () =>
      db.rows(
        `SELECT manifest_tracking_number, updated_date, received_date FROM manifests
         WHERE manifest_tracking_number IN ('000000501ELC', '000000502ELC') ORDER BY 1`,
      );

    expect(counts(await importFiles({ db: db.db, paths: [morning], report: report('same-day') }))).toEqual({
      'EM_MANIFEST.csv': '1 1 0 0 0 0 0',
      'manifest.json': '1 1 0 0 0 0 0',
    });
    // Told apart by the time alone: the afternoon's version replaces the morning's, no conflict.
    expect(counts(await importFiles({ db: db.db, paths: [afternoon], report: report('same-day') }))).toEqual({
      'EM_MANIFEST.csv': '1 0 1 0 0 0 0',
      'manifest.json': '1 0 1 0 0 0 0',
    });
    const afterAfternoon = [
      {
        manifest_tracking_number: '000000501ELC',
        updated_date: '2024-03-12T17:30:00.000Z',
        received_date: '2024-03-12',
      },
      {
        manifest_tracking_number: '000000502ELC',
        updated_date: '2024-03-12T17:30:00.000Z',
        received_date: '2024-03-12',
      },
    ];
    expect(await stored()).toEqual(afterAfternoon);
    expect(counts(await importFiles({ db: db.db, paths: [morning], report: report('same-day') }))).toEqual({
      'EM_MANIFEST.csv': '1 0 0 0 1 0 0',
      'manifest.json': '1 0 0 0 1 0 0',
    });
    expect(await stored()).toEqual(afterAfternoon);
  });
});

describe("a row past what the API's clients read", () => {
  it('refuses a text field over LIMITS.fieldTextMax and a waste line numbered past LIMITS.wasteLinesMax', async () => {
    const db = await target('limits.db');
    const folder = join(dir, 'limits');
    mkdirSync(folder);
    const [header = '', row = ''] = readFileSync(join(FIXTURES, 'week2', 'EM_MANIFEST.csv'), 'utf8').split(
      /\r?\n/,
    );
    const good = row.replace('000000199ELC', '000000401ELC');
    const long = row
      .replace('000000199ELC', '000000402ELC')
      .replace('Lone Star Metal Finishing', 'L'.repeat(LIMITS.fieldTextMax + 1));
    writeFileSync(join(folder, 'EM_MANIFEST.csv'), [header, good, long, ''].join('\r\n'));
    const [lineHeader = '', line = ''] = readFileSync(
      join(FIXTURES, 'week1', 'EM_WASTE_LINE_0.csv'),
      'utf8',
    ).split(/\r?\n/);
    const numbered = (number: number) =>
      line.replace('"000000101ELC","1"', `"000000401ELC","${String(number)}"`);
    writeFileSync(
      join(folder, 'EM_WASTE_LINE.csv'),
      [lineHeader, numbered(1), numbered(LIMITS.wasteLinesMax), numbered(LIMITS.wasteLinesMax + 1), ''].join(
        '\n',
      ),
    );
    const manifest = (number: string, lineNumber: number) => ({
      manifestTrackingNumber: number,
      status: 'Signed',
      generator: { epaSiteId: 'TXD000000003', name: 'Works' },
      wastes: [{ lineNumber, dotHazardous: false, epaWaste: false }],
    });
    writeFileSync(
      join(folder, 'manifests.jsonl'),
      [manifest('000000403ELC', 1), manifest('000000404ELC', 0)]
        .map((value) => JSON.stringify(value))
        .join('\n'),
    );

    const result = await importFiles({ db: db.db, paths: [folder], report: report('limits') });
    expect(counts(result)).toEqual({
      'EM_MANIFEST.csv': '2 1 0 0 0 1 0',
      'EM_WASTE_LINE.csv': '3 2 0 0 0 1 0',
      'manifests.jsonl': '2 1 0 0 0 1 0',
    });
    const [, ...records] = reportRecords(result.reportPath);
    const lineNumbers =
      'not a waste line number: one is a whole number from 1 to 1,000, the most waste lines the API gives a manifest';
    // By file: the order files are read in depends on the database's state, not on this test.
    expect(
      records
        .map(([file = '', at, column, why]) => [file.split('/').at(-1) ?? '', at, column, why])
        .sort(([a = ''], [b = '']) => a.localeCompare(b)),
    ).toEqual([
      [
        'EM_MANIFEST.csv',
        '3',
        'GENERATOR NAME',
        'longer than 4,000 characters, the most a text field of the API holds',
      ],
      ['EM_WASTE_LINE.csv', '4', 'WASTE LINE NUMBER', lineNumbers],
      ['manifests.jsonl', '2', 'wastes[0].lineNumber', lineNumbers],
    ]);
    const stored = await db.rows('SELECT manifest_tracking_number FROM manifests ORDER BY 1');
    expect(stored.map((entry) => entry.manifest_tracking_number)).toEqual(['000000401ELC', '000000403ELC']);
  });
});

describe('a count or amount no manifest holds', () => {
  it('refuses containers past EPA’s 99,999 a line, counts PostgreSQL’s integer cannot hold, and amounts past 1e12', async () => {
    const db = await target('containers.db');
    const folder = join(dir, 'containers');
    mkdirSync(folder);
    copyFileSync(join(FIXTURES, 'week1', 'EM_MANIFEST.csv'), join(folder, 'EM_MANIFEST.csv'));
    const [header = '', line = ''] = readFileSync(
      join(FIXTURES, 'week1', 'EM_WASTE_LINE_0.csv'),
      'utf8',
    ).split(/\r?\n/);
    const withContainers = (number: string, count: string) =>
      line
        .replace('"000000101ELC","1"', `"000000101ELC","${number}"`)
        .replace('3, II","4"', `3, II","${count}"`);
    writeFileSync(
      join(folder, 'EM_WASTE_LINE.csv'),
      [
        header,
        withContainers('1', '100000'),
        withContainers('2', '99999999999'),
        withContainers('3', '4').replace('"G","1.0"', '"G","1e308"'),
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(folder, 'manifest.json'),
      JSON.stringify({
        manifestTrackingNumber: '000000405ELC',
        status: 'Signed',
        generator: { epaSiteId: 'TXD000000003', name: 'Works' },
        wastes: [{ lineNumber: 1, quantity: { containerNumber: 2.5 } }],
      }),
    );

    const result = await importFiles({ db: db.db, paths: [folder], report: report('containers') });
    expect(counts(result)['EM_WASTE_LINE.csv']).toBe('3 0 0 0 0 3 0');
    expect(counts(result)['manifest.json']).toBe('1 0 0 0 0 1 0');
    const reasons = reportRecords(result.reportPath)
      .slice(1)
      .filter(([file = '']) => !file.endsWith('EM_MANIFEST.csv'))
      .map(([file = '', , column, reason]) => [file.split('/').at(-1), column, reason]);
    expect(reasons.sort()).toEqual([
      [
        'EM_WASTE_LINE.csv',
        'NUMBER OF CONTAINERS',
        'more containers than a waste line holds (0 to 99,999): "100000"',
      ],
      // PostgreSQL's integer holds no more: it refused the batch, and the import could not go on.
      [
        'EM_WASTE_LINE.csv',
        'NUMBER OF CONTAINERS',
        'too large for a count (at most 2,147,483,647): "99999999999"',
      ],
      // Two such tons make an infinite total, which JSON writes as null.
      ['EM_WASTE_LINE.csv', 'QUANTITY TONS', 'too large for an amount (at most 1,000,000,000,000): "1e308"'],
      ['manifest.json', 'wastes[0].quantity.containerNumber', 'not a whole number: "2.5"'],
    ]);
  });
});

describe('a folder that holds more than the data', () => {
  it('reads the rest and lists a file of another kind and an archive that does not open as not read', async () => {
    const db = await target('more-than-data.db');
    const folder = join(dir, 'more-than-data');
    mkdirSync(folder);
    copyFileSync(join(FIXTURES, 'week1', 'EM_MANIFEST.csv'), join(folder, 'EM_MANIFEST.csv'));
    writeFileSync(join(folder, 'EM_Data_Dictionary.pdf'), '%PDF-1.7');
    // A download cut short: the archive's directory, at its end, never came.
    const zip = readFileSync(join(FIXTURES, 'week1', 'EM_FEDERAL_WASTE_CODE.zip'));
    writeFileSync(join(folder, 'EM_WASTE_LINE.zip'), zip.subarray(0, zip.length - 30));

    const result = await importFiles({ db: db.db, paths: [folder], report: report('more-than-data') });
    expect(result.files.map((file) => [file.path.split('/').at(-1), file.refused])).toEqual([
      ['EM_MANIFEST.csv', undefined],
      ['EM_Data_Dictionary.pdf', 'not a .csv, .txt, .json, .jsonl, .ndjson or .zip file'],
      [
        'EM_WASTE_LINE.zip',
        `${join(folder, 'EM_WASTE_LINE.zip')} is not a zip file, or one cut short (no end of central directory)`,
      ],
    ]);
    expect(counts(result)['EM_MANIFEST.csv']).toBe('8 3 1 0 0 4 0');
    const notRead = reportRecords(result.reportPath).filter(([, , , reason = '']) =>
      reason.startsWith('file not read'),
    );
    expect(notRead.map(([file = '']) => file.split('/').at(-1)).sort()).toEqual([
      'EM_Data_Dictionary.pdf',
      'EM_WASTE_LINE.zip',
    ]);
  });
});

describe('a table saved again by a spreadsheet', () => {
  it('refuses UTF-16 ("Unicode Text") and tab-separated files with what to save them as', async () => {
    const db = await target('resaved.db');
    const folder = join(dir, 'resaved');
    mkdirSync(folder);
    const manifests = readFileSync(join(FIXTURES, 'week1', 'EM_MANIFEST.csv'), 'utf8').replace(/^\ufeff/, '');
    writeFileSync(
      join(folder, 'EM_MANIFEST.csv'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(manifests, 'utf16le')]),
    );
    const handlers = readFileSync(join(FIXTURES, 'week1', 'HD_REPORTING.csv'), 'utf8');
    writeFileSync(join(folder, 'HD_REPORTING.txt'), handlers.split('\n')[0]!.replaceAll(',', '\t'));
    copyFileSync(join(FIXTURES, 'week1', 'EM_TRANSPORTER.csv'), join(folder, 'EM_TRANSPORTER.csv'));

    const result = await importFiles({ db: db.db, paths: [folder], report: report('resaved') });
    const save = 'save it as "CSV UTF-8 (Comma delimited)" and import that';
    expect(
      Object.fromEntries(result.files.map((file) => [file.path.split('/').at(-1), file.refused])),
    ).toEqual({
      'HD_REPORTING.txt': `its columns are separated by tabs, not commas: ${save}`,
      'EM_MANIFEST.csv': `the file is UTF-16 (as Excel's "Unicode Text" saves it), not UTF-8: ${save}`,
      'EM_TRANSPORTER.csv': undefined,
    });
    expect(counts(result)['EM_MANIFEST.csv']).toBe('1 0 0 0 0 1 0');
  });

  it('reads one saved as "CSV (Comma delimited)", in Windows-1252, with its accented letters, and says so', async () => {
    const db = await target('windows-1252.db');
    const folder = join(dir, 'windows-1252');
    mkdirSync(folder);
    const manifests = readFileSync(join(FIXTURES, 'week1', 'EM_MANIFEST.csv'), 'utf8')
      .replace(/^\ufeff/, '')
      .replace('Sooner Plating', 'Société Générale’s Niño Plating');
    // Windows-1252 writes é, ñ as Latin-1 does, and ’ as 0x92.
    writeFileSync(join(folder, 'EM_MANIFEST.csv'), Buffer.from(manifests.replace('’', '\x92'), 'latin1'));
    copyFileSync(join(FIXTURES, 'week1', 'EM_TRANSPORTER.csv'), join(folder, 'EM_TRANSPORTER.csv'));

    const events: ImportEvent[] = [];
    const result = await importFiles({
      db: db.db,
      paths: [folder],
      report: report('windows-1252'),
      onEvent: (event) => events.push(event),
    });
    expect(
      await db.value("SELECT generator_name FROM manifests WHERE manifest_tracking_number = '000000102ELC'"),
    ).toBe('Société Générale’s Niño Plating');
    expect(
      Object.fromEntries(result.files.map((file) => [file.path.split('/').at(-1), file.windows1252])),
    ).toEqual({ 'EM_MANIFEST.csv': true, 'EM_TRANSPORTER.csv': undefined });
    expect(events.filter((event) => event.kind === 'windows-1252')).toEqual([
      { kind: 'windows-1252', path: join(folder, 'EM_MANIFEST.csv') },
    ]);
  });
});

describe('a quote that never closes in a file of unquoted fields', () => {
  it('rejects its line with the reason and stores every row after it', async () => {
    const db = await target('open-quote.db');
    const folder = join(dir, 'open-quote');
    mkdirSync(folder);
    const [header = '', row = ''] = readFileSync(join(FIXTURES, 'week1', 'HD_REPORTING.csv'), 'utf8').split(
      /\r?\n/,
    );
    const fields = row.replace(/"[^"]*"/g, 'quoted').split(',');
    const handler = (index: number, name: string) =>
      [`TXD${String(index).padStart(9, '0')}`, name, ...fields.slice(2)].join(',');
    // More than MAX_RECORD_CHARS after the quote, none of it quoted: without a bound it is all one field.
    const after = Array.from({ length: 12_000 }, (_, index) => handler(index + 2, `Plain Works ${index}`));
    const broken = handler(1, '"Scott Institute of Technology');
    writeFileSync(join(folder, 'HD_REPORTING.csv'), [header, broken, ...after, ''].join('\n'));
    expect(after.join('\n').length).toBeGreaterThan(MAX_RECORD_CHARS);

    const result = await importFiles({ db: db.db, paths: [folder], report: report('open-quote') });
    expect(counts(result)).toEqual({ 'HD_REPORTING.csv': `${after.length + 1} ${after.length} 0 0 0 1 0` });
    expect(reportRecords(result.reportPath).slice(1)).toEqual([
      [
        expect.stringMatching(/HD_REPORTING\.csv$/),
        '2',
        '',
        'no record ends within 1,048,576 characters of this line (a quote that does not close, or a line that does not end): the line is rejected and reading goes on at the next',
        broken,
      ],
    ]);
    expect(
      await db.value('SELECT generator_name FROM generators WHERE epa_handler_id = ?', 'TXD000012001'),
    ).toBe('Plain Works 11999');
  });
});

describe("EPA's and haztrak's example manifests and handler", () => {
  const SAMPLES = join(FIXTURES, 'samples');
  let db: ImportTarget;
  let result: Awaited<ReturnType<typeof importFiles>>;

  beforeAll(async () => {
    db = await target('samples.db');
    // EPA's save examples carry no tracking number (EPA assigns it) or "CHANGE ME": as they are they are
    // refused; numbered, as JSON lines and as an array, they are manifests.
    const examples = ['Data-and-Image', 'Full-Electronic', 'Hybrid'].map(
      (name) =>
        JSON.parse(
          readFileSync(join(SAMPLES, `epa_emanifest-save-valid-${name}-example.json`), 'utf8'),
        ) as Record<string, unknown>,
    );
    const numbered = join(dir, 'numbered');
    mkdirSync(numbered);
    writeFileSync(
      join(numbered, 'lines.jsonl'),
      examples
        .map((example, index) =>
          JSON.stringify({ ...example, manifestTrackingNumber: `00000070${index}JJK` }),
        )
        .join('\n'),
    );
    writeFileSync(
      join(numbered, 'array.json'),
      JSON.stringify(
        examples.map((example, index) => ({
          ...example,
          manifestTrackingNumber: `00000080${index}ELC`,
          updatedDate: '2019-03-20T10:00:00.000+0000',
        })),
      ),
    );
    result = await importFiles({ db: db.db, paths: [SAMPLES, numbered], report: report('samples') });
  });

  it('stores the haztrak manifest with its generator from the haztrak handler, refuses the unnumbered', async () => {
    expect(counts(result)).toEqual({
      'epa_emanifest-save-valid-Data-and-Image-example.json': '1 0 0 0 0 1 0',
      'epa_emanifest-save-valid-Full-Electronic-example.json': '1 0 0 0 0 1 0',
      'epa_emanifest-save-valid-Hybrid-example.json': '1 0 0 0 0 1 0',
      'haztrak_test_handler.json': '1 1 0 0 0 0 0',
      'haztrak_test_manifest_100033134ELC.json': '1 1 0 0 0 0 0',
      'array.json': '3 3 0 0 0 0 0',
      'lines.jsonl': '3 3 0 0 0 0 0',
    });
    const reasons = reportRecords(result.reportPath)
      .slice(1)
      .map((record) => record.slice(2, 4));
    expect(reasons).toEqual([
      ['manifestTrackingNumber', 'not a manifest tracking number (9 digits and 3 letters): "CHANGE ME"'],
      ['manifestTrackingNumber', 'no manifestTrackingNumber'],
      ['manifestTrackingNumber', 'no manifestTrackingNumber'],
    ]);
    {
      expect(
        await db.row(
          `SELECT m.generator_name, m.transporter, m.designated_facility_name, m.shipped_date, g.record_source
           FROM manifests m JOIN generators g ON g.id = m.generator_id WHERE m.manifest_tracking_number = '100033134ELC'`,
        ),
      ).toEqual({
        generator_name: 'VA TEST GEN 2021',
        transporter: 'VA TEST TRAN 2021',
        designated_facility_name: 'VA TEST TSDF 2021',
        shipped_date: '2022-01-21',
        record_source: 'handler',
      });
    }
    // The handler's street line repeats its street number ("123", "123 VA TEST GEN 2021 WAY"): read once.
    expect(
      await db.row(
        `SELECT physical_address, location_street_number AS number, location_street_1 AS street
         FROM generators WHERE epa_handler_id = 'VATESTGEN001'`,
      ),
    ).toEqual({
      physical_address: '123 VA TEST GEN 2021 WAY',
      number: '123',
      street: '123 VA TEST GEN 2021 WAY',
    });
  });

  it('converts quantities to tons where the unit or the line’s density says how, and leaves 0 where not', async () => {
    {
      const lines = await db.rows(
        `SELECT w.waste_line_number AS line, w.waste_quantity_tons AS tons FROM waste_lines w
         JOIN manifests m ON m.id = w.manifest_id WHERE m.manifest_tracking_number = '000000700JJK' ORDER BY 1`,
      );
      // 456 kg, 55 kg, 345 lb, 55 gal with no density (unknown), 43 gal at 123 lbs/gal.
      expect(lines).toEqual([
        { line: 1, tons: 0.502654 },
        { line: 2, tons: 0.060627 },
        { line: 4, tons: 0.1725 },
        { line: 5, tons: 0 },
        { line: 6, tons: 2.6445 },
      ]);
    }
  });
});

describe('the demo dataset written as EPA files', () => {
  let source: ImportTarget;
  let files = '';
  let written: Awaited<ReturnType<typeof writeEpaFiles>>;
  /** The files imported whole into a new database, which the tests below compare theirs with. */
  let whole: ImportTarget;
  let wholeResult: Awaited<ReturnType<typeof importFiles>>;

  beforeAll(async () => {
    // Fewer on PostgreSQL, where each batch's statements cross the loopback: the same paths, in less CI time.
    await buildDemoDatabase(join(dir, 'demo.db'), {
      manifests: TEST_BACKEND === 'postgres' ? 400 : 1200,
      seed: 3,
    });
    source = sqliteFile(join(dir, 'demo.db'));
    files = join(dir, 'demo-files');
    mkdirSync(files);
    const demo = new BetterSqlite3(join(dir, 'demo.db'), { readonly: true });
    written = await writeEpaFiles(demo, files, { linesPerPart: 1000 });
    demo.close();
    // One part zipped, as EPA ships them.
    writeZip(join(files, 'EM_WASTE_LINE_1.zip'), [
      { name: 'EM_WASTE_LINE_1.csv', data: readFileSync(join(files, 'EM_WASTE_LINE_1.csv')) },
    ]);
    rmSync(join(files, 'EM_WASTE_LINE_1.csv'));
    whole = await target('whole.db');
    wholeResult = await importFiles({ db: whole.db, paths: [files], report: report('whole') });
  });
  afterAll(() => source.close());

  /** Half the manifests with all their handlers, transporters and lines, for a database that has data. */
  function halfOfTheFiles(name: string): string {
    const half = join(dir, name);
    mkdirSync(half);
    for (const file of ['HD_REPORTING.csv', 'EM_TRANSPORTER.csv', 'EM_WASTE_LINE_0.csv']) {
      copyFileSync(join(files, file), join(half, file));
    }
    const manifests = readFileSync(join(files, 'EM_MANIFEST.csv'), 'utf8').split('\r\n');
    writeFileSync(
      join(half, 'EM_MANIFEST.csv'),
      manifests.slice(0, Math.ceil(manifests.length / 2)).join('\r\n') + '\r\n',
    );
    return half;
  }

  it('imports into a new database with the demo’s manifests, waste lines and shipment totals', async () => {
    expect(wholeResult.totals.rejected).toBe(0);
    {
      const sourceContent = await contentOf(source);
      const content = await contentOf(whole);
      for (const table of [
        'manifests',
        'wasteLines',
        'wasteLinesJson',
        'lineSets',
        'lineSetTotals',
        'shippedYears',
        'wasteCodes',
        'handlingCodes',
      ]) {
        const leaveOutImportColumns = (rows: unknown[]) =>
          table === 'manifests' ? rows.map((row) => (row as unknown[]).slice(0, 11)) : rows;
        expect(leaveOutImportColumns(content[table] ?? []), table).toEqual(
          leaveOutImportColumns(sourceContent[table] ?? []),
        );
      }
      await expectSearchIndexesIntact(whole);
    }
  });

  it('stores what an import of the same files into SQLite stores, derived data and tallies alike', async () => {
    const reference = sqliteFile(join(dir, 'reference.db'));
    try {
      await importFiles({ db: reference.db, paths: [files], report: report('reference') });
      const [imported, expected] = [await contentOf(whole), await contentOf(reference)];
      expect(servedContent(imported)).toEqual(servedContent(expected));
      expect(onePerRowLists(imported)).toEqual(onePerRowLists(expected));
    } finally {
      await reference.close();
    }
  });

  it('gives a database with data, imported into in several runs, the derived data one build gives', async () => {
    // Half the manifests and a third of the lines first (bulk, into an empty file), then every file
    // (incremental, as into a served database: the rest arrive, the first half read again unchanged).
    const half = halfOfTheFiles('half');
    const incremental = await target('incremental.db');
    await importFiles({ db: incremental.db, paths: [half], report: report('half') });
    await importFiles({ db: incremental.db, paths: [files], report: report('incremental') });
    expect(await contentOf(incremental)).toEqual(await contentOf(whole));
    await expectSearchIndexesIntact(incremental);
  });

  it('moves the totals of generators and values when stored manifests get lines in a later run', async () => {
    // Handlers, manifests and each manifest's first waste line first, then every file: the stored manifests
    // gain their other lines and their transporters, and their generators' shipment totals, method counts
    // and sets, and their values' totals, move by what they gained.
    const first = join(dir, 'first-lines');
    mkdirSync(first);
    for (const name of ['HD_REPORTING.csv', 'EM_MANIFEST.csv'])
      copyFileSync(join(files, name), join(first, name));
    const [header = '', ...rows] = readFileSync(join(files, 'EM_WASTE_LINE_0.csv'), 'utf8').split('\r\n');
    const firstLines = rows.filter((row) => /^"[^"]*","1",/.test(row));
    expect(firstLines.length).toBeLessThan(rows.length - 1);
    writeFileSync(join(first, 'EM_WASTE_LINE_0.csv'), [header, ...firstLines, ''].join('\r\n'));
    const later = await target('later.db');
    await importFiles({ db: later.db, paths: [first], report: report('first-lines') });
    await importFiles({ db: later.db, paths: [files], report: report('later') });
    expect(await contentOf(later)).toEqual(await contentOf(whole));
  });

  it('stores a manifest with the transporter and totals of the rows held for it, not updated after', async () => {
    // The first half of the manifests with every transporter and line of the first part: the other half's
    // wait. Then the other half: each is inserted with what its waiting rows give it, and the derived data
    // find nothing to write again in its row.
    const held = await target('held.db');
    await importFiles({ db: held.db, paths: [halfOfTheFiles('half-held')], report: report('half-held') });
    const rest = join(dir, 'rest');
    mkdirSync(rest);
    const [header = '', ...manifests] = readFileSync(join(files, 'EM_MANIFEST.csv'), 'utf8').split('\r\n');
    writeFileSync(
      join(rest, 'EM_MANIFEST.csv'),
      [header, ...manifests.slice(Math.ceil((manifests.length + 1) / 2) - 1)].join('\r\n'),
    );
    let result: Awaited<ReturnType<typeof importFiles>> | undefined;
    const written = await rowsWritten(held, async () => {
      result = await importFiles({ db: held.db, paths: [rest], report: report('rest') });
    });
    expect(result?.appliedFromEarlierRuns).toBeGreaterThan(100);
    expect(written.manifests).toBe(0);
  });

  it('keeps the totals of manifests whose rows, applied from pending, are read again in the same run', async () => {
    // Handlers, transporters and lines first (the rows wait for their manifests), then every file: the
    // manifests let the waiting rows through, and the transporter and line files then read them again.
    const early = join(dir, 'early');
    mkdirSync(early);
    for (const name of ['HD_REPORTING.csv', 'EM_TRANSPORTER.csv', 'EM_WASTE_LINE_0.csv']) {
      copyFileSync(join(files, name), join(early, name));
    }
    const waited = await target('waited.db');
    await importFiles({ db: waited.db, paths: [early], report: report('early') });
    const second = await importFiles({ db: waited.db, paths: [files], report: report('waited') });
    expect(second.appliedFromEarlierRuns).toBeGreaterThan(0);
    expect(await contentOf(waited)).toEqual(await contentOf(whole));
  });

  it('never lets a client see a manifest it appends without its waste lines and transporters', async () => {
    const appended = await target('appended.db');
    await importFiles({ db: appended.db, paths: [halfOfTheFiles('half-seen')], report: report('half-seen') });
    const tracking = async (sql: string, of: ImportTarget) => new Set((await of.values(sql)).flat());
    const there = await tracking('SELECT manifest_tracking_number FROM manifests', appended);
    // Manifests with no waste line (or no transporter) in any file: of those the run adds, the only ones a
    // client may see without.
    const without = (table: string) =>
      `SELECT m.manifest_tracking_number FROM manifests m
       WHERE NOT EXISTS (SELECT 1 FROM ${table} c WHERE c.manifest_id = m.id)`;
    const lineless = await tracking(without('waste_lines'), whole);
    const transporterless = await tracking(without('manifest_transporters'), whole);
    const sink = await openSink(appended);
    let added = 0;
    const look = async () => {
      added = (await tracking('SELECT manifest_tracking_number FROM manifests', appended)).size - there.size;
      for (const number of await tracking(without('waste_lines'), appended)) {
        if (!there.has(number)) expect(lineless).toContain(number);
      }
      for (const number of await tracking(without('manifest_transporters'), appended)) {
        if (!there.has(number)) expect(transporterless).toContain(number);
      }
    };
    const watched = wrapSink(sink, {
      write: async (batch: SinkBatch) => {
        const counts = await sink.write(batch);
        await look();
        return counts;
      },
      releaseHeld: async (after, limit) => {
        const released = await sink.releaseHeld(after, limit);
        await look();
        return released;
      },
    });
    try {
      await runImport({ sink: watched, sources: await discoverSources([files]), batchRows: 97 });
    } finally {
      await sink.close();
    }
    expect(added).toBe(written.manifests - there.size);
    expect(await contentOf(appended)).toEqual(await contentOf(whole));
  });

  it.each([
    ['while it holds waste lines', 'EM_WASTE_LINE'],
    ['while it stores manifests', 'EM_MANIFEST'],
    ['while it releases the rows it held for manifests already stored', 'release'],
  ] as const)('resumes an append stopped %s and ends with the same database', async (_when, step) => {
    const stopped = await target(`append-stopped-${step}.db`);
    const half = halfOfTheFiles(`half-stopped-${step}`);
    await importFiles({ db: stopped.db, paths: [half], report: report(`half-${step}`) });
    const sink = await openSink(stopped);
    let calls = 0;
    // A sink that dies on its second batch of the step, as a killed process would: that transaction never
    // commits.
    const dying = (isTheStep: boolean) => {
      if (!isTheStep) return;
      calls += 1;
      if (calls === 2) throw new Error('killed');
    };
    const killable = wrapSink(sink, {
      write: (batch: SinkBatch) => {
        dying(step !== 'release' && batch.file.path.includes(step));
        return sink.write(batch);
      },
      releaseHeld: (after, limit) => {
        dying(step === 'release');
        return sink.releaseHeld(after, limit);
      },
    });
    await expect(
      runImport({ sink: killable, sources: await discoverSources([files]), batchRows: 100 }),
    ).rejects.toThrow('killed');
    await sink.close();
    const resumed = await importFiles({
      db: stopped.db,
      paths: [files],
      batchRows: 100,
      report: report(`resumed-${step}`),
    });
    expect(resumed.resumed).toBe(true);
    expect(resumed.totals.read).toBe(
      written.handlers + written.manifests + written.transporters + written.wasteLines,
    );
    expect(resumed.totals.pending).toBe(0);
    expect(await contentOf(stopped)).toEqual(await contentOf(whole));
  });

  it('resumes a run stopped between two batches and ends with the same database', async () => {
    const stopped = await target('stopped.db');
    const sink = await openSink(stopped);
    let batches = 0;
    // A sink that dies on its fourth batch, as a killed process would: the batch's transaction never commits.
    const dying = wrapSink(sink, {
      write: (batch: SinkBatch) => {
        batches += 1;
        if (batches === 4) throw new Error('killed');
        return sink.write(batch);
      },
    });
    await expect(
      runImport({ sink: dying, sources: await discoverSources([files]), batchRows: 500 }),
    ).rejects.toThrow('killed');
    await sink.close();
    const resumed = await importFiles({
      db: stopped.db,
      paths: [files],
      batchRows: 500,
      report: report('stopped'),
    });
    expect(resumed.resumed).toBe(true);
    // Every row read once over both attempts: the stopped batch's rows were read again, not counted twice.
    expect(resumed.totals.read).toBe(
      written.handlers + written.manifests + written.transporters + written.wasteLines,
    );
    expect(await contentOf(stopped)).toEqual(await contentOf(whole));
  });
});
