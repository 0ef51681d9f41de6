/**
 * POST /api/tracker/manifests/ (spec 4.6, 2.5, 2.6; docs/api.md "Query semantics"), checked row by row
 * against the SQLite file: filters over manifests and their waste lines, date ranges, search, sort, paging,
 * field selection and the shape of the waste lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManifestsRepository } from '../../server/src/repositories/manifests-repository.ts';
import { BOOKMARK_STEP } from '../../server/src/repositories/paged-list.ts';
import type { ManifestFilterFields } from '../../shared/api/index.ts';
import { MANIFEST_QUERY } from '../../shared/query/definition.ts';
import { startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  INSPECTOR,
  MANIFEST_SCALAR_FIELDS,
  PATHS,
  compareText,
  expectValidation,
  fragmentOf,
  identify,
  listBody,
  listPage,
  loadManifests,
  manifestMatches,
  ordered,
  post,
  signInAs,
  sortedDistinct,
  walkAllPages,
  type ManifestTruth,
  type Row,
  type Session,
  MANIFEST_FIELDS,
  MANIFEST_SEARCH_FIELDS,
  WASTE_LINE_FIELDS,
} from './support.ts';

const LIST_MEMBERS = [
  'generator_names',
  'transporter_names',
  'designated_facility_names',
  'dot_id_nos',
  'container_types',
  'handling_codes',
] as const;
type ListMember = (typeof LIST_MEMBERS)[number];

/** The values a manifest holds for one list member (docs/api.md, manifests filter table). */
const HELD: Record<ListMember, (m: ManifestTruth) => string[]> = {
  generator_names: (m) => [String(m.row.generator_name)],
  transporter_names: (m) => [String(m.row.transporter)],
  designated_facility_names: (m) => [String(m.row.designated_facility_name)],
  dot_id_nos: (m) => m.lines.map((line) => line.usdot_id_number),
  container_types: (m) => m.lines.map((line) => line.container_type_code),
  handling_codes: (m) => m.lines.map((line) => line.management_method_code),
};

/**
 * A page read from the truth: the rows the definition matches, in its order, with each selected field as
 * stored (waste lines as their stored JSON, parsed).
 */
function storedPage(
  truth: { manifests: ManifestTruth[]; lines: ReadonlyMap<number, string> },
  query: {
    filterFields: ManifestFilterFields;
    searchKey: string;
    sort: { field: string; direction: 'asc' | 'desc' };
    page: number;
    pageSize: number;
    fields: readonly string[];
  },
): { totalElements: number; content: Row[] } {
  const matching = truth.manifests.filter((m) => manifestMatches(m, query.filterFields, query.searchKey));
  const rows = ordered(matching, query.sort.field, query.sort.direction).slice(
    query.page * query.pageSize,
    (query.page + 1) * query.pageSize,
  );
  return {
    totalElements: matching.length,
    content: rows.map((m) =>
      Object.fromEntries(
        query.fields.map((field) => [
          field,
          field === 'waste_lines' ? (JSON.parse(truth.lines.get(m.id) ?? '[]') as unknown) : m.row[field],
        ]),
      ),
    ),
  };
}

/** A page as the repository writes it, read back. */
function pageOf(
  repository: ManifestsRepository,
  query: Parameters<ManifestsRepository['pageBytes']>[0],
): { totalElements: number; content: Row[] } {
  return JSON.parse(repository.pageBytes(query).toString('utf8')) as {
    totalElements: number;
    content: Row[];
  };
}

let server: TrackerServer;
let session: Session;
let manifests: ManifestTruth[];

beforeAll(async () => {
  server = await startTrackerServer({ socket: false });
  session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
  manifests = loadManifests(server.db);
});

afterAll(async () => {
  await server?.close();
});

function holders(member: ListMember): Map<string, Set<number>> {
  const byValue = new Map<string, Set<number>>();
  for (const m of manifests) {
    for (const value of HELD[member](m)) {
      if (value === '') continue;
      const set = byValue.get(value) ?? new Set<number>();
      set.add(m.id);
      byValue.set(value, set);
    }
  }
  return byValue;
}

