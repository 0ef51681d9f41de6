/**
 * Derives, from the manifests and waste lines, what generator rows and generator filters read:
 * - the per-generator sets behind the generator filters over shipments (shippedYears, wasteCodes,
 *   handlingCodes), so a request looks up a set instead of scanning waste lines;
 * - each generator's shipment totals, shipped years, waste codes and primary management method;
 * - the per-manifest sets behind the manifest filters over waste lines (dot_id_nos, container_types,
 *   handling_codes).
 * Set-based SQL in one transaction: 43–48 s of the build for a million manifests (2.5M waste lines), 2 cores.
 */
import type { Database } from 'better-sqlite3';
import { GENERATOR_FROM_MANIFESTS, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import {
  GENERATOR_QUANTITY_COLUMNS,
  LINE_SET_QUANTITY_COLUMNS,
  LINE_SET_TOTAL_COLUMNS,
  lineSetRows,
} from './fact-storage.ts';
import { totalsSql } from './sqlite-query.ts';

/** Each generator quantity (GENERATOR_FROM_MANIFESTS) as SQL over its manifests' rows. */
const FROM_MANIFESTS = totalsSql(GENERATOR_FROM_MANIFESTS, (quantity) => quantity);

const DERIVE_SQL = `
DELETE FROM generator_shipped_years;
DELETE FROM generator_waste_codes;
DELETE FROM generator_handling_codes;
DELETE FROM generator_statuses;

INSERT OR IGNORE INTO generator_statuses (status, generator_id)
SELECT registration_status, id FROM generators WHERE registration_status <> ''
UNION ALL
SELECT federal_generator_status_universe, id FROM generators WHERE federal_generator_status_universe <> '';

INSERT INTO generator_shipped_years (year, generator_id)
SELECT DISTINCT substr(shipped_date, 1, 4), generator_id FROM manifests;

DELETE FROM generator_method_lines;
INSERT INTO generator_method_lines (generator_id, code, lines)
SELECT m.generator_id, w.management_method_code, count(*)
FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id
WHERE w.management_method_code <> ''
GROUP BY 1, 2;

-- A generator's handling codes are the codes of its method lines: read from those, not from every line again.
INSERT INTO generator_handling_codes (code, generator_id)
SELECT code, generator_id FROM generator_method_lines;

-- federal_waste_codes is a comma-separated list on each line; json_each splits it.
INSERT OR IGNORE INTO generator_waste_codes (code, generator_id)
SELECT DISTINCT trim(j.value), m.generator_id
FROM waste_lines w
JOIN manifests m ON m.id = w.manifest_id,
     json_each('["' || replace(w.federal_waste_codes, ',', '","') || '"]') j
WHERE w.federal_waste_codes <> '' AND trim(j.value) <> '';

UPDATE generators SET ${FROM_MANIFESTS.map(([quantity]) => `${GENERATOR_QUANTITY_COLUMNS[quantity]} = 0`).join(', ')},
  mmc_count = 0, shipped_years = '', federal_waste_codes = '', management_method_code = '';

UPDATE generators SET ${FROM_MANIFESTS.map(([quantity]) => `${GENERATOR_QUANTITY_COLUMNS[quantity]} = t.${quantity}`).join(', ')}
FROM (SELECT generator_id, ${FROM_MANIFESTS.map(([quantity, sql]) => `${sql} AS ${quantity}`).join(', ')}
      FROM manifests GROUP BY generator_id) t
WHERE generators.id = t.generator_id;

UPDATE generators SET shipped_years = t.years
FROM (SELECT generator_id, group_concat(year, ',') AS years
      FROM (SELECT generator_id, year FROM generator_shipped_years ORDER BY generator_id, year)
      GROUP BY generator_id) t
WHERE generators.id = t.generator_id;

UPDATE generators SET federal_waste_codes = t.codes
FROM (SELECT generator_id, group_concat(code, ',') AS codes
      FROM (SELECT generator_id, code FROM generator_waste_codes ORDER BY generator_id, code)
      GROUP BY generator_id) t
WHERE generators.id = t.generator_id;

UPDATE generators SET mmc_count = t.count
FROM (SELECT generator_id, count(*) AS count FROM generator_handling_codes GROUP BY generator_id) t
WHERE generators.id = t.generator_id;

-- The primary management method: the one on most of the generator's waste lines (ties: lowest code).
UPDATE generators SET management_method_code = t.code
FROM (
  SELECT generator_id, code FROM (
    SELECT generator_id, code,
           row_number() OVER (PARTITION BY generator_id ORDER BY lines DESC, code) AS rank
    FROM generator_method_lines
  ) WHERE rank = 1
) t
WHERE generators.id = t.generator_id;
`;

/**
 * Inserts the manifest_line_sets rows of the waste lines `lines` selects (fact-storage.ts lineSetRows), in
 * key order: the table is written page after page instead of all over. So too for a batch into a served
 * database, whose rows land all over the table's key range: inserting a 100,000-manifest append's rows into
 * the 1M bench database's line sets took 12.6 s as they came and 9.5 s in key order.
 */
export function lineSetRowsSql(lines = ''): string {
  const { columns, select } = lineSetRows(lines);
  return `INSERT OR IGNORE INTO manifest_line_sets ${columns}\n${select}\nORDER BY 1, 2, 3, 4`;
}

function manifestSetsSql(): string {
  const totals = totalsSql(MANIFEST_QUERY.totals, (quantity) => LINE_SET_QUANTITY_COLUMNS[quantity]);
  return [
    'DELETE FROM manifest_line_sets;',
    `${lineSetRowsSql()};`,
    `DELETE FROM manifest_line_set_totals;
INSERT INTO manifest_line_set_totals
  (member, code, ${totals.map(([total]) => LINE_SET_TOTAL_COLUMNS[total]).join(', ')})
SELECT member, code, ${totals.map(([, sql]) => sql).join(', ')}
FROM manifest_line_sets GROUP BY member, code;`,
  ].join('\n');
}

export function deriveSets(db: Database): void {
  db.transaction(() => {
    db.exec(DERIVE_SQL);
    db.exec(manifestSetsSql());
  })();
}
