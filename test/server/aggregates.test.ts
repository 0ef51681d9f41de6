/**
 * The totals boxes (spec 4.1, 4.5; docs/api.md "Totals"): each aggregated_data answer equals the sums over
 * the rows its list returns for the same filters and search, in both wire dialects.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GeneratorTotals,
  ManifestTotals,
  sampleNumberText,
  type GeneratorFilterFields,
  type ManifestFilterFields,
} from '../../shared/api/index.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  INSPECTOR,
  IDLE_GENERATOR,
  addGenerators,
  PATHS,
  generatorMatches,
  identify,
  listPage,
  loadGenerators,
  loadManifests,
  manifestMatches,
  post,
  signInAs,
  sortedDistinct,
  walkAllPages,
  type GeneratorTruth,
  type ManifestTruth,
  type Session,
} from './support.ts';

let dir: string;
let sampleServer: TrackerServer;
let typedServer: TrackerServer;
let sample: Session;
let typed: Session;
let generators: GeneratorTruth[];
let manifests: ManifestTruth[];

beforeAll(async () => {
  const built = await buildTestDatabase();
  dir = built.dir;
  addGenerators(built.path, [IDLE_GENERATOR]);
  sampleServer = await startTrackerServer({ dbPath: built.path, dialect: 'sample', socket: false });
  typedServer = await startTrackerServer({ dbPath: built.path, dialect: 'typed', socket: false });
  sample = await signInAs(sampleServer.baseUrl, INSPECTOR.username, INSPECTOR.password);
  typed = await signInAs(typedServer.baseUrl, INSPECTOR.username, INSPECTOR.password);
  generators = loadGenerators(typedServer.db);
  manifests = loadManifests(typedServer.db);
});

afterAll(async () => {
  await sampleServer?.close();
  await typedServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** " 1,234.56" / " 1,000": a leading space, grouping commas, a fixed number of decimals. */
const SAMPLE_TONS = /^ -?\d{1,3}(,\d{3})*\.\d{2}$/;
const SAMPLE_COUNT = /^ \d{1,3}(,\d{3})*$/;

async function totals(session: Session, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await post(session.baseUrl, path, session.token, body);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  return answer.body as Record<string, unknown>;
}

/** Checks both dialects' totals against the expected numbers; tons to 4 decimals (typed) and 2 (sample). */
function expectBothDialects(
  typedBody: Record<string, unknown>,
  sampleBody: Record<string, unknown>,
  expected: Record<string, number>,
  tonsField: string,
): void {
  expect(Object.keys(typedBody).sort()).toEqual(Object.keys(expected).sort());
  expect(Object.keys(sampleBody).sort()).toEqual(Object.keys(expected).sort());
  for (const [field, value] of Object.entries(expected)) {
    const typedValue = typedBody[field];
    const sampleValue = sampleBody[field];
    expect(typeof typedValue, field).toBe('number');
    expect(typeof sampleValue, field).toBe('string');
    if (field === tonsField) {
      expect(Math.abs(Number(typedValue) - value), `${field} typed`).toBeLessThan(0.0001);
      expect(sampleValue).toMatch(SAMPLE_TONS);
      expect(
        Math.abs(Number(String(sampleValue).replaceAll(',', '')) - value),
        `${field} sample`,
      ).toBeLessThan(0.0051);
      expect(sampleValue).toBe(sampleNumberText(Number(typedValue), 2));
    } else {
      expect(typedValue, field).toBe(value);
      expect(sampleValue).toMatch(SAMPLE_COUNT);
      expect(sampleValue, field).toBe(` ${value.toLocaleString('en-US')}`);
    }
  }
}

