/**
 * The filter-box lookups (spec 2.7, 4.3, 4.7; docs/api.md "Lookups"): 50 distinct non-empty values a page
 * sorted by display text, `more` exactly when a further page exists, search a case-insensitive substring of
 * the display text. Every field is walked to its end and compared with the distinct values in the database.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foldCase } from '../../shared/query/search.ts';
import { LookupResult } from '../../shared/api/index.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import { ScanLookup } from '../../server/src/repositories/lookups.ts';
import { StatementCache } from '../../server/src/db/statements.ts';
import {
  INSPECTOR,
  PATHS,
  compareText,
  expectValidation,
  get,
  signInAs,
  splitCodes,
  type Session,
  GENERATOR_LOOKUP_FIELDS,
  MANIFEST_LOOKUP_FIELDS,
  IDLE_GENERATOR,
  UNICODE_GENERATORS,
  addGenerators,
} from './support.ts';

type GeneratorLookupField = (typeof GENERATOR_LOOKUP_FIELDS)[number];
type ManifestLookupField = (typeof MANIFEST_LOOKUP_FIELDS)[number];

/** A generator whose EPA handler id has a letter outside ASCII, for the case folding of the id lookup. */
const ACCENTED_ID = { epa_handler_id: 'ZZÉ000000009', generator_name: 'Accented Id Testing' };

interface Entry {
  value: string;
  text: string;
  /** The status lookup's heading of a value: which field it is a value of. */
  group?: string;
}

let dir: string;
let server: TrackerServer;
let session: Session;

