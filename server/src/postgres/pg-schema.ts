/**
 * The tracker database on PostgreSQL: the same tables and columns as SQLite's (db/schema.ts; a test holds
 * the two layouts equal), in PostgreSQL's types, applied as numbered migrations. `migrate` applies the ones
 * a database lacks, in one transaction under an advisory lock, so that several server processes
 * starting at once apply each exactly once; `schema_migrations` records what was applied and when.
 *
 * Text columns are COLLATE "C": byte order of UTF-8, which is code point order, the order shared/query sorts
 * and SQLite's BINARY gives. Search reads a stored, folded copy of each row's search fields
 * (`search_text`, by `tracker_fold`, the one folding rule of shared/query/search.ts) through a pg_trgm GIN
 * index; fields are joined by U+0001, which no search key may hold, so a match never spans two fields.
 * Indexes are built after a bulk load (pg-finalize.ts), never maintained row by row during it.
 */
import type { Sql } from 'postgres';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import { foldFunctionSql } from './pg-fold.ts';
import { listsMigrationSql, runsMigrationSql } from './pg-lookup-lists.ts';

/** The folded search text of a row: its search fields joined by U+0001 (see the header). */
export function searchTextSql(fields: readonly string[]): string {
  return `tracker_fold(${fields.join(" || E'\\x01' || ")})`;
}

/**
 * The tables the API's answers are read from: any statement that writes one raises the data version in its
 * own transaction (a trigger), so whatever writes them (a load, the importer, an operator's SQL) is seen.
 */
const SERVED_TABLES = [
  'generators',
  'generator_naics',
  'generator_sic',
  'generator_shipped_years',
  'generator_waste_codes',
  'generator_statuses',
  'generator_handling_codes',
  'manifests',
  'waste_lines',
  'manifest_line_sets',
  'manifest_line_set_totals',
  'manifest_waste_lines_json',
  'waste_codes',
  'management_methods',
];

const T = 'text COLLATE "C" NOT NULL';
const TD = `${T} DEFAULT ''`;

const SCHEMA_1 = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
${foldFunctionSql('sql')}

CREATE TABLE meta (key ${T} PRIMARY KEY, value ${T});

CREATE TABLE waste_codes (code ${T} PRIMARY KEY, description ${T});
CREATE TABLE management_methods (code ${T} PRIMARY KEY, description ${T});
CREATE TABLE naics_codes (code ${T} PRIMARY KEY, description ${T});
CREATE TABLE container_types (code ${T} PRIMARY KEY, description ${T});

CREATE TABLE generators (
  id                                     integer PRIMARY KEY,
  epa_handler_id                         ${T} UNIQUE,
  generator_name                         ${T},
  physical_address                       ${TD},
  location_street_number                 ${TD},
  location_street_1                      ${TD},
  location_street_2                      ${TD},
  location_city                          ${TD},
  location_state                         ${TD},
  location_zip                           ${TD},
  mail_street_number                     ${TD},
  mail_street_1                          ${TD},
  mail_street_2                          ${TD},
  mail_city                              ${TD},
  mail_state                             ${TD},
  mail_zip                               ${TD},
  contact_name                           ${TD},
  contact_phone_number                   ${TD},
  contact_email                          ${TD},
  primary_naics_code                     ${TD},
  primary_naics_desc                     ${TD},
  registration_status                    ${TD},
  state_handler_id                       ${TD},
  federal_generator_status_universe      ${TD},
  federal_generator_status_universe_code ${TD},
  land_type                              ${TD},
  short_term_generator_activity          ${TD},
  mixed_waste_generator                  ${TD},
  transporter_activity                   ${TD},
  transfer_facility_activity             ${TD},
  importer_activity                      ${TD},
  location_latitude                      ${TD},
  location_longitude                     ${TD},
  public_notes                           ${TD},
  is_industry                            ${TD},
  is_network                             integer NOT NULL DEFAULT 0,
  is_tracker_enable                      integer NOT NULL DEFAULT 1,
  report_year                            ${TD},
  total_waste                            double precision NOT NULL DEFAULT 0,
  managed_waste                          double precision NOT NULL DEFAULT 0,
  received_waste                         double precision NOT NULL DEFAULT 0,
  shipped_tons                           double precision NOT NULL DEFAULT 0,
  shipped_count                          integer NOT NULL DEFAULT 0,
  container_count                        integer NOT NULL DEFAULT 0,
  mmc_count                              integer NOT NULL DEFAULT 0,
  shipped_years                          ${TD},
  federal_waste_codes                    ${TD},
  management_method_code                 ${TD},
  search_text text COLLATE "C" GENERATED ALWAYS AS (${searchTextSql(GENERATOR_QUERY.searchFields)}) STORED
);

