/**
 * An import into the database a server is serving (docs/api.md "The data while serving"): after each of
 * the import's transactions, the next requests see its rows in the list and its count, the totals boxes of
 * both lists, the lookups (short and long searches) and the profiles, with nothing the server keeps in
 * memory left behind; and after the import the answers equal those of a server started afresh on the
 * database. One suite for both backends: with TRACKER_TEST_BACKEND=postgres the server serves, and the
 * import writes, a PostgreSQL database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../../server/src/import/import-files.ts';
import { runImport } from '../../../server/src/import/run.ts';
import { discoverSources } from '../../../server/src/import/sources.ts';
import { startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { INSPECTOR, PATHS, get, listPage, post, signInAs, type Session } from '../support.ts';
import {
  FIXTURES,
  addDemoAccounts,
  newTarget,
  openSink,
  wrapSink,
  type ImportTarget,
} from './import-support.ts';

let dir = '';
let target: ImportTarget;
let server: TrackerServer;
let session: Session;

/** A server on the target: on PostgreSQL it serves the database, the file beside it only opened. */
function serve(): Promise<TrackerServer> {
  return target.backend === 'postgres'
    ? startTrackerServer({ dbPath: join(dir, 'week1.db'), databaseUrl: target.db })
    : startTrackerServer({ dbPath: target.db });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracker-serving-'));
  target = await newTarget(dir, 'served.db');
  await importFiles({ db: target.db, paths: [join(FIXTURES, 'week1')], report: join(dir, 'week1.csv') });
  if (target.backend === 'postgres') {
    await importFiles({ db: join(dir, 'week1.db'), paths: [join(FIXTURES, 'week1')] });
  }
  await addDemoAccounts(target);
  server = await serve();
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
});

