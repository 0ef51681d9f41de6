/**
 * What each filter box's lookup lists (docs/api.md "Lookups"): its distinct values, each with the text it
 * is shown, searched and sorted by. One definition per list, as data: the column (and table, and rows) its
 * values come from. Read by finalize, which writes every list into the lookup index (lookup-index.ts), by
 * the repositories, which hold the short lists in memory, and by the importer, which asks whether one
 * value is still in a list after its rows changed.
 */
import type { Database } from 'better-sqlite3';
import type { GeneratorLookupField, ManifestLookupField } from '../../../shared/api/index.ts';
import { lookupEntries, type LookupEntry } from '../../../shared/query/lookup.ts';

export interface LookupList {
  /** Table the values are read from. */
  from: string;
  column: string;
  /** Rows of `from` that hold the list's values, when not all of them do. */
  where?: string;
  /** A description column: the text is "value - description" (the value alone when it is empty). */
  description?: string;
}

export type LookupLoad = (db: Database) => LookupEntry[];

export const GENERATOR_LOOKUP_LISTS: Record<GeneratorLookupField, LookupList> = {
  generator_city: { from: 'generators', column: 'location_city' },
  generator_state: { from: 'generators', column: 'location_state' },
  generator_name: { from: 'generators', column: 'generator_name' },
  epa_handler_id: { from: 'generators', column: 'epa_handler_id' },
  naics: { from: 'generators', column: 'primary_naics_code', description: 'primary_naics_desc' },
  epa_waste_code: { from: 'generator_waste_codes', column: 'code' },
  mmc: { from: 'generator_handling_codes', column: 'code' },
  shipped_year: { from: 'generator_shipped_years', column: 'year' },
  status: { from: 'generator_statuses', column: 'status' },
};

export const MANIFEST_LOOKUP_LISTS: Record<ManifestLookupField, LookupList> = {
  manifest_number: { from: 'manifests', column: 'manifest_tracking_number' },
  generator_name: { from: 'manifests', column: 'generator_name' },
  transporter_name: { from: 'manifests', column: 'transporter' },
  designated_facility_name: { from: 'manifests', column: 'designated_facility_name' },
  dot_id_no: { from: 'manifest_line_sets', column: 'code', where: "member = 'dot'" },
  container_type: { from: 'manifest_line_sets', column: 'code', where: "member = 'container'" },
  handling_code: { from: 'manifest_line_sets', column: 'code', where: "member = 'handling'" },
};

const and = (list: LookupList) => (list.where ? ` AND ${list.where}` : '');

function entry(value: string, description: string | undefined): LookupEntry {
  return {
    value,
    text: description === undefined || description === '' ? value : `${value} - ${description}`,
  };
}

/** Every value of the list with its text (unsorted; shared/query/lookup.ts orders them). */
export function loadList(list: LookupList): LookupLoad {
  const where = list.where ? ` WHERE ${list.where}` : '';
  if (list.description) {
    // One text per value: the smallest description when rows disagree.
    const sql = `SELECT ${list.column}, min(${list.description}) FROM ${list.from}${where} GROUP BY 1`;
    return (db) =>
      (db.prepare(sql).raw().all() as [string, string][]).map(([value, description]) =>
        entry(value, description),
      );
  }
  const sql = `SELECT DISTINCT ${list.column} FROM ${list.from}${where}`;
  return (db) => (db.prepare(sql).pluck().all() as string[]).map((value) => entry(value, undefined));
}

/** Values read at a time by orderedEntries. */
const CHUNK = 10_000;

/**
 * Every entry of the list in lookup order, a chunk at a time: a plain list straight from SQLite in its
 * column's order (text is the value, and SQLite's BINARY order is code point order), so that writing a
 * million tracking numbers into the lookup index holds no more than a chunk of them in memory; a list with
 * descriptions (short) read whole and sorted by shared/query's rule. Chunks rather than one open cursor,
 * so that the caller may write to the same connection between them.
 */
export function* orderedEntries(db: Database, list: LookupList): Generator<LookupEntry> {
  if (list.description) {
    yield* lookupEntries(loadList(list)(db));
    return;
  }
  const where = list.where ? ` AND ${list.where}` : '';
  const next = db
    .prepare(
      `SELECT DISTINCT ${list.column} FROM ${list.from} WHERE ${list.column} > ?${where} ORDER BY 1 LIMIT ${CHUNK}`,
    )
    .pluck();
  let after = '';
  for (;;) {
    const values = next.all(after) as string[];
    for (const value of values) yield { value, text: value };
    const last = values.at(-1);
    if (last === undefined || values.length < CHUNK) return;
    after = last;
  }
}

/** The SQL giving one value's entry (its text) when the list holds it, no row otherwise; binds the value. */
export function entrySql(list: LookupList): string {
  return list.description
    ? `SELECT ${list.column}, min(${list.description}) FROM ${list.from}
       WHERE ${list.column} = ?${and(list)} GROUP BY 1`
    : `SELECT ${list.column}, NULL FROM ${list.from} WHERE ${list.column} = ?${and(list)} LIMIT 1`;
}

/** The entry the row from entrySql stands for. */
export function entryOf(row: [string, string | null]): LookupEntry {
  return entry(row[0], row[1] ?? undefined);
}

/** Every list under its name in the lookup index: "<table>.<field>". */
export function lookupLists(): [string, LookupList][] {
  return [
    ...Object.entries(GENERATOR_LOOKUP_LISTS).map(([field, list]): [string, LookupList] => [
      `generators.${field}`,
      list,
    ]),
    ...Object.entries(MANIFEST_LOOKUP_LISTS).map(([field, list]): [string, LookupList] => [
      `manifests.${field}`,
      list,
    ]),
  ];
}