CREATE TABLE generator_naics (
  generator_id integer NOT NULL,
  naics_code   ${T},
  naics_desc   ${T},
  is_active    ${T} CHECK (is_active IN ('Y', 'N')),
  PRIMARY KEY (generator_id, naics_code)
);
CREATE TABLE generator_sic (
  generator_id integer NOT NULL,
  sic_code     integer NOT NULL,
  sic_desc     ${T},
  PRIMARY KEY (generator_id, sic_code)
);
CREATE TABLE generator_shipped_years (year ${T}, generator_id integer NOT NULL, PRIMARY KEY (year, generator_id));
CREATE TABLE generator_waste_codes (code ${T}, generator_id integer NOT NULL, PRIMARY KEY (code, generator_id));
CREATE TABLE generator_statuses (status ${T}, generator_id integer NOT NULL, PRIMARY KEY (status, generator_id));
CREATE TABLE generator_handling_codes (code ${T}, generator_id integer NOT NULL, PRIMARY KEY (code, generator_id));

CREATE TABLE manifests (
  id                        integer PRIMARY KEY,
  manifest_tracking_number  ${T} UNIQUE,
  generator_id              integer NOT NULL,
  generator_name            ${T},
  generator_epa_id          ${T},
  generator_location_state  ${T},
  transporter               ${T},
  designated_facility_name  ${T},
  shipped_date              ${T},
  received_date             ${T},
  total_waste_quantity_tons double precision NOT NULL,
  container_count           integer NOT NULL,
  waste_stream_count        integer NOT NULL,
  search_text text COLLATE "C" GENERATED ALWAYS AS (${searchTextSql(MANIFEST_QUERY.searchFields)}) STORED
);

CREATE TABLE waste_lines (
  manifest_id            integer NOT NULL,
  waste_line_number      integer NOT NULL,
  usdot_haz_indicator    ${T},
  usdot_id_number        ${T},
  usdot_desc             ${T},
  container_count        integer NOT NULL,
  container_type_code    ${T},
  epa_waste_indicator    ${T},
  waste_quantity_tons    double precision NOT NULL,
  transporter            ${T},
  federal_waste_codes    ${T},
  management_method_code ${T},
  mmc_and_desc           ${T},
  PRIMARY KEY (manifest_id, waste_line_number)
);

CREATE TABLE manifest_line_sets (
  member                   ${T},
  code                     ${T},
  shipped_date             ${T},
  manifest_tracking_number ${T},
  manifest_id              integer NOT NULL,
  tons                     double precision NOT NULL,
  containers               integer NOT NULL,
  streams                  integer NOT NULL,
  PRIMARY KEY (member, code, shipped_date, manifest_tracking_number)
);
CREATE TABLE manifest_line_set_totals (
  member     ${T},
  code       ${T},
  manifests  integer NOT NULL,
  tons       double precision NOT NULL,
  containers integer NOT NULL,
  streams    integer NOT NULL,
  PRIMARY KEY (member, code)
);
CREATE TABLE manifest_waste_lines_json (manifest_id integer PRIMARY KEY, json text NOT NULL);

CREATE TABLE users (
  id            integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  username      ${T} UNIQUE,
  password_hash ${T},
  scopes        ${T},
  created_at    ${T}
);
CREATE TABLE tokens (
  token_hash ${T} PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at bigint NOT NULL,
  revoked    integer NOT NULL DEFAULT 0
);
CREATE INDEX tokens_expiry ON tokens (expires_at);

-- The sign-in throttle of every server process on this database (auth/pg-accounts.ts): one row per counted
-- failure, under a user name + client key and under the client key alone.
CREATE TABLE sign_in_failures (
  id  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key ${T},
  at  bigint NOT NULL
);
CREATE INDEX sign_in_failures_key ON sign_in_failures (key, at);
CREATE INDEX sign_in_failures_at ON sign_in_failures (at);

-- Raised by every statement that changes the served data (the triggers below): a server process compares
-- it with what its in-memory lists were read at (pg-reads.ts).
CREATE TABLE data_version (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), version bigint NOT NULL);
INSERT INTO data_version VALUES (true, 1);
CREATE FUNCTION tracker_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_version SET version = version + 1;
  RETURN NULL;
END $$;
${SERVED_TABLES.map(
  (table) => `CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION tracker_data_changed();`,
).join('\n')}
`;

/** Issue 21's importer columns and the tables its derived facts live in (db/schema.ts version 7). */
const SCHEMA_2 = `
ALTER TABLE generators ADD COLUMN record_source ${TD}, ADD COLUMN source_updated ${TD};
CREATE TABLE generator_method_lines (
  generator_id integer NOT NULL,
  code         ${T},
  lines        integer NOT NULL,
  PRIMARY KEY (generator_id, code)
);
ALTER TABLE manifests ADD COLUMN updated_date ${TD}, ADD COLUMN designated_facility_epa_id ${TD},
  ADD COLUMN source_total_tons double precision, ADD COLUMN import_run integer NOT NULL DEFAULT 0;