beforeAll(async () => {
  const built = await buildTestDatabase();
  dir = built.dir;
  addGenerators(built.path, [IDLE_GENERATOR, ...UNICODE_GENERATORS, ACCENTED_ID]);
  server = await startTrackerServer({ dbPath: built.path, socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const column = (sql: string) => (): string[] => server.db.prepare(sql).pluck().all() as string[];

/** The values each lookup offers, read from the raw tables (not from the server's derived sets). */
const GENERATOR_VALUES: Record<GeneratorLookupField, () => string[] | Entry[]> = {
  generator_city: column('SELECT location_city FROM generators'),
  naics: () => {
    const rows = server.db
      .prepare(
        'SELECT DISTINCT primary_naics_code AS code, primary_naics_desc AS description FROM generators',
      )
      .all() as { code: string; description: string }[];
    return rows.map(({ code, description }) => ({ value: code, text: `${code} - ${description}` }));
  },
  epa_handler_id: column('SELECT epa_handler_id FROM generators'),
  generator_state: column('SELECT location_state FROM generators'),
  epa_waste_code: () => column('SELECT federal_waste_codes FROM waste_lines')().flatMap(splitCodes),
  generator_name: column('SELECT generator_name FROM generators'),
  mmc: column('SELECT management_method_code FROM waste_lines'),
  shipped_year: column('SELECT substr(shipped_date, 1, 4) FROM manifests'),
  status: () => {
    const registrations = new Set(column('SELECT registration_status FROM generators')());
    return column(
      'SELECT registration_status FROM generators UNION ALL SELECT federal_generator_status_universe FROM generators',
    )().map((value) => ({
      value,
      text: value,
      group: registrations.has(value) ? 'Registration status' : 'Federal generator status',
    }));
  },
};

const MANIFEST_VALUES: Record<ManifestLookupField, () => string[]> = {
  manifest_number: column('SELECT manifest_tracking_number FROM manifests'),
  generator_name: column('SELECT generator_name FROM manifests'),
  transporter_name: column('SELECT transporter FROM manifests'),
  designated_facility_name: column('SELECT designated_facility_name FROM manifests'),
  dot_id_no: column('SELECT usdot_id_number FROM waste_lines'),
  container_type: column('SELECT container_type_code FROM waste_lines'),
  handling_code: column('SELECT management_method_code FROM waste_lines'),
};

/** Distinct non-empty entries sorted by text in code point order. */
function expectedEntries(values: string[] | Entry[]): Entry[] {
  const entries = values.map((item) => (typeof item === 'string' ? { value: item, text: item } : item));
  const byValue = new Map<string, Entry>();
  for (const entry of entries) if (entry.value !== '') byValue.set(entry.value, entry);
  return [...byValue.values()].sort((a, b) => compareText(a.text, b.text));
}

async function lookupPage(path: string, field: string, page: number, search = ''): Promise<LookupResult> {
  const answer = await get(session.baseUrl, path, session.token, { field, page, search });
  expect(answer.status, answer.text).toBe(200);
  const parsed = LookupResult.safeParse(answer.body);
  expect(parsed.success, answer.text.slice(0, 300)).toBe(true);
  return answer.body as LookupResult;
}

/** Every page from 1 until `more` is false; a page with `more` is full and the next one is not empty. */
async function walkLookup(path: string, field: string, search = ''): Promise<Entry[]> {
  const entries: Entry[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await lookupPage(path, field, page, search);
    expect(answer.results.length).toBeLessThanOrEqual(50);
    if (page > 1) expect(answer.results.length, `page ${page} follows more: true`).toBeGreaterThan(0);
    entries.push(...answer.results);
    if (!answer.pagination.more) {
      expect(await lookupPage(path, field, page + 1, search)).toEqual({
        results: [],
        pagination: { more: false },
      });
      break;
    }
    expect(answer.results.length, `page ${page} has more after it`).toBe(50);
    if (page > 10_000) throw new Error('the lookup never ends');
  }
  return entries;
}

/** A search string cut from the middle of one of the texts, with its case flipped. */
function searchFragment(entries: Entry[], length: number): string {
  const texts = entries.map((entry) => entry.text).filter((text) => text.length >= length);
  const text = texts[Math.floor(texts.length / 2)] ?? '';
  const start = Math.floor((text.length - length) / 2);
  const fragment = text.slice(start, start + length);
  const flipped = fragment.toUpperCase() === fragment ? fragment.toLowerCase() : fragment.toUpperCase();
  return flipped;
}

const cases = [
  ...GENERATOR_LOOKUP_FIELDS.map((field) => ({
    side: 'generators',
    path: PATHS.generatorLookup,
    field,
    values: () => GENERATOR_VALUES[field](),
  })),
  ...MANIFEST_LOOKUP_FIELDS.map((field) => ({
    side: 'manifests',
    path: PATHS.manifestLookup,
    field,
    values: () => MANIFEST_VALUES[field](),
  })),
];

describe.each(cases)('$side lookup $field', ({ side, path, field, values }) => {
  it('page 1 holds at most 50 distinct entries sorted by text', async () => {
    const answer = await lookupPage(path, field, 1);
    const expected = expectedEntries(values());
    expect(expected.length).toBeGreaterThan(0);
    expect(answer.results).toEqual(expected.slice(0, 50));
    expect(answer.pagination.more).toBe(expected.length > 50);
    expect(new Set(answer.results.map((entry) => entry.value)).size).toBe(answer.results.length);
  });

  it('walking every page gives exactly the distinct non-empty values in the database', async () => {
    const entries = await walkLookup(path, field);
    expect(entries).toEqual(expectedEntries(values()));
    if (field !== 'naics') for (const entry of entries) expect(entry.text).toBe(entry.value);
  });

  it('search is a case-insensitive substring of the text', async () => {
    const all = expectedEntries(values());
    for (const length of [1, 3]) {
      const search = searchFragment(all, length);
      const expected = all.filter((entry) => foldCase(entry.text).includes(foldCase(search)));
      expect(expected.length).toBeGreaterThan(0);
      expect(await walkLookup(path, field, search), `search ${JSON.stringify(search)}`).toEqual(expected);
    }
  });

  it("has its own table in the lookup index, holding its values alone, so a search reads no other list's postings", () => {
    const indexed = server.db
      .prepare(`SELECT value, text FROM lookup_${side}_${field} ORDER BY rowid`)
      .all() as Entry[];
    expect(indexed).toEqual(expectedEntries(values()).map(({ value, text }) => ({ value, text })));
  });

  it('search with no match gives an empty first page', async () => {
    expect(await lookupPage(path, field, 1, 'no such value ✗')).toEqual({
      results: [],
      pagination: { more: false },
    });
  });
});

describe('a short key over a list too long to hold, looked for among its first values', () => {
  const lists = [
    ['manifests', 'manifest_tracking_number'],
    ['generators', 'epa_handler_id'],
  ] as const;
  const keys = ['1', '0', '12', '9z', 'a', 'D', 'é', 'ZZ', '\u00e9', 'k'];

  it.each(lists)(
    '%s: gives the page the whole scan gives, or nothing when its first values do not hold it',
    (table, columnName) => {
      const lookup = new ScanLookup(new StatementCache(server.db), {
        table,
        value: columnName,
        text: columnName,
      });
      let answered = 0;
      let declined = 0;
      for (const window of [60, 120, 500]) {
        for (const key of keys) {
          for (const page of [1, 2, 3]) {
            const within = lookup.pageWithin(window, key, page);
            if (within === undefined) {
              declined += 1;
              continue;
            }
            answered += 1;
            expect(within).toEqual(lookup.page(key, page));
            expect(within.results).toHaveLength(50);
            expect(within.pagination.more).toBe(true);
          }
        }
      }
      // Both outcomes occur, so neither half of the comparison is vacuous.
      expect(answered).toBeGreaterThan(0);
      expect(declined).toBeGreaterThan(0);
    },
  );

  it('declines a page whose matches lie beyond its first values, though the scan finds them', () => {
    const lookup = new ScanLookup(new StatementCache(server.db), {
      table: 'generators',
      value: 'epa_handler_id',
      text: 'epa_handler_id',
    });
    // The accented id sorts after every ASCII one: its only match is the list's last value.
    expect(lookup.page('é', 1).results).toEqual([
      { value: ACCENTED_ID.epa_handler_id, text: ACCENTED_ID.epa_handler_id },
    ]);
    expect(lookup.pageWithin(500, 'é', 1)).toBeUndefined();
  });
});

describe('case folding of lookup searches', () => {
  it.each([
    ['generator_name', 'ærø økologi', UNICODE_GENERATORS[0]?.generator_name],
    ['generator_city', 'ÆRØSKØBING', UNICODE_GENERATORS[0]?.location_city],
    ['epa_handler_id', 'zzé0000', ACCENTED_ID.epa_handler_id],
  ])('%s: %j finds %j (case-insensitive beyond ASCII)', async (field, search, value) => {
    const found = await walkLookup(PATHS.generatorLookup, field, search);
    expect(found.map((entry) => entry.value)).toContain(value);
  });
});

describe('the NAICS lookup', () => {
  it('has the code as value and "code - description" as text', async () => {
    const answer = await lookupPage(PATHS.generatorLookup, 'naics', 1);
    const descriptions = new Map(
      (
        server.db
          .prepare('SELECT primary_naics_code AS code, primary_naics_desc AS text FROM generators')
          .all() as {
          code: string;
          text: string;
        }[]
      ).map((row) => [row.code, row.text]),
    );
    expect(answer.results.length).toBeGreaterThan(0);
    for (const entry of answer.results) {
      expect(entry.text).toBe(`${entry.value} - ${descriptions.get(entry.value) ?? '?'}`);
    }
  });

  it('has one description per code in the data', () => {
    const codes = server.db
      .prepare(
        'SELECT primary_naics_code FROM generators GROUP BY primary_naics_code HAVING count(DISTINCT primary_naics_desc) > 1',
      )
      .pluck()
      .all();
    expect(codes).toEqual([]);
  });

  it('searches the description as well as the code', async () => {
    const first = (await lookupPage(PATHS.generatorLookup, 'naics', 1)).results[0];
    const description = first?.text.split(' - ')[1] ?? '';
    const word = description.split(' ').find((part) => part.length >= 4) ?? description;
    const found = await walkLookup(PATHS.generatorLookup, 'naics', word.toLowerCase());
    expect(found.map((entry) => entry.value)).toContain(first?.value);
  });
});

describe('bad lookup requests', () => {
  it.each([
    [PATHS.generatorLookup, GENERATOR_LOOKUP_FIELDS],
    [PATHS.manifestLookup, MANIFEST_LOOKUP_FIELDS],
  ] as const)('%s refuses an unknown field, listing the allowed ones', async (path, allowed) => {
    const answer = await get(session.baseUrl, path, session.token, { field: 'colour', page: 1 });
    expectValidation(answer, 'query.field', new RegExp(allowed.join('.*'), 's'));
  });

  it.each([PATHS.generatorLookup, PATHS.manifestLookup])(
    '%s refuses page 0, -1, 1.5, "x" and a missing page',
    async (path) => {
      for (const page of ['0', '-1', '1.5', 'x', '']) {
        expectValidation(
          await get(session.baseUrl, path, session.token, `field=generator_name&page=${page}`),
          'query.page',
        );
      }
      expectValidation(await get(session.baseUrl, path, session.token, 'field=generator_name'), 'query.page');
    },
  );

  it.each([PATHS.generatorLookup, PATHS.manifestLookup])('%s refuses a missing field', async (path) => {
    expectValidation(await get(session.baseUrl, path, session.token, { page: 1 }), 'query.field');
  });

  it.each([PATHS.generatorLookup, PATHS.manifestLookup])(
    '%s takes a 100-character search and refuses 101',
    async (path) => {
      const ok = await get(session.baseUrl, path, session.token, {
        field: 'generator_name',
        page: 1,
        search: 'x'.repeat(100),
      });
      expect(ok.status).toBe(200);
      expectValidation(
        await get(session.baseUrl, path, session.token, {
          field: 'generator_name',
          page: 1,
          search: 'x'.repeat(101),
        }),
        'query.search',
      );
    },
  );

  it.each([PATHS.generatorLookup, PATHS.manifestLookup])(
    '%s refuses an unknown query parameter',
    async (path) => {
      expectValidation(
        await get(session.baseUrl, path, session.token, { field: 'generator_name', page: 1, colour: 'red' }),
        'query',
        /colour/,
      );
    },
  );
});