function commonValue(member: ListMember): string {
  const first = [...holders(member)]
    .filter(([, ids]) => ids.size < manifests.length)
    .sort((a, b) => b[1].size - a[1].size || compareText(a[0], b[0]))[0];
  if (!first) throw new Error(`no restrictive value for ${member}`);
  return first[0];
}

function twoValues(member: ListMember): [string, string] {
  const list = [...holders(member)].sort((a, b) => a[1].size - b[1].size || compareText(a[0], b[0]));
  for (const [a, aIds] of list) {
    for (const [b, bIds] of list) {
      if (a !== b && [...aIds].some((id) => !bIds.has(id)) && [...bIds].some((id) => !aIds.has(id)))
        return [a, b];
    }
  }
  throw new Error(`no two independent values for ${member}`);
}

/** Walks the list for this request; checks the set, the default order (shipped_date desc) and the total. */
async function expectMatches(filterFields: ManifestFilterFields, searchKey = ''): Promise<ManifestTruth[]> {
  const expected = manifests.filter((m) => manifestMatches(m, filterFields, searchKey));
  const { totalElements, rows } = await walkAllPages(session, 'manifests', {
    filterFields,
    searchKey,
    pageSize: 500,
    selectedFields: 'manifest_tracking_number',
  });
  expect(totalElements, `total for ${JSON.stringify({ filterFields, searchKey })}`).toBe(expected.length);
  expect(identify('manifests', rows, manifests).map((m) => m.id)).toEqual(
    ordered(expected, 'shipped_date', 'desc').map((m) => m.id),
  );
  return expected;
}

/** A waste line as spec 2.6 writes it, from the stored line. */
function wireLines(m: ManifestTruth): Row[] {
  return m.lines.map((line) => ({
    manifest_tracking_number: m.row.manifest_tracking_number,
    waste_line_number: line.waste_line_number,
    usdot_haz_indicator: line.usdot_haz_indicator,
    usdot_id_number: line.usdot_id_number,
    usdot_desc: line.usdot_desc,
    container_count: String(line.container_count),
    container_type_code: line.container_type_code,
    epa_waste_indicator: line.epa_waste_indicator,
    waste_quantity_tons: line.waste_quantity_tons,
    transporter: line.transporter,
    federal_waste_codes: line.federal_waste_codes,
    mmc_and_desc: line.mmc_and_desc,
  }));
}

describe('the unfiltered manifests list', () => {
  it('returns every manifest once with its fields as stored and its waste lines, in spec order', async () => {
    const { totalElements, rows } = await walkAllPages(session, 'manifests', { pageSize: 500 });
    expect(totalElements).toBe(manifests.length);
    expect(manifests.length).toBe(3000);
    const returned = identify('manifests', rows, manifests);
    rows.forEach((row, index) => {
      const truth = returned[index];
      if (!truth) throw new Error('missing row');
      expect(Object.keys(row)).toEqual([...MANIFEST_FIELDS]);
      const { waste_lines: lines, ...scalars } = row;
      expect(scalars).toEqual(truth.row);
      expect(lines).toEqual(wireLines(truth));
      for (const line of lines as Row[]) expect(Object.keys(line)).toEqual([...WASTE_LINE_FIELDS]);
    });
  });

  it('gives every manifest waste lines numbered 1..n that name it, with container_count as a string', async () => {
    const { rows } = await walkAllPages(session, 'manifests', {
      pageSize: 500,
      selectedFields: 'manifest_tracking_number,waste_stream_count,container_count,waste_lines',
    });
    let lineCount = 0;
    for (const row of rows) {
      const lines = row.waste_lines as Row[];
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.map((line) => line.waste_line_number)).toEqual(lines.map((_line, index) => index + 1));
      for (const line of lines) {
        expect(line.manifest_tracking_number).toBe(row.manifest_tracking_number);
        expect(typeof line.container_count).toBe('string');
        expect(line.container_count).toMatch(/^\d+$/);
        expect(typeof line.waste_quantity_tons).toBe('number');
      }
      expect(typeof row.container_count).toBe('number');
      // docs/api.md: waste_streams counts "waste lines on them", summed from waste_stream_count.
      expect(row.waste_stream_count, `${String(row.manifest_tracking_number)} waste lines`).toBe(
        lines.length,
      );
      lineCount += lines.length;
    }
    expect(lineCount).toBe(server.db.prepare('SELECT count(*) FROM waste_lines').pluck().get());
  });

  it('orders by shipped_date descending when no sort is given (ties by tracking number, descending)', async () => {
    await expectMatches({});
  });
});