CREATE TABLE manifest_transporters (
  manifest_id       integer NOT NULL,
  transporter_order integer NOT NULL,
  epa_id            ${T},
  name              ${T},
  PRIMARY KEY (manifest_id, transporter_order)
);
CREATE TABLE data_tallies (name ${T} PRIMARY KEY, value double precision NOT NULL);
${['generator_method_lines', 'manifest_transporters', 'data_tallies']
  .map(
    (table) => `CREATE TRIGGER ${table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION tracker_data_changed();`,
  )
  .join('\n')}
`;

/**
 * The importer's ledger (db/schema.ts's import_* tables: runs, each file's progress and counts, rejected and
 * pending rows, manifests met in an older version), ids for the rows it adds (numbered after the largest
 * loaded one, import/postgres/pg-sink.ts), and the data version raised once per transaction rather than
 * once per statement: an import batch runs thousands of statements in one.
 */
const SCHEMA_3 = `
ALTER TABLE generators ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY;
ALTER TABLE manifests ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY;
CREATE TABLE import_runs (
  id          integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  files       ${T},
  mode        ${T},
  state       ${T},
  started_at  ${T},
  finished_at text
);
CREATE TABLE import_files (
  run_id    integer NOT NULL,
  file_key  ${T},
  path      ${T},
  rows_done integer NOT NULL DEFAULT 0,
  done      integer NOT NULL DEFAULT 0,
  ${['read', 'stored', 'updated', 'unchanged', 'skipped', 'rejected', 'pending']
    .map((counter) => `${counter} integer NOT NULL DEFAULT 0`)
    .join(',\n  ')},
  PRIMARY KEY (run_id, file_key)
);
CREATE TABLE import_rejections (
  id          bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  run_id      integer NOT NULL,
  file        ${T},
  line        integer NOT NULL,
  column_name ${T},
  reason      ${T},
  raw         ${T}
);
CREATE INDEX import_rejections_run ON import_rejections (run_id, id);
CREATE TABLE import_pending (
  id       bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  run_id   integer NOT NULL,
  file_key ${T},
  wait_key ${T},
  kind     ${T},
  record   ${T},
  file     ${T},
  line     integer NOT NULL,
  raw      ${T}
);
CREATE INDEX import_pending_wait ON import_pending (wait_key);
CREATE TABLE import_stale (
  run_id          integer NOT NULL,
  tracking_number ${T},
  PRIMARY KEY (run_id, tracking_number)
);
CREATE OR REPLACE FUNCTION tracker_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('tracker.changed_in', true) IS DISTINCT FROM txid_current()::text THEN
    UPDATE data_version SET version = version + 1;
    PERFORM set_config('tracker.changed_in', txid_current()::text, true);
  END IF;
  RETURN NULL;
END $$;
`;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in order. A change to the schema is a new entry, never an edit of an applied one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'tracker schema', sql: SCHEMA_1 },
  { version: 2, name: 'imported data: sources, transporters, method counts, tallies', sql: SCHEMA_2 },
  { version: 3, name: "the importer's ledger, row ids, one data version a transaction", sql: SCHEMA_3 },
  { version: 4, name: 'tracking numbers and handler ids listed in lookup order', sql: listsMigrationSql() },
  {
    version: 5,
    name: 'search text folded by a function compiled once a session',
    sql: foldFunctionSql('plpgsql'),
  },
  {
    version: 6,
    name: 'lookup entries holding a run of one character indexed apart',
    sql: runsMigrationSql(),
  },
];

export const PG_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** Any number that no other use of advisory locks in this database picks: "trak". */
const MIGRATION_LOCK = 0x7472616b;

/** The highest migration applied, 0 for a database with none. */
export async function appliedVersion(sql: Sql): Promise<number> {
  const [table] = await sql<{ present: boolean }[]>`
    SELECT to_regclass('schema_migrations') IS NOT NULL AS present`;
  if (!table?.present) return 0;
  const [row] = await sql<
    { version: number }[]
  >`SELECT coalesce(max(version), 0) AS version FROM schema_migrations`;
  return row?.version ?? 0;
}

/** Applies the migrations the database lacks; returns the versions applied now. */
export async function migrate(sql: Sql): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
    const done = new Set(
      (await tx<{ version: number }[]>`SELECT version FROM schema_migrations`).map((r) => r.version),
    );
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await tx.unsafe(migration.sql);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
      applied.push(migration.version);
    }
    return applied;
  });
}