afterAll(async () => {
  await server?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface View {
  manifests: number;
  tracking: string[];
  manifestBoxes: unknown;
  generatorBoxes: unknown;
  generatorsOfLoneStar: number;
  numberLookup: string[];
  otherNumberLookup: string[];
  /** Every tracking number and every handler id, as their lookups list them unsearched and searched. */
  allNumbers: string[];
  elcNumbers: string[];
  handlerIds: string[];
  shortNameLookup: string[];
  generatorLookup: string[];
  idleShop: number;
  /** A searched list in tracking-number order: all of it, and its second and third rows read as pages. */
  searched: string[];
  searchedSecond: string[];
  searchedThird: string[];
}

/** What a client sees of the data right now. */
async function view(): Promise<View> {
  const page = await listPage(session, 'manifests', {
    pageSize: 50,
    selectedFields: 'manifest_tracking_number',
  });
  const boxes = (path: string) =>
    post(session.baseUrl, path, session.token, { filterFields: {}, searchKey: '' });
  const lookup = async (path: string, field: string, search: string) => {
    const answer = await get(session.baseUrl, path, session.token, { field, page: 1, search });
    return (answer.body as { results: { value: string }[] }).results.map((entry) => entry.value);
  };
  const filtered = await post(session.baseUrl, PATHS.generatorTotals, session.token, {
    filterFields: { names: ['Lone Star Metal Finishing'] },
    searchKey: '',
  });
  const detail = await get(session.baseUrl, PATHS.detail, session.token, { handler_id: 'TXD000000003' });
  // The third row is read before the second: it then starts from the bookmark the second noted in the view
  // before, which a commit in between has made stale.
  const searchedRows = async (page: number, pageSize: number) =>
    (
      await listPage(session, 'manifests', {
        searchKey: '0000001',
        sort: 'manifest_tracking_number desc',
        page,
        pageSize,
        selectedFields: 'manifest_tracking_number',
      })
    ).content.map((row) => String(row.manifest_tracking_number));
  const searchedThird = await searchedRows(2, 1);
  const searchedSecond = await searchedRows(1, 1);
  return {
    manifests: page.totalElements,
    tracking: page.content.map((row) => String(row.manifest_tracking_number)).sort(),
    manifestBoxes: (await boxes(PATHS.manifestTotals)).body,
    generatorBoxes: (await boxes(PATHS.generatorTotals)).body,
    generatorsOfLoneStar: Number(String((filtered.body as { shipped_count: string }).shipped_count).trim()),
    numberLookup: await lookup(PATHS.manifestLookup, 'manifest_number', '0019'),
    otherNumberLookup: await lookup(PATHS.manifestLookup, 'manifest_number', '0106'),
    allNumbers: await lookup(PATHS.manifestLookup, 'manifest_number', ''),
    elcNumbers: await lookup(PATHS.manifestLookup, 'manifest_number', 'elc'),
    handlerIds: await lookup(PATHS.generatorLookup, 'epa_handler_id', ''),
    shortNameLookup: await lookup(PATHS.manifestLookup, 'generator_name', 'id'),
    generatorLookup: await lookup(PATHS.generatorLookup, 'generator_name', 'Shop'),
    idleShop: detail.status,
    searched: await searchedRows(0, 50),
    searchedSecond,
    searchedThird,
  };
}

describe('an import into the served database', () => {
  it('shows each transaction’s rows in lists, boxes, lookups and profiles at once', async () => {
    const before = await view();
    expect(before).toMatchObject({
      manifests: 3,
      tracking: ['000000101ELC', '000000102ELC', '000000104FLE'],
      generatorsOfLoneStar: 1,
      numberLookup: [],
      otherNumberLookup: [],
      shortNameLookup: [],
      generatorLookup: [],
      idleShop: 404,
    });

    // One row a transaction; after each the client looks, while the import waits.
    const sink = await openSink(target);
    const views: View[] = [];
    const watching = wrapSink(sink, {
      write: async (batch) => {
        const counts = await sink.write(batch);
        views.push(await view());
        return counts;
      },
      releaseHeld: async (after, limit) => {
        const released = await sink.releaseHeld(after, limit);
        if (released.rows > 0) views.push(await view());
        return released;
      },
    });
    try {
      await runImport({
        sink: watching,
        sources: await discoverSources([join(FIXTURES, 'week2')]),
        batchRows: 1,
      });
    } finally {
      await sink.close();
    }
    // Week 2's waste lines first, each held until the manifest files have been read: the older copy's, then
    // 000000106ELC's, the file's end. Then its manifests in file order: 000000199ELC (its pending line from
    // week 1 applied), an older copy of 000000104FLE (skipped), 000000106ELC of a generator no handler file
    // names (its held line stored with it), the file's end; then the held line of the older copy (skipped).
    expect(views.map((seen) => seen.manifests)).toEqual([3, 3, 3, 4, 4, 5, 5, 5]);
    // 000000106ELC arrives between rows the pages before had bookmarked.
    expect(views[5]?.searched).toEqual([
      '000000199ELC',
      '000000106ELC',
      '000000104FLE',
      '000000102ELC',
      '000000101ELC',
    ]);
    for (const seen of views) {
      expect(seen.searchedSecond).toEqual(seen.searched.slice(1, 2));
      expect(seen.searchedThird).toEqual(seen.searched.slice(2, 3));
      // Each number once, in lookup order, the ones the import added among the others.
      expect(seen.allNumbers).toEqual(seen.tracking);
      expect(seen.elcNumbers).toEqual(seen.tracking.filter((number) => number.endsWith('ELC')));
      expect(seen.handlerIds).toEqual([...new Set(seen.handlerIds)].sort());
    }
    expect(views.slice(0, 3)).toEqual([before, before, before]);
    // 000000106ELC, added after 000000199ELC, is listed before it.
    expect(views[5]?.elcNumbers).toEqual(['000000101ELC', '000000102ELC', '000000106ELC', '000000199ELC']);
    expect(views[3]).toMatchObject({
      tracking: ['000000101ELC', '000000102ELC', '000000104FLE', '000000199ELC'],
      numberLookup: ['000000199ELC'],
      otherNumberLookup: [],
      generatorsOfLoneStar: 2,
      idleShop: 404,
    });
    expect(views[5]).toMatchObject({
      otherNumberLookup: ['000000106ELC'],
      shortNameLookup: ['Idle Shop'],
      generatorLookup: ['Idle Shop'],
      idleShop: 200,
    });
    const boxes = views.map((seen) => seen.manifestBoxes as { shipped_count: string; total_waste: string });
    expect(boxes.map((box) => box.shipped_count.trim())).toEqual(['3', '3', '3', '4', '4', '5', '5', '5']);
    // 000000106ELC has no total of its own: its tons come with its waste line, in the same transaction.
    const total = (before.manifestBoxes as { total_waste: string }).total_waste.trim();
    expect(boxes.map((box) => box.total_waste.trim())).toEqual([
      total,
      total,
      total,
      '5.47',
      '5.47',
      '5.87',
      '5.87',
      '5.87',
    ]);
  });

  it('answers after the import what a server started afresh on the file answers', async () => {
    const served = await view();
    const fresh = await serve();
    try {
      const freshSession = await signInAs(fresh.baseUrl, INSPECTOR.username, INSPECTOR.password);
      const previous = session;
      session = freshSession;
      const afresh = await view();
      session = previous;
      expect(served).toEqual(afresh);
    } finally {
      await fresh.close();
    }
  });
});
