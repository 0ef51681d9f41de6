/**
 * Helpers of the import tests: a database's content as comparable text, read by key (tracking number,
 * EPA handler id) rather than by row id so that two databases built in different ways compare; and the
 * FTS5 integrity check, which fails when a search index entry differs from its row.
 */
import type { Database } from 'better-sqlite3';
import { expect } from 'vitest';
import { lookupLists } from '../../../server/src/db/lookup-lists.ts';
import { lookupSearchTable } from '../../../server/src/db/lookup-index.ts';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;

function columnsOf(db: Database, table: string, leaveOut: readonly string[]): string[] {
  return (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).filter(
    (column) => !leaveOut.includes(column),
  );
}

/** Every served table's rows by key, with the lookup lists in lookup order. */
export function contentOf(db: Database): Record<string, unknown[]> {
  const rows = (sql: string) => db.prepare(sql).raw().all();
  const generatorColumns = columnsOf(db, 'generators', ['id']);
  const manifestColumns = columnsOf(db, 'manifests', ['id', 'generator_id', 'import_run']);
  const lineColumns = columnsOf(db, 'waste_lines', ['manifest_id']);
  const byGenerator = (table: string, column: string) =>
    rows(
      `SELECT g.epa_handler_id, s.${column} FROM ${table} s JOIN generators g ON g.id = s.generator_id ORDER BY 1, 2`,
    );
  const content: Record<string, unknown[]> = {
    generators: rows(`SELECT ${generatorColumns.join(', ')} FROM generators ORDER BY epa_handler_id`),
    naics: rows(
      `SELECT g.epa_handler_id, n.naics_code, n.naics_desc, n.is_active FROM generator_naics n
       JOIN generators g ON g.id = n.generator_id ORDER BY 1, 2`,
    ),
    shippedYears: byGenerator('generator_shipped_years', 'year'),
    wasteCodes: byGenerator('generator_waste_codes', 'code'),
    handlingCodes: byGenerator('generator_handling_codes', 'code'),
    statuses: byGenerator('generator_statuses', 'status'),
    manifests: rows(
      `SELECT ${manifestColumns.map((column) => `m.${column}`).join(', ')}, g.epa_handler_id
       FROM manifests m JOIN generators g ON g.id = m.generator_id ORDER BY m.manifest_tracking_number`,
    ),
    wasteLines: rows(
      `SELECT m.manifest_tracking_number, ${lineColumns.map((column) => `w.${column}`).join(', ')}
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id ORDER BY 1, w.waste_line_number`,
    ),
    transporters: rows(
      `SELECT m.manifest_tracking_number, t.transporter_order, t.epa_id, t.name FROM manifest_transporters t
       JOIN manifests m ON m.id = t.manifest_id ORDER BY 1, 2`,
    ),
    lineSets: rows(
      `SELECT member, code, shipped_date, manifest_tracking_number, tons, containers, streams
       FROM manifest_line_sets ORDER BY 1, 2, 3, 4`,
    ),
    lineSetTotals: rows('SELECT * FROM manifest_line_set_totals ORDER BY 1, 2'),
    wasteLinesJson: rows(
      `SELECT m.manifest_tracking_number, j.json FROM manifest_waste_lines_json j
       JOIN manifests m ON m.id = j.manifest_id ORDER BY 1`,
    ),
  };
  for (const [name] of lookupLists()) {
    content[name] = rows(`SELECT value, text FROM ${lookupSearchTable(name)} ORDER BY rowid`);
  }
  return content;
}

/** FTS5's own check that each search index holds exactly its table's rows. */
export function expectSearchIndexesIntact(db: Database): void {
  for (const table of ['manifests_search', 'generators_search']) {
    expect(() => db.exec(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`), table).not.toThrow();
  }
}
