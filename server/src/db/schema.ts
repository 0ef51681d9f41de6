/**
 * The tracker database. One SQLite file holds the dataset, the reference code lists and the accounts.
 *
 * Load order: `createTables` on an empty file, bulk inserts (generator or importer), then `finalize`, which
 * builds the derived per-generator sets, the indexes and the search index in one pass after the data is in
 * (building indexes after a bulk load is several times faster than maintaining them during it).
 */
import type { Database } from 'better-sqlite3';

export const SCHEMA_VERSION = 8;

export const TABLES_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- Reference code lists (copied from public US-government lists; see server/data/reference/).
CREATE TABLE IF NOT EXISTS waste_codes (code TEXT PRIMARY KEY, description TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS management_methods (code TEXT PRIMARY KEY, description TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS naics_codes (code TEXT PRIMARY KEY, description TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS container_types (code TEXT PRIMARY KEY, description TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS generators (
  id                                     INTEGER PRIMARY KEY,
  epa_handler_id                         TEXT NOT NULL UNIQUE,
  generator_name                         TEXT NOT NULL,
  physical_address                       TEXT NOT NULL DEFAULT '',
  location_street_number                 TEXT NOT NULL DEFAULT '',
  location_street_1                      TEXT NOT NULL DEFAULT '',
  location_street_2                      TEXT NOT NULL DEFAULT '',
  location_city                          TEXT NOT NULL DEFAULT '',
  location_state                         TEXT NOT NULL DEFAULT '',
  location_zip                           TEXT NOT NULL DEFAULT '',
  mail_street_number                     TEXT NOT NULL DEFAULT '',
  mail_street_1                          TEXT NOT NULL DEFAULT '',
  mail_street_2                          TEXT NOT NULL DEFAULT '',
  mail_city                              TEXT NOT NULL DEFAULT '',
  mail_state                             TEXT NOT NULL DEFAULT '',
  mail_zip                               TEXT NOT NULL DEFAULT '',
  contact_name                           TEXT NOT NULL DEFAULT '',
  contact_phone_number                   TEXT NOT NULL DEFAULT '',
  contact_email                          TEXT NOT NULL DEFAULT '',
  primary_naics_code                     TEXT NOT NULL DEFAULT '',
  primary_naics_desc                     TEXT NOT NULL DEFAULT '',
  registration_status                    TEXT NOT NULL DEFAULT '',
  state_handler_id                       TEXT NOT NULL DEFAULT '',
  federal_generator_status_universe      TEXT NOT NULL DEFAULT '',
  federal_generator_status_universe_code TEXT NOT NULL DEFAULT '',
  land_type                              TEXT NOT NULL DEFAULT '',
  short_term_generator_activity          TEXT NOT NULL DEFAULT '',
  mixed_waste_generator                  TEXT NOT NULL DEFAULT '',
  transporter_activity                   TEXT NOT NULL DEFAULT '',
  transfer_facility_activity             TEXT NOT NULL DEFAULT '',
  importer_activity                      TEXT NOT NULL DEFAULT '',
  location_latitude                      TEXT NOT NULL DEFAULT '',
  location_longitude                     TEXT NOT NULL DEFAULT '',
  public_notes                           TEXT NOT NULL DEFAULT '',
  is_industry                            TEXT NOT NULL DEFAULT '',
  is_network                             INTEGER NOT NULL DEFAULT 0,
  is_tracker_enable                      INTEGER NOT NULL DEFAULT 1,
  report_year                            TEXT NOT NULL DEFAULT '',
  total_waste                            REAL NOT NULL DEFAULT 0, -- tons generated in the report year
  managed_waste                          REAL NOT NULL DEFAULT 0,
  received_waste                         REAL NOT NULL DEFAULT 0,
  -- Derived from the generator's manifests by finalize():
  shipped_tons                           REAL NOT NULL DEFAULT 0,
  shipped_count                          INTEGER NOT NULL DEFAULT 0,
  container_count                        INTEGER NOT NULL DEFAULT 0,
  mmc_count                              INTEGER NOT NULL DEFAULT 0,
  shipped_years                          TEXT NOT NULL DEFAULT '',
  federal_waste_codes                    TEXT NOT NULL DEFAULT '',
  management_method_code                 TEXT NOT NULL DEFAULT '',
  -- Where an imported generator's details come from ('handler' file, or only the 'manifest's naming it; ''
  -- for the demo) and that source's change date (server/src/import/).
  record_source                          TEXT NOT NULL DEFAULT '',
  source_updated                         TEXT NOT NULL DEFAULT ''
);

CREATE TABLE IF NOT EXISTS generator_naics (
  generator_id INTEGER NOT NULL REFERENCES generators(id),
  naics_code   TEXT NOT NULL,
  naics_desc   TEXT NOT NULL,
  is_active    TEXT NOT NULL CHECK (is_active IN ('Y', 'N')),
  PRIMARY KEY (generator_id, naics_code)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS generator_sic (
  generator_id INTEGER NOT NULL REFERENCES generators(id),
  sic_code     INTEGER NOT NULL,
  sic_desc     TEXT NOT NULL,
  PRIMARY KEY (generator_id, sic_code)
) WITHOUT ROWID;

-- Per-generator sets of what its manifests hold, built by finalize() so that the generator filters over
-- shipments (shippedYears, wasteCodes, handlingCodes) never scan waste lines per request.
CREATE TABLE IF NOT EXISTS generator_shipped_years (
  year         TEXT NOT NULL,
  generator_id INTEGER NOT NULL,
  PRIMARY KEY (year, generator_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS generator_waste_codes (
  code         TEXT NOT NULL,
  generator_id INTEGER NOT NULL,
  PRIMARY KEY (code, generator_id)
) WITHOUT ROWID;
-- Both statuses of each generator (registration and federal generator status), so that the statuses filter is one
-- set lookup rather than an OR across two columns.
CREATE TABLE IF NOT EXISTS generator_statuses (
  status       TEXT NOT NULL,
  generator_id INTEGER NOT NULL,
  PRIMARY KEY (status, generator_id)
) WITHOUT ROWID;
-- How many of each generator's waste lines carry each management method code: its primary method is the
-- commonest, and an import moves these counts by what it adds rather than counting every line again.
CREATE TABLE IF NOT EXISTS generator_method_lines (
  generator_id INTEGER NOT NULL,
  code         TEXT NOT NULL,
  lines        INTEGER NOT NULL,
  PRIMARY KEY (generator_id, code)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS generator_handling_codes (
  code         TEXT NOT NULL,
  generator_id INTEGER NOT NULL,
  PRIMARY KEY (code, generator_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS manifests (
  id                        INTEGER PRIMARY KEY,
  manifest_tracking_number  TEXT NOT NULL UNIQUE,
  generator_id              INTEGER NOT NULL REFERENCES generators(id),
  generator_name            TEXT NOT NULL,  -- copied from the generator: rows are read without a join
  generator_epa_id          TEXT NOT NULL,
  generator_location_state  TEXT NOT NULL,
  transporter               TEXT NOT NULL,
  designated_facility_name  TEXT NOT NULL,
  shipped_date              TEXT NOT NULL,  -- YYYY-MM-DD
  received_date             TEXT NOT NULL,  -- YYYY-MM-DD
  total_waste_quantity_tons REAL NOT NULL,
  container_count           INTEGER NOT NULL,
  waste_stream_count        INTEGER NOT NULL,
  -- Imported manifests (server/src/import/): the source's UPDATED DATE, its facility id, its own total tons
  -- (NULL: the sum of its lines) and the import run that last wrote it.
  updated_date              TEXT NOT NULL DEFAULT '',
  designated_facility_epa_id TEXT NOT NULL DEFAULT '',
  source_total_tons         REAL,
  import_run                INTEGER NOT NULL DEFAULT 0
);

-- An imported manifest's transporters in order (EM_TRANSPORTER, e-Manifest JSON): the first is the manifest's
-- transporter and its EPA id each waste line's.
CREATE TABLE IF NOT EXISTS manifest_transporters (
  manifest_id       INTEGER NOT NULL,
  transporter_order INTEGER NOT NULL,
  epa_id            TEXT NOT NULL,
  name              TEXT NOT NULL,
  PRIMARY KEY (manifest_id, transporter_order)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS waste_lines (
  manifest_id            INTEGER NOT NULL REFERENCES manifests(id),
  waste_line_number      INTEGER NOT NULL,
  usdot_haz_indicator    TEXT NOT NULL,
  usdot_id_number        TEXT NOT NULL,
  usdot_desc             TEXT NOT NULL,
  container_count        INTEGER NOT NULL,
  container_type_code    TEXT NOT NULL,
  epa_waste_indicator    TEXT NOT NULL,
  waste_quantity_tons    REAL NOT NULL,
  transporter            TEXT NOT NULL,
  federal_waste_codes    TEXT NOT NULL,  -- comma-separated
  management_method_code TEXT NOT NULL,
  mmc_and_desc           TEXT NOT NULL,
  PRIMARY KEY (manifest_id, waste_line_number)
) WITHOUT ROWID;

-- Per-manifest sets of what its waste lines carry (DOT ids, container types, handling codes), one row per
-- distinct value, built by finalize(). Keyed so that one value's manifests are read in the default order
-- (shipped date, ties on the tracking number) straight from the key, and carrying the manifest's totals so
-- the boxes for one value are summed without reading the manifests table. Members: 'dot', 'container',
-- 'handling'.
CREATE TABLE IF NOT EXISTS manifest_line_sets (
  member                   TEXT NOT NULL,
  code                     TEXT NOT NULL,
  shipped_date             TEXT NOT NULL,
  manifest_tracking_number TEXT NOT NULL,
  manifest_id              INTEGER NOT NULL,
  tons                     REAL NOT NULL,
  containers               INTEGER NOT NULL,
  streams                  INTEGER NOT NULL,
  PRIMARY KEY (member, code, shipped_date, manifest_tracking_number)
) WITHOUT ROWID;

-- Each manifest_line_sets value's totals over all its manifests: the boxes and the count for one picked
-- value without a date range, without summing hundreds of thousands of rows per request.
CREATE TABLE IF NOT EXISTS manifest_line_set_totals (
  member     TEXT NOT NULL,
  code       TEXT NOT NULL,
  manifests  INTEGER NOT NULL,
  tons       REAL NOT NULL,
  containers INTEGER NOT NULL,
  streams    INTEGER NOT NULL,
  PRIMARY KEY (member, code)
) WITHOUT ROWID;

-- Each manifest's waste lines as the JSON the wire sends, built by finalize() (db/waste-lines-json.ts); a
-- manifest with no lines has no row.
CREATE TABLE IF NOT EXISTS manifest_waste_lines_json (
  manifest_id INTEGER PRIMARY KEY,
  json        TEXT NOT NULL
);

-- The importer's runs (server/src/import/): each file's progress and counts, written with the rows so a
-- stopped import resumes; every rejected row; rows waiting for their manifest, handler or waste line; and
-- the manifests of a run that were older than stored, whose other rows that run skips too.
CREATE TABLE IF NOT EXISTS import_runs (
  id          INTEGER PRIMARY KEY,
  files       TEXT NOT NULL,  -- JSON list of the file keys, in reading order
  mode        TEXT NOT NULL,  -- 'bulk' (into an empty database, indexes after) or 'incremental'
  state       TEXT NOT NULL,  -- 'running' or 'done'
  started_at  TEXT NOT NULL,
  finished_at TEXT
);
CREATE TABLE IF NOT EXISTS import_files (
  run_id    INTEGER NOT NULL,
  file_key  TEXT NOT NULL,
  path      TEXT NOT NULL,
  rows_done INTEGER NOT NULL DEFAULT 0,
  done      INTEGER NOT NULL DEFAULT 0,
  read      INTEGER NOT NULL DEFAULT 0,
  stored    INTEGER NOT NULL DEFAULT 0,
  updated   INTEGER NOT NULL DEFAULT 0,
  unchanged INTEGER NOT NULL DEFAULT 0,
  skipped   INTEGER NOT NULL DEFAULT 0,
  rejected  INTEGER NOT NULL DEFAULT 0,
  pending   INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, file_key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS import_rejections (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL,
  file        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  column_name TEXT NOT NULL,
  reason      TEXT NOT NULL,
  raw         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS import_rejections_run ON import_rejections (run_id, id);
CREATE TABLE IF NOT EXISTS import_pending (
  id       INTEGER PRIMARY KEY,
  run_id   INTEGER NOT NULL,
  file_key TEXT NOT NULL,
  wait_key TEXT NOT NULL,  -- the tracking number or EPA handler id it waits for
  kind     TEXT NOT NULL,
  record   TEXT NOT NULL,  -- the record as JSON
  file     TEXT NOT NULL,
  line     INTEGER NOT NULL,
  raw      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS import_pending_wait ON import_pending (wait_key);
CREATE TABLE IF NOT EXISTS import_stale (
  run_id          INTEGER NOT NULL,
  tracking_number TEXT NOT NULL,
  PRIMARY KEY (run_id, tracking_number)
) WITHOUT ROWID;

-- Whole-dataset counts, totals and receipt lag (db/tallies.ts), current with every commit.
CREATE TABLE IF NOT EXISTS data_tallies (
  name  TEXT PRIMARY KEY,
  value REAL NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS users (
  id            INTEGER PRIMARY KEY,
  username      TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,  -- scrypt$N$r$p$salt$hash
  scopes        TEXT NOT NULL,  -- comma-separated: generators,manifests
  created_at    TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS tokens (
  token_hash TEXT PRIMARY KEY,  -- sha256 of the bearer token; the token itself is never stored
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,  -- epoch ms
  revoked    INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
`;

/** Creates every table (idempotent). */
export function createTables(db: Database): void {
  db.exec(TABLES_SQL);
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(
    'schema_version',
    String(SCHEMA_VERSION),
  );
}