describe('generator totals', () => {
  async function expectGeneratorTotals(
    filterFields: GeneratorFilterFields,
    searchKey = '',
  ): Promise<Record<string, number>> {
    const { rows } = await walkAllPages(typed, 'generators', {
      filterFields,
      searchKey,
      pageSize: 500,
      selectedFields: 'epa_handler_id',
    });
    const listed = identify('generators', rows, generators);
    expect(listed.length).toBe(generators.filter((g) => generatorMatches(g, filterFields, searchKey)).length);
    const expected = {
      epa_total: sum(listed.map((g) => g.shippedTons)),
      shipped_count: sum(listed.map((g) => g.shippedCount)),
      container_count: sum(listed.map((g) => g.containerCount)),
      mmc_count: listed.filter((g) => g.shippedCount > 0).length,
    };
    const body = { filterFields, searchKey };
    expectBothDialects(
      await totals(typed, PATHS.generatorTotals, body),
      await totals(sample, PATHS.generatorTotals, body),
      expected,
      'epa_total',
    );
    return expected;
  }

  it('sums every generator without filters, and the sums match the manifests table', async () => {
    const expected = await expectGeneratorTotals({});
    const db = typedServer.db;
    expect(expected.shipped_count).toBe(db.prepare('SELECT count(*) FROM manifests').pluck().get());
    expect(expected.container_count).toBe(
      db.prepare('SELECT sum(container_count) FROM manifests').pluck().get(),
    );
    expect(expected.epa_total).toBeCloseTo(
      db.prepare('SELECT sum(total_waste_quantity_tons) FROM manifests').pluck().get() as number,
      4,
    );
    expect(expected.mmc_count).toBe(
      db.prepare('SELECT count(DISTINCT generator_id) FROM manifests').pluck().get(),
    );
  });

  it('counts only generators with at least one manifest as shippers', async () => {
    const idle = generators.filter((g) => g.shippedCount === 0);
    expect(idle.length, 'a generator without manifests (IDLE_GENERATOR)').toBeGreaterThan(0);
    const ids = [...idle.slice(0, 3), ...generators.filter((g) => g.shippedCount > 0).slice(0, 2)].map((g) =>
      String(g.row.epa_handler_id),
    );
    const expected = await expectGeneratorTotals({ ids });
    expect(expected.mmc_count).toBe(2);
  });

  it('reads a missing filterFields and searchKey as none', async () => {
    const all = await totals(typed, PATHS.generatorTotals, {});
    expect(all).toEqual(await totals(typed, PATHS.generatorTotals, { filterFields: {}, searchKey: '' }));
  });

  it.each([
    ['states', (g: GeneratorTruth) => [String(g.row.location_state)]],
    ['shippedYears', (g: GeneratorTruth) => [...g.years]],
    ['wasteCodes', (g: GeneratorTruth) => [...g.wasteCodes]],
    ['handlingCodes', (g: GeneratorTruth) => [...g.handlingCodes]],
    ['statuses', (g: GeneratorTruth) => [g.federalStatus]],
    ['naics', (g: GeneratorTruth) => [String(g.row.primary_naics_code)]],
  ] as const)('sums the generators the list shows for %s', async (member, held) => {
    const shippers = generators.filter((g) => g.shippedCount > 0);
    const values = sortedDistinct(shippers.flatMap(held)).filter((value) => value !== '');
    const chosen = [values[0] ?? '', values[Math.floor(values.length / 2)] ?? ''];
    const expected = await expectGeneratorTotals({ [member]: chosen });
    expect(expected.shipped_count).toBeGreaterThan(0);
  });

  it.each(['a', 'co', 'inc', 'ST'])(
    'sums the generators the list shows for searchKey %j',
    async (searchKey) => {
      await expectGeneratorTotals({}, searchKey);
    },
  );

  it('sums filters and search together', async () => {
    const g = generators.find((item) => item.shippedCount > 1);
    await expectGeneratorTotals(
      { states: [String(g?.row.location_state)], shippedYears: [...(g?.years ?? [])] },
      'e',
    );
  });

  it('is zero for no matching generators: " 0.00" and " 0" in the sample dialect', async () => {
    const body = { filterFields: { ids: ['no such id'] }, searchKey: '' };
    expect(await totals(typed, PATHS.generatorTotals, body)).toEqual({
      epa_total: 0,
      shipped_count: 0,
      container_count: 0,
      mmc_count: 0,
    });
    expect(await totals(sample, PATHS.generatorTotals, body)).toEqual({
      epa_total: ' 0.00',
      shipped_count: ' 0',
      container_count: ' 0',
      mmc_count: ' 0',
    });
  });

  it('is readable by the client schema in both dialects, to the same numbers', async () => {
    const fromSample = GeneratorTotals.parse(await totals(sample, PATHS.generatorTotals, {}));
    const fromTyped = GeneratorTotals.parse(await totals(typed, PATHS.generatorTotals, {}));
    expect(fromSample.shipped_count).toBe(fromTyped.shipped_count);
    expect(fromSample.epa_total).toBeCloseTo(fromTyped.epa_total, 2);
    expect(fromSample.shipped_count).toBeGreaterThan(999);
  });
});

describe('the manifests list in the typed dialect', () => {
  it('also writes a waste line container_count as a string', async () => {
    const { content } = await listPage(typed, 'manifests', { pageSize: 20, selectedFields: 'waste_lines' });
    const lines = content.flatMap((row) => row.waste_lines as Record<string, unknown>[]);
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(line.container_count).toMatch(/^\d+$/);
  });
});