describe('each list member alone', () => {
  it.each(LIST_MEMBERS)('%s with one value keeps exactly the manifests holding it', async (member) => {
    const expected = await expectMatches({ [member]: [commonValue(member)] });
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(manifests.length);
  });

  it.each(LIST_MEMBERS)('%s with several values OR-s them', async (member) => {
    const [a, b] = twoValues(member);
    const either = await expectMatches({ [member]: [a, 'no such value ✗', b] });
    const onlyA = manifests.filter((m) => manifestMatches(m, { [member]: [a] }));
    const onlyB = manifests.filter((m) => manifestMatches(m, { [member]: [b] }));
    expect(either.length).toBeGreaterThan(Math.max(onlyA.length, onlyB.length));
  });

  it.each(LIST_MEMBERS)('%s as an empty array is no restriction', async (member) => {
    expect((await expectMatches({ [member]: [] })).length).toBe(manifests.length);
  });

  it.each(LIST_MEMBERS)('%s with an unknown value matches nothing', async (member) => {
    expect(await listPage(session, 'manifests', { filterFields: { [member]: ['no such value ✗'] } })).toEqual(
      {
        totalElements: 0,
        content: [],
      },
    );
  });

  it('keeps manifests with at least one waste line matching, not only the first line', async () => {
    const later = manifests.find(
      (m) =>
        m.lines.length > 1 &&
        m.lines.slice(1).some((line) => line.container_type_code !== m.lines[0]?.container_type_code),
    );
    if (!later) throw new Error('no manifest whose later lines differ from its first');
    const type = later.lines
      .slice(1)
      .find((line) => line.container_type_code !== later.lines[0]?.container_type_code)?.container_type_code;
    const expected = await expectMatches({ container_types: [type ?? ''] });
    expect(expected.map((m) => m.id)).toContain(later.id);
  });
});

