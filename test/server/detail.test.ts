/**
 * GET /api/tracker/generators/details/ (spec 2.3, 4.4; docs/api.md "Detail" and "Wire dialect"): the same
 * generator in both dialects reads as one canonical profile, consistent with the database.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeneratorDetail } from '../../shared/api/index.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../helpers/tracker-server.ts';
import {
  GENERATORS_ONLY,
  INSPECTOR,
  IDLE_GENERATOR,
  addGenerators,
  PATHS,
  expectProblem,
  expectValidation,
  get,
  loadGenerators,
  signInAs,
  sortedDistinct,
  splitCodes,
  type GeneratorTruth,
  type Session,
} from './support.ts';

let dir: string;
let sampleServer: TrackerServer;
let typedServer: TrackerServer;
let sample: Session;
let typed: Session;
let generators: GeneratorTruth[];
const MANIFESTS_ONLY = { username: 'manifests-only', password: 'manifests-demo' };

/** Generators added with the coordinates each case of gen_map needs, whatever the demo data holds. */
const MAPPED = {
  numbers: { epa_handler_id: 'ZZD000000101', location_latitude: '40.7128', location_longitude: '-74.006' },
  blank: { epa_handler_id: 'ZZD000000102', location_latitude: '', location_longitude: '' },
  notNumbers: { epa_handler_id: 'ZZD000000103', location_latitude: 'n/a', location_longitude: '-74.006' },
  oneOnly: { epa_handler_id: 'ZZD000000104', location_latitude: '40.7128', location_longitude: '' },
};

beforeAll(async () => {
  const built = await buildTestDatabase();
  dir = built.dir;
  addGenerators(built.path, [IDLE_GENERATOR, ...Object.values(MAPPED)]);
  sampleServer = await startTrackerServer({ dbPath: built.path, dialect: 'sample', socket: false });
  typedServer = await startTrackerServer({ dbPath: built.path, dialect: 'typed', socket: false });
  await sampleServer.addUser(MANIFESTS_ONLY.username, MANIFESTS_ONLY.password, ['manifests']);
  sample = await signInAs(sampleServer.baseUrl, INSPECTOR.username, INSPECTOR.password);
  typed = await signInAs(typedServer.baseUrl, INSPECTOR.username, INSPECTOR.password);
  generators = loadGenerators(typedServer.db);
});

