/**
 * One case folding for every search (shared/query/search.ts): it is the folding of SQLite's FTS5 trigram
 * index, checked here code point by code point against the real SQLite, and the server gives the rows that
 * rule defines for keys of every length (index or scan) and for lookups. Control characters in a search are
 * refused with a 400 (docs/api.md "searchKey").
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOLD_RUNS } from '../../shared/query/fold-table.ts';
import { lookupEntries, lookupPage } from '../../shared/query/lookup.ts';
import { foldCase, matchesAnySearch } from '../../shared/query/search.ts';
import { foldRuns, trigramFolds } from '../../server/src/db/write-fold-table.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  GENERATOR_SEARCH_FIELDS,
  INSPECTOR,
  PATHS,
  addGenerators,
  expectValidation,
  get,
  loadGenerators,
  post,
  rowKey,
  signInAs,
  sortedDistinct,
  walkAllPages,
  type Session,
} from './support.ts';

describe('the fold is the trigram index’s', () => {
  it('folds every code point as SQLite 3.54’s FTS5 trigram tokenizer does', () => {
    const folds = trigramFolds();
    expect(FOLD_RUNS, 'shared/query/fold-table.ts is stale: run server/src/db/write-fold-table.ts').toEqual(
      foldRuns(folds).flat(),
    );
    const wrong: string[] = [];
    for (let point = 1; point <= 0x10ffff; point += 1) {
      if (point >= 0xd800 && point <= 0xdfff) continue;
      const expected = String.fromCodePoint(folds.get(point) ?? point);
      const folded = foldCase(String.fromCodePoint(point));
      // Folding twice changes nothing: the server's scan relies on it (trigram-search.ts).
      if (folded !== expected || foldCase(folded) !== folded) wrong.push(point.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});

/** Generators whose names fold in the ways toLowerCase and ASCII folding get wrong. */
const FOLD_GENERATORS = [
  { epa_handler_id: 'ZZF000000001', generator_name: 'ÉCOLE Cleaners', location_city: 'Éze' },
  { epa_handler_id: 'ZZF000000002', generator_name: 'Straße Werke', location_city: 'Kassel' },
  { epa_handler_id: 'ZZF000000003', generator_name: 'İstanbul Trading', location_city: 'İzmir' },
  { epa_handler_id: 'ZZF000000004', generator_name: 'ΟΔΟΣ Logistics', location_city: 'Αθήνα' },
  { epa_handler_id: 'ZZF000000005', generator_name: 'οδος Freight', location_city: 'Ρόδος' },
  { epa_handler_id: 'ZZF000000006', generator_name: '\u212Aelvin Labs', location_city: 'Ke' },
  { epa_handler_id: 'ZZF000000007', generator_name: 'Mea\u017Furement Co', location_city: 'ſ' },
];

const KEYS = [
  'é',
  'É',
  'éc',
  'ÉCO',
  'école',
  'ß',
  'SS',
  'straße',
  'STRASSE',
  'İ',
  'i',
  'İs',
  'is',
  'İST',
  'ist',
  'Σ',
  'ς',
  'σ',
  'ος',
  'ΟΔΟΣ',
  'οδος',
  'οδοσ',
  'k',
  'K',
  'Ke',
  'kel',
  '\u212A',
  's',
  'ſ',
  'asu',
  'ASU',
  'meaſ',
  'Α',
  'θή',
  'ΑΘΉΝΑ',
];

let dir = '';
let server: TrackerServer;
let session: Session;

beforeAll(async () => {
  const built = await buildTestDatabase(400, 5);
  dir = built.dir;
  addGenerators(built.path, FOLD_GENERATORS);
  server = await startTrackerServer({ dbPath: built.path, socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the server folds by that rule', () => {
  it('folds the examples as the rule says', () => {
    expect(foldCase('ÉCOLE')).toBe('école');
    expect(foldCase('Straße')).toBe('straße');
    expect(foldCase('İ')).toBe('İ');
    expect(foldCase('ΟΔΟΣ')).toBe(foldCase('οδος'));
    expect(foldCase('\u212A')).toBe('k');
    expect(foldCase('\u017F')).toBe('s');
  });

  it.each(KEYS)('searchKey %j: the rows the rule selects, at every key length', async (key) => {
    const generators = loadGenerators(server.db);
    const expected = generators
      .filter((g) =>
        matchesAnySearch(
          GENERATOR_SEARCH_FIELDS.map((field) => String(g.row[field])),
          key,
        ),
      )
      .map((g) => rowKey('generators', g.row));
    const { rows } = await walkAllPages(session, 'generators', {
      searchKey: key,
      sort: 'epa_handler_id asc',
    });
    expect(rows.map((row) => rowKey('generators', row))).toEqual(sortedDistinct(expected));
  });

  it.each(KEYS)('lookup search %j: the page the rule selects', async (search) => {
    const names = loadGenerators(server.db).map((g) => String(g.row.generator_name));
    const entries = lookupEntries(sortedDistinct(names).map((value) => ({ value, text: value })));
    const answer = await get(session.baseUrl, PATHS.generatorLookup, session.token, {
      field: 'generator_name',
      page: 1,
      search,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(lookupPage(entries, search, 1));
  });

  it.each(['ÉCOLE', 'i', 'İ', 'k', '\u212A', 'ſ', 'ς'])(
    'manifest number lookup search %j folds by the rule (the indexed lookup)',
    async (search) => {
      const numbers = server.db
        .prepare('SELECT manifest_tracking_number FROM manifests')
        .pluck()
        .all() as string[];
      const entries = lookupEntries(sortedDistinct(numbers).map((value) => ({ value, text: value })));
      const answer = await get(session.baseUrl, PATHS.manifestLookup, session.token, {
        field: 'manifest_number',
        page: 1,
        search,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(lookupPage(entries, search, 1));
    },
  );
});

/** Every C0 control character and DEL. */
const CONTROLS = [...Array.from({ length: 0x20 }, (_, point) => point), 0x7f].map((point) =>
  String.fromCharCode(point),
);
const hex = (character: string) => `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

describe('control characters in a search are refused with a 400 naming them', () => {
  const body = (searchKey: string) => ({
    pageInfo: { page: 0, pageSize: 10, filters: 'all=', selectedFields: '', sort: '' },
    filterFields: {},
    searchKey,
  });

  it.each(CONTROLS.map((character) => [hex(character), character]))(
    '%s in searchKey (lists and totals, short and long keys) and lookup search',
    async (name, character) => {
      const message = new RegExp(`control characters.*${name.replace('+', '\\+')}`);
      for (const key of [character, `a${character}`, `inc${character}`, `${character}chem`]) {
        for (const path of [PATHS.generators, PATHS.manifests]) {
          expectValidation(
            await post(session.baseUrl, path, session.token, body(key)),
            'body.searchKey',
            message,
          );
        }
        for (const path of [PATHS.generatorTotals, PATHS.manifestTotals]) {
          expectValidation(
            await post(session.baseUrl, path, session.token, { filterFields: {}, searchKey: key }),
            'body.searchKey',
            message,
          );
        }
        for (const [path, field] of [
          [PATHS.generatorLookup, 'generator_name'],
          [PATHS.generatorLookup, 'epa_handler_id'],
          [PATHS.manifestLookup, 'manifest_number'],
          [PATHS.manifestLookup, 'transporter_name'],
        ] as const) {
          expectValidation(
            await get(session.baseUrl, path, session.token, { field, page: 1, search: key }),
            'query.search',
            message,
          );
        }
      }
    },
  );
});