describe('date ranges', () => {
  const dates = (field: 'shipped_date' | 'received_date') =>
    sortedDistinct(manifests.map((m) => String(m.row[field])));

  it.each(['shipped', 'received'] as const)('%s: start and end are inclusive', async (range) => {
    const all = dates(`${range}_date`);
    const start = all[Math.floor(all.length / 3)] ?? '';
    const end = all[Math.floor((2 * all.length) / 3)] ?? '';
    const expected = await expectMatches({ [`${range}_date_start`]: start, [`${range}_date_end`]: end });
    const values = expected.map((m) => String(m.row[`${range}_date`]));
    expect(values).toContain(start);
    expect(values).toContain(end);
    expect(expected.length).toBeLessThan(manifests.length);
  });

  it.each(['shipped', 'received'] as const)('%s: a start alone keeps that day and later', async (range) => {
    const all = dates(`${range}_date`);
    const start = all[Math.floor(all.length / 2)] ?? '';
    const expected = await expectMatches({ [`${range}_date_start`]: start });
    expect(expected.every((m) => String(m.row[`${range}_date`]) >= start)).toBe(true);
    expect(expected.some((m) => m.row[`${range}_date`] === start)).toBe(true);
  });

  it.each(['shipped', 'received'] as const)('%s: an end alone keeps that day and earlier', async (range) => {
    const all = dates(`${range}_date`);
    const end = all[Math.floor(all.length / 2)] ?? '';
    const expected = await expectMatches({ [`${range}_date_end`]: end });
    expect(expected.some((m) => m.row[`${range}_date`] === end)).toBe(true);
    expect(expected.length).toBeLessThan(manifests.length);
  });

  it.each(['shipped', 'received'] as const)(
    '%s: start equal to end keeps exactly that day',
    async (range) => {
      const day = dates(`${range}_date`)[5] ?? '';
      const expected = await expectMatches({ [`${range}_date_start`]: day, [`${range}_date_end`]: day });
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.every((m) => m.row[`${range}_date`] === day)).toBe(true);
    },
  );

  it('a range with no manifests in it matches nothing', async () => {
    expect(
      await listPage(session, 'manifests', {
        filterFields: { shipped_date_start: '1990-01-01', shipped_date_end: '1990-12-31' },
      }),
    ).toEqual({ totalElements: 0, content: [] });
  });

  it('a received range read newest first in small pages, alone and cut by a shipped range', async () => {
    const received = dates('received_date');
    const day = received[Math.floor(received.length / 2)] ?? '';
    const month = day.slice(0, 7);
    const requests: ManifestFilterFields[] = [
      { received_date_start: `${month}-01`, received_date_end: `${month}-28` },
      { received_date_start: day, received_date_end: day },
      { received_date_start: `${month}-01`, received_date_end: `${month}-28`, shipped_date_end: day },
      { received_date_end: day, shipped_date_start: `${month}-01` },
    ];
    for (const filterFields of requests) {
      const expected = ordered(
        manifests.filter((m) => manifestMatches(m, filterFields)),
        'shipped_date',
        'desc',
      );
      expect(expected.length, JSON.stringify(filterFields)).toBeGreaterThan(0);
      const { totalElements, rows } = await walkAllPages(session, 'manifests', {
        filterFields,
        pageSize: 7,
        selectedFields: 'manifest_tracking_number',
      });
      expect(totalElements).toBe(expected.length);
      expect(identify('manifests', rows, manifests).map((m) => m.id)).toEqual(expected.map((m) => m.id));
    }
  });

  it('both ranges together', async () => {
    const shipped = dates('shipped_date');
    const received = dates('received_date');
    await expectMatches({
      shipped_date_start: shipped[Math.floor(shipped.length / 4)] ?? '',
      received_date_end: received[Math.floor((3 * received.length) / 4)] ?? '',
    });
  });
});

describe('members combined', () => {
  it('AND-s a generator with a handling code and a shipped range', async () => {
    const m = manifests.find((item) => item.lines.some((line) => line.management_method_code !== ''));
    if (!m) throw new Error('no manifest with a handling code');
    const filters: ManifestFilterFields = {
      generator_names: [String(m.row.generator_name)],
      handling_codes: [
        m.lines.find((line) => line.management_method_code !== '')?.management_method_code ?? '',
      ],
      shipped_date_start: String(m.row.shipped_date),
    };
    const expected = await expectMatches(filters);
    expect(expected.map((item) => item.id)).toContain(m.id);
  });

  it('AND-s every member at once down to the one manifest', async () => {
    const m = manifests[Math.floor(manifests.length / 2)];
    if (!m) throw new Error('no manifests');
    const first = (member: ListMember) => HELD[member](m).find((value) => value !== '') ?? '';
    const filters: ManifestFilterFields = {
      generator_names: [first('generator_names')],
      transporter_names: [first('transporter_names'), 'no such transporter'],
      designated_facility_names: [first('designated_facility_names')],
      dot_id_nos: [first('dot_id_nos')],
      container_types: [first('container_types')],
      handling_codes: [first('handling_codes')],
      shipped_date_start: String(m.row.shipped_date),
      shipped_date_end: String(m.row.shipped_date),
      received_date_start: String(m.row.received_date),
      received_date_end: String(m.row.received_date),
    };
    const expected = await expectMatches(filters, String(m.row.manifest_tracking_number));
    expect(expected.map((item) => item.id)).toEqual([m.id]);
  });

  it('AND-s two waste-line members: both may be satisfied by different lines', async () => {
    const [a, b] = twoValues('container_types');
    await expectMatches({ container_types: [a], dot_id_nos: [commonValue('dot_id_nos')] });
    await expectMatches({ container_types: [a, b], handling_codes: [commonValue('handling_codes')] });
  });

  it('matches no waste line on an empty value, though some lines carry no DOT id', async () => {
    expect(manifests.some((m) => m.lines.some((line) => line.usdot_id_number === ''))).toBe(true);
    expect(await expectMatches({ dot_id_nos: [''] })).toEqual([]);
    expect(await expectMatches({ dot_id_nos: [''], shipped_date_start: '2000-01-01' })).toEqual([]);
    const value = commonValue('dot_id_nos');
    expect((await expectMatches({ dot_id_nos: ['', value] })).length).toBe(
      holders('dot_id_nos').get(value)?.size,
    );
  });
});