afterAll(async () => {
  await sampleServer?.close();
  await typedServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, unknown>;

async function detail(session: Session, handlerId: string): Promise<Json> {
  const answer = await get(session.baseUrl, PATHS.detail, session.token, { handler_id: handlerId });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Json;
}

/** The busiest shipper: the generator with the most manifests. */
function busiest(): GeneratorTruth {
  const g = [...generators].sort((a, b) => b.shippedCount - a.shippedCount || a.id - b.id)[0];
  if (!g) throw new Error('no generators');
  return g;
}

const handlerId = (g: GeneratorTruth) => String(g.row.epa_handler_id);

describe('the two dialects', () => {
  it('sample writes the spec sample spellings and waste_code_data as an object', async () => {
    const body = await detail(sample, handlerId(busiest()));
    const data = body.generator_data as Json;
    const site = body.site_activities as Json;
    expect(data).toHaveProperty('location_lattitude');
    expect(data).toHaveProperty('recieved_waste');
    expect(data).not.toHaveProperty('location_latitude');
    expect(data).not.toHaveProperty('received_waste');
    expect(site).toHaveProperty('recieved_waste');
    expect(site).not.toHaveProperty('received_waste');
    expect(Array.isArray(body.waste_code_data)).toBe(false);
    expect(typeof body.waste_code_data).toBe('object');
    expect(Object.keys(body.waste_code_data as Json).length).toBe(busiest().wasteCodes.size);
  });

  it('typed writes the described names and waste_code_data as an array', async () => {
    const body = await detail(typed, handlerId(busiest()));
    const data = body.generator_data as Json;
    expect(data).toHaveProperty('location_latitude');
    expect(data).toHaveProperty('received_waste');
    expect(data).not.toHaveProperty('location_lattitude');
    expect(data).not.toHaveProperty('recieved_waste');
    expect(body.site_activities).toHaveProperty('received_waste');
    expect(Array.isArray(body.waste_code_data)).toBe(true);
  });

  it.each([0, 1, 2, 3])(
    'parse to the identical canonical profile (generator %i of a spread)',
    async (index) => {
      const sorted = [...generators].sort((a, b) => b.shippedCount - a.shippedCount || a.id - b.id);
      const g = sorted[Math.floor((index * (sorted.length - 1)) / 3)];
      if (!g) throw new Error('no generator');
      const fromSample = GeneratorDetail.parse(await detail(sample, handlerId(g)));
      const fromTyped = GeneratorDetail.parse(await detail(typed, handlerId(g)));
      expect(fromSample).toEqual(fromTyped);
      expect(fromTyped.generator_data.epa_handler_id).toBe(handlerId(g));
    },
  );

  it('both write site_activities.generated_waste as a two-decimal string', async () => {
    for (const session of [sample, typed]) {
      const site = (await detail(session, handlerId(busiest()))).site_activities as Json;
      expect(site.generated_waste).toMatch(/^-?\d+\.\d{2}$/);
      expect(typeof site.managed_waste).toBe('number');
    }
  });
});

describe('values', () => {
  interface Manifest {
    shipped_date: string;
    total_waste_quantity_tons: number;
    container_count: number;
  }

  it('match the database for the busiest shipper', async () => {
    const g = busiest();
    const db = typedServer.db;
    const row = db.prepare('SELECT * FROM generators WHERE id = ?').get(g.id) as Json;
    const manifests = db
      .prepare(
        'SELECT shipped_date, total_waste_quantity_tons, container_count FROM manifests WHERE generator_id = ?',
      )
      .all(g.id) as Manifest[];
    expect(manifests.length).toBeGreaterThan(1);
    const canonical = GeneratorDetail.parse(await detail(typed, handlerId(g)));
    const data = canonical.generator_data;

    for (const field of [
      'epa_handler_id',
      'generator_name',
      'physical_address',
      'location_city',
      'location_state',
      'location_zip',
      'contact_name',
      'contact_email',
      'primary_naics_code',
      'primary_naics_desc',
      'registration_status',
      'state_handler_id',
      'federal_generator_status_universe',
      'location_latitude',
      'location_longitude',
    ] as const) {
      expect(data[field], field).toBe(row[field]);
    }
    const tons = manifests.reduce((sum, m) => sum + m.total_waste_quantity_tons, 0);
    expect(data.total_shipped).toBeCloseTo(tons, 4);
    expect(data.total_container).toBe(manifests.reduce((sum, m) => sum + m.container_count, 0));
    expect(data.total_mmc).toBe(g.handlingCodes.size);
    expect(data.total_generated_waste).toBe(row.total_waste);
    expect(sortedDistinct(splitCodes(data.shipped_years))).toEqual(
      sortedDistinct(manifests.map((m) => m.shipped_date.slice(0, 4))),
    );
    expect(sortedDistinct(splitCodes(data.federal_waste_codes))).toEqual(sortedDistinct(g.wasteCodes));

    const reportYear = String(row.report_year);
    const inReportYear = manifests
      .filter((m) => m.shipped_date.startsWith(`${reportYear}-`))
      .reduce((sum, m) => sum + m.total_waste_quantity_tons, 0);
    expect(data.shipped_waste).toBeCloseTo(inReportYear, 4);
    expect(canonical.site_activities).toEqual({
      report_year: reportYear,
      generated_waste: Number(Number(row.total_waste).toFixed(2)),
      managed_waste: row.managed_waste,
      shipped_waste: data.shipped_waste,
      received_waste: row.received_waste,
    });
    expect(data.received_waste).toBe(row.received_waste);

    expect(canonical.waste_code_data.map((entry) => entry.code)).toEqual(sortedDistinct(g.wasteCodes));
    const descriptions = new Map(
      (
        db.prepare('SELECT code, description FROM waste_codes').all() as {
          code: string;
          description: string;
        }[]
      ).map((entry) => [entry.code, entry.description]),
    );
    for (const entry of canonical.waste_code_data)
      expect(entry.description).toBe(descriptions.get(entry.code) ?? '');
    expect(canonical.mmc_codes.map((entry) => entry.management_method)).toEqual(
      sortedDistinct(g.handlingCodes),
    );

    const naics = db
      .prepare('SELECT naics_code, naics_desc, is_active FROM generator_naics WHERE generator_id = ?')
      .all(g.id);
    expect(canonical.naics_codes).toHaveLength(naics.length);
    expect(canonical.naics_codes).toEqual(expect.arrayContaining(naics));
    const sic = db.prepare('SELECT sic_code, sic_desc FROM generator_sic WHERE generator_id = ?').all(g.id);
    expect(canonical.sic_codes).toEqual(expect.arrayContaining(sic));
    expect(canonical.sic_codes).toHaveLength(sic.length);
    expect(canonical.is_network).toBe(row.is_network === 1);
    expect(canonical.is_tracker_enable).toBe(row.is_tracker_enable === 1);
  });

  it('are zero and empty for a generator without manifests', async () => {
    const idle = generators.find((g) => g.shippedCount === 0);
    if (!idle) throw new Error('no generator without manifests (IDLE_GENERATOR)');
    const canonical = GeneratorDetail.parse(await detail(sample, handlerId(idle)));
    expect(canonical.generator_data.total_shipped).toBe(0);
    expect(canonical.generator_data.total_container).toBe(0);
    expect(canonical.generator_data.total_mmc).toBe(0);
    expect(canonical.generator_data.shipped_waste).toBe(0);
    expect(canonical.generator_data.shipped_years).toBe('');
    expect(canonical.waste_code_data).toEqual([]);
    expect(canonical.mmc_codes).toEqual([]);
  });

  it('gen_map is an OpenStreetMap iframe around the coordinates when both are numbers', async () => {
    const body = GeneratorDetail.parse(await detail(typed, MAPPED.numbers.epa_handler_id));
    expect(body.gen_map).toBe(
      '<iframe width="425" height="350" src="https://www.openstreetmap.org/export/embed.html?' +
        'bbox=-74.01600%2C40.70280%2C-73.99600%2C40.72280&amp;layer=mapnik&amp;marker=40.71280%2C-74.00600">' +
        '</iframe>',
    );
  });

  it.each([
    ['blank', MAPPED.blank],
    ['not numbers', MAPPED.notNumbers],
    ['only one of them', MAPPED.oneOnly],
  ])('gen_map is empty when the coordinates are %s', async (_case, generator) => {
    expect(GeneratorDetail.parse(await detail(typed, generator.epa_handler_id)).gen_map).toBe('');
  });
});

describe('who may read it', () => {
  it('a generators-only user', async () => {
    const session = await signInAs(sampleServer.baseUrl, GENERATORS_ONLY.username, GENERATORS_ONLY.password);
    await detail(session, handlerId(busiest()));
  });

  it('a manifests-only user', async () => {
    const session = await signInAs(sampleServer.baseUrl, MANIFESTS_ONLY.username, MANIFESTS_ONLY.password);
    await detail(session, handlerId(busiest()));
    const list = await get(sampleServer.baseUrl, PATHS.generatorLookup, session.token, {
      field: 'naics',
      page: 1,
    });
    expectProblem(list, 403);
  });

  it('nobody without a token', async () => {
    const answer = await get(sampleServer.baseUrl, PATHS.detail, undefined, {
      handler_id: handlerId(busiest()),
    });
    expectProblem(answer, 401);
  });
});

describe('bad handler ids', () => {
  it('an unknown one is a 404 problem naming it', async () => {
    const answer = await get(sample.baseUrl, PATHS.detail, sample.token, { handler_id: 'ZZ0000000000' });
    const problem = expectProblem(answer, 404);
    expect(problem.type).toBe('about:blank');
    expect(problem.detail).toContain('ZZ0000000000');
  });

  it('a known one in another case is unknown (ids match exactly)', async () => {
    const id = handlerId(busiest());
    const other = id.toLowerCase() === id ? id.toUpperCase() : id.toLowerCase();
    expect(other).not.toBe(id);
    expectProblem(await get(sample.baseUrl, PATHS.detail, sample.token, { handler_id: other }), 404);
  });

  it.each([
    ['missing', ''],
    ['empty', 'handler_id='],
    ['blank', 'handler_id=%20%20'],
  ])('a %s one is a 400', async (_name, query) => {
    expectValidation(await get(sample.baseUrl, PATHS.detail, sample.token, query), 'query.handler_id');
  });

  it('a repeated one is a 400', async () => {
    const id = handlerId(busiest());
    const answer = await get(sample.baseUrl, PATHS.detail, sample.token, `handler_id=${id}&handler_id=${id}`);
    expectValidation(answer, 'query.handler_id');
  });

  it('an unknown parameter is a 400', async () => {
    const answer = await get(sample.baseUrl, PATHS.detail, sample.token, {
      handler_id: handlerId(busiest()),
      id: '1',
    });
    expectValidation(answer, 'query', /id/);
  });
});
