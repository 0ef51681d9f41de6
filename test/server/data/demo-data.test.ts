/**
 * The demo dataset as a reviewer would check it: deterministic, well-formed identifiers and dates, totals
 * that add up, only codes the reference lists hold, shipments concentrated on a few large generators, and
 * the demo accounts in place.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../../server/src/auth/demo-accounts.ts';
import { loadReference } from '../../../server/src/data/reference.ts';
import { DemoBuildError, buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { hasCurrentSchema, openDatabase } from '../../../server/src/db/open.ts';
import { DatabaseError } from '../../../server/src/db/database-error.ts';
import { SCHEMA_VERSION } from '../../../server/src/db/schema.ts';

const MANIFESTS = 3000;
const SEED = 11;
const DATA_TABLES = ['generators', 'generator_naics', 'generator_sic', 'manifests', 'waste_lines'];

let dir: string;
let path: string;
let db: Database.Database;

/** A digest of every row of the data tables, in key order. */
function digest(file: string): Record<string, string> {
  const source = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      DATA_TABLES.map((table) => {
        const hash = createHash('sha256');
        for (const row of source.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().iterate()) {
          hash.update(JSON.stringify(row));
        }
        return [table, hash.digest('hex')];
      }),
    );
  } finally {
    source.close();
  }
}

const all = <T>(sql: string, ...params: unknown[]): T[] => db.prepare(sql).all(...params) as T[];
const value = <T>(sql: string, ...params: unknown[]): T =>
  db
    .prepare(sql)
    .pluck()
    .get(...params) as T;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'demo-data-'));
  path = join(dir, 'demo.db');
  await buildDemoDatabase(path, { manifests: MANIFESTS, seed: SEED });
  db = new Database(path, { readonly: true });
});

afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo dataset', () => {
  it('holds one generator per ten manifests and 1–6 waste lines per manifest', () => {
    expect(value<number>('SELECT count(*) FROM generators')).toBe(MANIFESTS / 10);
    expect(value<number>('SELECT count(*) FROM manifests')).toBe(MANIFESTS);
    const perManifest = all<{ lines: number; numbers: string }>(
      `SELECT count(*) AS lines, group_concat(waste_line_number) AS numbers
       FROM (SELECT * FROM waste_lines ORDER BY manifest_id, waste_line_number) GROUP BY manifest_id`,
    );
    expect(perManifest).toHaveLength(MANIFESTS);
    for (const { lines, numbers } of perManifest) {
      expect(lines).toBeGreaterThanOrEqual(1);
      expect(lines).toBeLessThanOrEqual(6);
      expect(numbers).toBe(Array.from({ length: lines }, (_, index) => index + 1).join(','));
    }
    const average = value<number>(
      'SELECT count(*) * 1.0 / (SELECT count(*) FROM manifests) FROM waste_lines',
    );
    expect(average).toBeGreaterThan(2.2);
    expect(average).toBeLessThan(2.8);
  });

  it('is the same row for row for the same seed, and different for another seed', async () => {
    const again = join(dir, 'again.db');
    const other = join(dir, 'other.db');
    await buildDemoDatabase(again, { manifests: MANIFESTS, seed: SEED });
    await buildDemoDatabase(other, { manifests: MANIFESTS, seed: SEED + 1 });
    const first = digest(path);
    expect(digest(again)).toEqual(first);
    const changed = digest(other);
    for (const table of DATA_TABLES) expect(changed[table], table).not.toBe(first[table]);
  });

  it('gives every generator a unique EPA ID of its state: two letters, a letter, nine digits', () => {
    const rows = all<{ epa_handler_id: string; location_state: string }>(
      'SELECT epa_handler_id, location_state FROM generators',
    );
    for (const { epa_handler_id, location_state } of rows) {
      expect(epa_handler_id).toMatch(/^[A-Z]{2}[A-Z]\d{9}$/);
      expect(epa_handler_id.slice(0, 2)).toBe(location_state);
    }
    expect(new Set(rows.map((row) => row.epa_handler_id)).size).toBe(rows.length);
  });

  it('copies the generator name, EPA ID and state onto its manifests', () => {
    const mismatches = value<number>(
      `SELECT count(*) FROM manifests m JOIN generators g ON g.id = m.generator_id
       WHERE m.generator_name <> g.generator_name OR m.generator_epa_id <> g.epa_handler_id
          OR m.generator_location_state <> g.location_state`,
    );
    expect(mismatches).toBe(0);
    expect(
      value<number>('SELECT count(*) FROM manifests WHERE generator_id NOT IN (SELECT id FROM generators)'),
    ).toBe(0);
  });

  it('gives every manifest a unique tracking number: nine digits and three letters', () => {
    const tracking = db.prepare('SELECT manifest_tracking_number FROM manifests').pluck().all() as string[];
    for (const number of tracking) expect(number).toMatch(/^\d{9}[A-Z]{3}$/);
    expect(new Set(tracking).size).toBe(MANIFESTS);
    const electronic = tracking.filter((number) => number.endsWith('ELC')).length;
    expect(electronic / tracking.length).toBeGreaterThan(0.5);
  });

  it('ships from 2018-07-01 to 2026-10-31 and receives 0–14 days later', () => {
    const rows = all<{ shipped_date: string; received_date: string }>(
      'SELECT shipped_date, received_date FROM manifests',
    );
    for (const { shipped_date, received_date } of rows) {
      for (const date of [shipped_date, received_date]) {
        expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(date);
      }
      expect(shipped_date >= '2018-07-01' && shipped_date <= '2026-10-31').toBe(true);
      const days = (Date.parse(received_date) - Date.parse(shipped_date)) / 86_400_000;
      expect(days).toBeGreaterThanOrEqual(0);
      expect(days).toBeLessThanOrEqual(14);
    }
  });

  it('totals each manifest over its waste lines', () => {
    const rows = all<{
      tons: number;
      lineTons: number;
      containers: number;
      lineContainers: number;
      streams: number;
      lines: number;
    }>(
      `SELECT m.total_waste_quantity_tons AS tons, sum(w.waste_quantity_tons) AS lineTons,
              m.container_count AS containers, sum(w.container_count) AS lineContainers,
              m.waste_stream_count AS streams, count(*) AS lines
       FROM manifests m JOIN waste_lines w ON w.manifest_id = m.id GROUP BY m.id`,
    );
    expect(rows).toHaveLength(MANIFESTS);
    for (const row of rows) {
      expect(row.tons).toBeCloseTo(row.lineTons, 6);
      expect(row.tons).toBeGreaterThan(0);
      expect(row.containers).toBe(row.lineContainers);
      expect(row.streams).toBe(row.lines);
    }
  });

  it('uses only waste codes, handling codes, container types, DOT ids and NAICS codes of the reference lists', () => {
    const reference = loadReference();
    const wasteCodes = new Set(db.prepare('SELECT code FROM waste_codes').pluck().all() as string[]);
    const methods = new Set(db.prepare('SELECT code FROM management_methods').pluck().all() as string[]);
    const containers = new Set(db.prepare('SELECT code FROM container_types').pluck().all() as string[]);
    const naics = new Set(db.prepare('SELECT code FROM naics_codes').pluck().all() as string[]);
    const dotIds = new Set(reference.dotEntries.map((entry) => entry.idNumber));
    expect(wasteCodes.size).toBe(reference.wasteCodes.length);

    const lines = all<{
      usdot_haz_indicator: string;
      usdot_id_number: string;
      usdot_desc: string;
      container_type_code: string;
      container_count: number;
      federal_waste_codes: string;
      management_method_code: string;
      mmc_and_desc: string;
      epa_waste_indicator: string;
      transporter: string;
    }>('SELECT * FROM waste_lines');
    for (const line of lines) {
      const codes = line.federal_waste_codes.split(',');
      expect(codes.length).toBeGreaterThanOrEqual(1);
      expect(codes.length).toBeLessThanOrEqual(4);
      for (const code of codes) expect(wasteCodes.has(code), code).toBe(true);
      expect(methods.has(line.management_method_code), line.management_method_code).toBe(true);
      expect(line.mmc_and_desc.startsWith(`${line.management_method_code} - `)).toBe(true);
      expect(containers.has(line.container_type_code), line.container_type_code).toBe(true);
      expect(line.container_count).toBeGreaterThanOrEqual(1);
      expect(line.container_count).toBeLessThanOrEqual(40);
      expect(line.epa_waste_indicator).toBe('Y');
      expect(line.transporter).toMatch(/^[A-Z]{2}[A-Z]\d{9}$/);
      if (line.usdot_haz_indicator === 'Y') {
        expect(dotIds.has(line.usdot_id_number), line.usdot_id_number).toBe(true);
        expect(line.usdot_desc).toContain(line.usdot_id_number);
      } else {
        expect(line.usdot_haz_indicator).toBe('N');
        expect(line.usdot_id_number).toBe('');
      }
    }
    const hazardous = lines.filter((line) => line.usdot_haz_indicator === 'Y').length;
    expect(hazardous / lines.length).toBeGreaterThan(0.9);

    for (const code of db
      .prepare('SELECT DISTINCT primary_naics_code FROM generators')
      .pluck()
      .all() as string[]) {
      expect(naics.has(code), code).toBe(true);
    }
    const primaries = all<{ active: number; primaries: number }>(
      `SELECT sum(n.naics_code = g.primary_naics_code AND n.is_active = 'Y') AS primaries, count(*) AS active
       FROM generators g JOIN generator_naics n ON n.generator_id = g.id GROUP BY g.id`,
    );
    expect(primaries).toHaveLength(MANIFESTS / 10);
    for (const row of primaries) {
      expect(row.primaries).toBe(1);
      expect(row.active).toBeLessThanOrEqual(3);
    }
  });

  it('derives each generator’s shipment totals from its manifests', () => {
    const rows = all<{
      shipped_tons: number;
      shipped_count: number;
      container_count: number;
      tons: number;
      count: number;
      containers: number;
      shipped_years: string;
      years: string;
    }>(
      `SELECT g.shipped_tons, g.shipped_count, g.container_count, g.shipped_years,
              t.tons, t.count, t.containers, t.years
       FROM generators g JOIN (
         SELECT generator_id, sum(total_waste_quantity_tons) AS tons, count(*) AS count,
                sum(container_count) AS containers,
                (SELECT group_concat(year, ',') FROM (SELECT DISTINCT substr(shipped_date, 1, 4) AS year
                   FROM manifests i WHERE i.generator_id = o.generator_id ORDER BY year)) AS years
         FROM manifests o GROUP BY generator_id
       ) t ON t.generator_id = g.id`,
    );
    expect(rows).toHaveLength(MANIFESTS / 10);
    for (const row of rows) {
      expect(row.shipped_tons).toBeCloseTo(row.tons, 3);
      expect(row.shipped_count).toBe(row.count);
      expect(row.container_count).toBe(row.containers);
      expect(row.shipped_years).toBe(row.years);
    }
  });

  it('reports generated waste no smaller than what the generator shipped in its report year', () => {
    const rows = all<{ total_waste: number; report_year: string; shipped: number }>(
      `SELECT g.total_waste, g.report_year,
              (SELECT coalesce(sum(total_waste_quantity_tons), 0) FROM manifests m
               WHERE m.generator_id = g.id AND substr(m.shipped_date, 1, 4) = g.report_year) AS shipped
       FROM generators g`,
    );
    for (const row of rows) {
      expect(row.report_year).toMatch(/^20(1[89]|2[0-6])$/);
      expect(row.shipped).toBeGreaterThan(0);
      expect(row.total_waste).toBeGreaterThanOrEqual(row.shipped);
      expect(row.total_waste).toBeLessThan(row.shipped * 3 + 1);
    }
  });

  it('concentrates shipments on a few large generators', () => {
    const counts = db
      .prepare('SELECT shipped_count FROM generators ORDER BY shipped_count DESC')
      .pluck()
      .all() as number[];
    const top = counts.slice(0, Math.ceil(counts.length / 10)).reduce((sum, count) => sum + count, 0);
    expect(top / MANIFESTS).toBeGreaterThan(0.5);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
  });

  it('fills the generator profile fields with plausible values', () => {
    const rows = all<Record<string, string | number>>('SELECT * FROM generators');
    const statuses = new Set(rows.map((row) => row.federal_generator_status_universe_code));
    expect([...statuses].sort()).toEqual(['LQG', 'N', 'SQG', 'VSQG']);
    for (const row of rows) {
      expect(row.physical_address).toBe(`${row.location_street_number} ${row.location_street_1}`);
      expect(String(row.location_zip)).toMatch(/^\d{5}$/);
      expect(String(row.contact_email)).toMatch(/^[a-z.]+@[a-z0-9]+\.example\.com$/);
      expect(String(row.contact_phone_number)).toMatch(/^\d{3}-555-01\d{2}$/);
      expect(['Y', 'N']).toContain(row.short_term_generator_activity);
      expect(['Yes', 'No']).toContain(row.is_industry);
      if (row.location_latitude !== 'Not applicable') {
        expect(Math.abs(Number(row.location_latitude))).toBeLessThanOrEqual(90);
        expect(Number(row.location_longitude)).toBeLessThan(-60);
      }
    }
    expect(new Set(rows.map((row) => row.location_state)).size).toBeGreaterThan(30);
  });

  it('records the seed and size, and creates the demo accounts', () => {
    expect(value<string>("SELECT value FROM meta WHERE key = 'seed'")).toBe(String(SEED));
    expect(value<string>("SELECT value FROM meta WHERE key = 'manifests'")).toBe(String(MANIFESTS));
    const users = db.prepare('SELECT username FROM users ORDER BY username').pluck().all();
    expect(users).toEqual(DEMO_ACCOUNTS.map((account) => account.username).sort());
  });

  it('opens as a tracker database, with no temporary file left beside it', () => {
    openDatabase(path).close();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('leaves every search and lookup index writing segments of 1 MiB, as an import into it needs', () => {
    // The build gathers 32 MiB of postings per segment (db/search-index.ts); an import's batches into the
    // database, served, must not: each would hold that much per table.
    const tables = all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'",
    ).map(({ name }) => name);
    expect(tables).toEqual(expect.arrayContaining(['manifests_search', 'generators_search']));
    expect(tables.length).toBeGreaterThan(2);
    for (const table of tables) {
      const hashsize = value(
        `SELECT coalesce((SELECT v FROM ${table}_config WHERE k = 'hashsize'), 1048576)`,
      );
      expect([table, hashsize]).toEqual([table, 1024 * 1024]);
    }
  });

  it('is refused, naming what is missing, when a table of the schema is not there', () => {
    const copy = join(dir, 'lacking.db');
    copyFileSync(path, copy);
    const lacking = new Database(copy);
    lacking.exec('DROP TABLE data_tallies');
    lacking.close();
    expect(hasCurrentSchema(copy)).toBe(false);
    expect(() => openDatabase(copy)).toThrow(
      new DatabaseError(
        `${copy} says schema version ${SCHEMA_VERSION} but lacks the tables data_tallies: build it anew`,
      ),
    );
  });
});

describe('building a demo database', () => {
  it('refuses to replace an existing file unless forced', async () => {
    const target = join(dir, 'existing.db');
    writeFileSync(target, 'not a database');
    await expect(buildDemoDatabase(target, { manifests: 20 })).rejects.toThrow(DemoBuildError);
    await buildDemoDatabase(target, { manifests: 20, force: true });
    openDatabase(target).close();
    expect(existsSync(`${target}.tmp`)).toBe(false);
  });

  it.each([0, -5, 2.5, Number.NaN])('refuses %s manifests', async (manifests) => {
    await expect(buildDemoDatabase(join(dir, 'bad.db'), { manifests })).rejects.toThrow(DemoBuildError);
    expect(existsSync(join(dir, 'bad.db'))).toBe(false);
  });

  it('builds the smallest dataset: one manifest from one generator', async () => {
    const target = join(dir, 'one.db');
    const result = await buildDemoDatabase(target, { manifests: 1, seed: 3 });
    expect(result).toMatchObject({ generators: 1, manifests: 1 });
    expect(result.wasteLines).toBeGreaterThanOrEqual(1);
  });
});