describe('searchKey', () => {
  const fragment = (field: string, length: number) =>
    fragmentOf(
      manifests.map((m) => String(m.row[field])),
      length,
    );

  it.each(MANIFEST_SEARCH_FIELDS)(
    'finds a fragment of %s of up to 3 characters, in any case',
    async (field) => {
      const key = fragment(field, 3);
      expect((await expectMatches({}, key)).length).toBeGreaterThan(0);
      await expectMatches({}, key.toUpperCase());
      await expectMatches({}, key.toLowerCase());
    },
  );

  it.each(MANIFEST_SEARCH_FIELDS)(
    'finds a fragment of %s of up to 5 characters, in any case',
    async (field) => {
      const key = fragment(field, 5);
      expect((await expectMatches({}, key)).length).toBeGreaterThan(0);
      await expectMatches({}, key.toLowerCase());
    },
  );

  it('finds one manifest by its whole tracking number', async () => {
    const m = manifests[17];
    const expected = await expectMatches({}, String(m?.row.manifest_tracking_number));
    expect(expected.map((item) => item.id)).toEqual([m?.id]);
  });

  it.each([1, 2])('answers %i-character keys', async (length) => {
    for (const field of MANIFEST_SEARCH_FIELDS) await expectMatches({}, fragment(field, length));
  });

  it.each(["'", '"', '%', '_', '\\', '50%', 'a_b', '"; DROP TABLE manifests; --', 'NEAR(x y)', 'x*', 'OR'])(
    'treats %j as plain text',
    async (key) => {
      await expectMatches({}, key);
    },
  );

  it('combines with filters', async () => {
    const transporter = commonValue('transporter_names');
    await expectMatches({ transporter_names: [transporter] }, fragment('generator_name', 3));
  });
});

describe('sort', () => {
  it('agrees with SQLite: the comparator of these tests orders like ORDER BY field, manifest_tracking_number', () => {
    for (const field of MANIFEST_SCALAR_FIELDS) {
      const sql = server.db
        .prepare(`SELECT id FROM manifests ORDER BY ${field}, manifest_tracking_number`)
        .pluck()
        .all() as number[];
      expect(
        ordered(manifests, field, 'asc').map((m) => m.id),
        field,
      ).toEqual(sql);
    }
  });

  const cases = MANIFEST_SCALAR_FIELDS.flatMap((field) =>
    (['asc', 'desc'] as const).map((direction) => [field, direction] as const),
  );

  it.each(cases)(
    'by %s %s orders every row, ties by the key in the same direction',
    async (field, direction) => {
      const { rows } = await walkAllPages(session, 'manifests', {
        sort: `${field} ${direction}`,
        pageSize: 500,
        selectedFields: `manifest_tracking_number,${field}`,
      });
      const returned = identify('manifests', rows, manifests);
      expect(returned.map((m) => m.id)).toEqual(ordered(manifests, field, direction).map((m) => m.id));
      rows.forEach((row, index) => expect(row[field]).toEqual(returned[index]?.row[field]));
    },
  );

  it('refuses to sort by waste_lines, naming the sortable fields', async () => {
    const answer = await post(
      session.baseUrl,
      PATHS.manifests,
      session.token,
      listBody({ sort: 'waste_lines asc' }),
    );
    expectValidation(answer, 'body.pageInfo.sort', /waste_lines.*shipped_date/s);
  });
});