describe('manifest totals', () => {
  async function expectManifestTotals(
    filterFields: ManifestFilterFields,
    searchKey = '',
  ): Promise<Record<string, number>> {
    const { rows } = await walkAllPages(typed, 'manifests', {
      filterFields,
      searchKey,
      pageSize: 500,
      selectedFields: 'manifest_tracking_number,total_waste_quantity_tons,container_count,waste_stream_count',
    });
    expect(rows.length).toBe(manifests.filter((m) => manifestMatches(m, filterFields, searchKey)).length);
    identify('manifests', rows, manifests);
    const expected = {
      total_waste: sum(rows.map((row) => Number(row.total_waste_quantity_tons))),
      shipped_count: rows.length,
      container_count: sum(rows.map((row) => Number(row.container_count))),
      waste_streams: sum(rows.map((row) => Number(row.waste_stream_count))),
    };
    const body = { filterFields, searchKey };
    expectBothDialects(
      await totals(typed, PATHS.manifestTotals, body),
      await totals(sample, PATHS.manifestTotals, body),
      expected,
      'total_waste',
    );
    return expected;
  }

  it('sums every manifest without filters; waste_streams is the number of waste lines', async () => {
    const expected = await expectManifestTotals({});
    const db = typedServer.db;
    expect(expected.shipped_count).toBe(3000);
    expect(expected.total_waste).toBeCloseTo(
      db.prepare('SELECT sum(total_waste_quantity_tons) FROM manifests').pluck().get() as number,
      4,
    );
    expect(expected.waste_streams).toBe(db.prepare('SELECT count(*) FROM waste_lines').pluck().get());
  });

  it('reads a missing filterFields and searchKey as none', async () => {
    expect(await totals(sample, PATHS.manifestTotals, {})).toEqual(
      await totals(sample, PATHS.manifestTotals, { filterFields: {}, searchKey: '' }),
    );
  });

  const first = (values: string[]) => sortedDistinct(values).filter((value) => value !== '');

  it.each([
    ['generator_names', () => first(manifests.map((m) => String(m.row.generator_name))).slice(0, 3)],
    ['transporter_names', () => first(manifests.map((m) => String(m.row.transporter))).slice(1, 2)],
    [
      'designated_facility_names',
      () => first(manifests.map((m) => String(m.row.designated_facility_name))).slice(-2),
    ],
    [
      'dot_id_nos',
      () => first(manifests.flatMap((m) => m.lines.map((line) => line.usdot_id_number))).slice(0, 2),
    ],
    [
      'container_types',
      () => first(manifests.flatMap((m) => m.lines.map((line) => line.container_type_code))).slice(0, 1),
    ],
    [
      'handling_codes',
      () => first(manifests.flatMap((m) => m.lines.map((line) => line.management_method_code))).slice(2, 4),
    ],
  ] as const)('sums the manifests the list shows for %s', async (member, values) => {
    const expected = await expectManifestTotals({ [member]: values() });
    expect(expected.shipped_count).toBeGreaterThan(0);
  });

  it('sums a shipped-date range and a received-date end', async () => {
    const shipped = sortedDistinct(manifests.map((m) => String(m.row.shipped_date)));
    await expectManifestTotals({
      shipped_date_start: shipped[10] ?? '',
      shipped_date_end: shipped[shipped.length - 10] ?? '',
      received_date_end: shipped[shipped.length - 30] ?? '',
    });
  });

  it.each(['x', '00', 'LLC', 'waste'])(
    'sums the manifests the list shows for searchKey %j',
    async (searchKey) => {
      await expectManifestTotals({}, searchKey);
    },
  );

  it('is zero for no matching manifests', async () => {
    const body = { filterFields: { generator_names: ['nobody'] } };
    expect(await totals(typed, PATHS.manifestTotals, body)).toEqual({
      total_waste: 0,
      shipped_count: 0,
      container_count: 0,
      waste_streams: 0,
    });
    expect(await totals(sample, PATHS.manifestTotals, body)).toEqual({
      total_waste: ' 0.00',
      shipped_count: ' 0',
      container_count: ' 0',
      waste_streams: ' 0',
    });
  });

  it('is readable by the client schema in both dialects, to the same numbers', async () => {
    const fromSample = ManifestTotals.parse(await totals(sample, PATHS.manifestTotals, {}));
    const fromTyped = ManifestTotals.parse(await totals(typed, PATHS.manifestTotals, {}));
    expect(fromSample.shipped_count).toBe(3000);
    expect(fromSample.container_count).toBe(fromTyped.container_count);
    expect(fromSample.total_waste).toBeCloseTo(fromTyped.total_waste, 2);
  });
});