describe('paging', () => {
  it('covers every matching row exactly once with pages of 37', async () => {
    const filterFields = { container_types: [commonValue('container_types')] };
    const expected = manifests.filter((m) => manifestMatches(m, filterFields));
    expect(expected.length).toBeGreaterThan(37 * 3);
    const { rows } = await walkAllPages(session, 'manifests', {
      filterFields,
      pageSize: 37,
      sort: 'designated_facility_name desc',
      selectedFields: 'manifest_tracking_number',
    });
    expect(identify('manifests', rows, manifests).map((m) => m.id)).toEqual(
      ordered(expected, 'designated_facility_name', 'desc').map((m) => m.id),
    );
  });

  it('reads deep pages of the whole table from bookmarks, in any order of asking', () => {
    // A fresh repository notes its bookmarks as pages reach them: ask deep first, then across boundaries.
    const repository = new ManifestsRepository(server.db);
    const pageSize = 37;
    for (const sort of [MANIFEST_QUERY.defaultSort, { field: 'transporter', direction: 'asc' } as const]) {
      const expected = ordered(manifests, sort.field, sort.direction).map((m) => m.id);
      const last = Math.ceil(expected.length / pageSize) - 1;
      expect(last * pageSize).toBeGreaterThan(2 * BOOKMARK_STEP);
      for (const page of [last, 28, 27, 54, 26, 0, last + 1]) {
        const answer = pageOf(repository, {
          filterFields: {},
          searchKey: '',
          sort,
          page,
          pageSize,
          fields: ['manifest_tracking_number'],
        });
        expect(answer.totalElements).toBe(expected.length);
        expect(
          identify('manifests', answer.content, manifests).map((m) => m.id),
          `${sort.field} ${sort.direction} page ${page}`,
        ).toEqual(expected.slice(page * pageSize, (page + 1) * pageSize));
      }
    }
  });

  it('answers deep pages of the whole table over HTTP, in any order of asking and in any order', async () => {
    // Past BOOKMARK_STEP rows a page of the whole table starts from a bookmark of its order (on PostgreSQL,
    // noted by the server as pages reach it): deep first, then across boundaries, by text and by number.
    const pageSize = 37;
    for (const sort of [
      { field: 'total_waste_quantity_tons', direction: 'asc' },
      { field: 'transporter', direction: 'desc' },
      { field: 'manifest_tracking_number', direction: 'asc' },
    ] as const) {
      const expected = ordered(manifests, sort.field, sort.direction).map((m) => m.id);
      const last = Math.ceil(expected.length / pageSize) - 1;
      expect(last * pageSize).toBeGreaterThan(2 * BOOKMARK_STEP);
      for (const page of [last, 28, 27, 54, 26, 0, last + 1]) {
        const answer = await listPage(session, 'manifests', {
          page,
          pageSize,
          sort: `${sort.field} ${sort.direction}`,
          selectedFields: 'manifest_tracking_number,waste_lines',
        });
        expect(answer.totalElements).toBe(expected.length);
        expect(
          identify('manifests', answer.content, manifests).map((m) => m.id),
          `${sort.field} ${sort.direction} page ${page}`,
        ).toEqual(expected.slice(page * pageSize, (page + 1) * pageSize));
      }
    }
  });

  it('sends a page as the exact UTF-8 bytes of the page serialised, for any selection of fields', () => {
    // One manifest given multi-byte text in a column and in its stored waste lines, and in three others text
    // that JSON escapes (one character each: a quote, a backslash, control characters), for this test only.
    const db = server.db;
    const id = manifests[0]?.id;
    db.exec('BEGIN');
    try {
      db.prepare(
        `UPDATE manifests SET generator_name = ?, designated_facility_name = ?, transporter = ?,
           generator_location_state = ? WHERE id = ?`,
      ).run(
        'Café Zürich — 東京 🚚',
        'Say "yes"',
        'C:\\Haulers',
        'line\nbreak\u0000\u001f, and \u007f\u2028 as they are',
        id,
      );
      db.prepare('UPDATE manifest_waste_lines_json SET json = ? WHERE manifest_id = ?').run(
        JSON.stringify([{ usdot_desc: 'Düngemittel, 東京 🚚' }]),
        id,
      );
      const repository = new ManifestsRepository(db);
      // The truth as changed, and each manifest's stored waste lines.
      const lines = db.prepare('SELECT manifest_id, json FROM manifest_waste_lines_json').raw().all() as [
        number,
        string,
      ][];
      const truth = { manifests: loadManifests(db), lines: new Map(lines) };
      const selections = [
        MANIFEST_FIELDS,
        ['waste_lines'],
        ['manifest_tracking_number', 'waste_lines'],
        ['generator_name', 'shipped_date', 'total_waste_quantity_tons'],
        ['designated_facility_name', 'transporter', 'waste_lines', 'generator_location_state'],
      ] as const;
      for (const fields of selections) {
        for (const searchKey of ['', 'Co', 'é', '東京']) {
          const query = {
            filterFields: {},
            searchKey,
            sort: MANIFEST_QUERY.defaultSort,
            page: 0,
            pageSize: 40,
            fields,
          };
          const expected = storedPage(truth, query);
          if (searchKey === 'é') expect(expected.content).toHaveLength(1);
          expect(
            repository.pageBytes(query).equals(Buffer.from(JSON.stringify(expected))),
            `${fields.join(',')} "${searchKey}"`,
          ).toBe(true);
        }
      }
    } finally {
      db.exec('ROLLBACK');
    }
  });

  it('answers a page past the end with no rows and the same total', async () => {
    const filterFields = { transporter_names: [commonValue('transporter_names')] };
    const total = manifests.filter((m) => manifestMatches(m, filterFields)).length;
    expect(
      await listPage(session, 'manifests', { filterFields, page: Math.ceil(total / 37) + 1, pageSize: 37 }),
    ).toEqual({ totalElements: total, content: [] });
  });
});

describe('selectedFields', () => {
  it('can leave the waste lines out', async () => {
    const answer = await listPage(session, 'manifests', {
      selectedFields: 'shipped_date, manifest_tracking_number,',
      pageSize: 25,
    });
    const expected = ordered(manifests, 'shipped_date', 'desc').slice(0, 25);
    expect(answer.content).toEqual(
      expected.map((m) => ({
        manifest_tracking_number: m.row.manifest_tracking_number,
        shipped_date: m.row.shipped_date,
      })),
    );
    for (const row of answer.content)
      expect(Object.keys(row)).toEqual(['manifest_tracking_number', 'shipped_date']);
  });

  it('can select the waste lines alone; they still name their manifest', async () => {
    const answer = await listPage(session, 'manifests', { selectedFields: 'waste_lines', pageSize: 25 });
    const expected = ordered(manifests, 'shipped_date', 'desc').slice(0, 25);
    expect(answer.content).toEqual(expected.map((m) => ({ waste_lines: wireLines(m) })));
  });

  it('collapses duplicates and keeps the spec order', async () => {
    const answer = await listPage(session, 'manifests', {
      selectedFields: 'waste_lines,generator_epa_id, waste_lines ,,transporter',
      pageSize: 3,
    });
    for (const row of answer.content)
      expect(Object.keys(row)).toEqual(['transporter', 'generator_epa_id', 'waste_lines']);
  });

  it.each(MANIFEST_SCALAR_FIELDS)('can select %s alone', async (field) => {
    const answer = await listPage(session, 'manifests', {
      selectedFields: `${field},`,
      pageSize: 4,
      sort: `${field} asc`,
    });
    expect(answer.content).toEqual(
      ordered(manifests, field, 'asc')
        .slice(0, 4)
        .map((m) => ({ [field]: m.row[field] })),
    );
  });

  it('refuses an unknown field by name', async () => {
    const answer = await post(
      session.baseUrl,
      PATHS.manifests,
      session.token,
      listBody({ selectedFields: 'manifest_tracking_number,wasteLines' }),
    );
    expectValidation(answer, 'body.pageInfo.selectedFields', /wasteLines/);
  });
});
