/**
 * The reference code lists the product ships with (server/data/reference/, see its README): waste codes,
 * management methods, NAICS codes, container types, DOT identification numbers and generator statuses.
 * Read from files beside the code, never from anywhere else, so a packaged server carries its own facts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Database } from 'better-sqlite3';

export const REFERENCE_DIR = resolve(import.meta.dirname, '../../data/reference');

export interface WasteCode {
  code: string;
  list: string;
  description: string;
}
export interface ManagementMethod {
  code: string;
  group: string;
  description: string;
  /** RCRAInfo's upper-case short text; empty where none was seen. */
  shortDescription: string;
}
export interface CodeDescription {
  code: string;
  description: string;
}
export interface DotEntry {
  idNumber: string;
  shippingName: string;
}
export interface GeneratorStatus {
  field: string;
  code: string;
  label: string;
  description: string;
}

export interface ReferenceData {
  wasteCodes: WasteCode[];
  managementMethods: ManagementMethod[];
  naicsCodes: CodeDescription[];
  containerTypes: CodeDescription[];
  dotEntries: DotEntry[];
  generatorStatuses: GeneratorStatus[];
}

export class ReferenceError extends Error {}

/** RFC 4180 records: quoted fields may hold commas, line breaks and doubled quotes. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += char;
  }
  if (quoted) throw new ReferenceError('unterminated quoted field');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records.filter((fields) => fields.length > 1 || fields[0] !== '');
}

/** The rows of one CSV file as objects keyed by its header, refusing a file that lacks a needed column. */
export function readTable<Column extends string>(
  dir: string,
  file: string,
  columns: readonly Column[],
): Record<Column, string>[] {
  const path = join(dir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ReferenceError(
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new ReferenceError(`${path} is empty`);
  const positions = columns.map((column) => {
    const position = header.indexOf(column);
    if (position < 0) throw new ReferenceError(`${path} has no column "${column}"`);
    return position;
  });
  return rows.map((row, rowIndex) => {
    if (row.length !== header.length) {
      throw new ReferenceError(
        `${path} row ${rowIndex + 2} has ${row.length} fields, expected ${header.length}`,
      );
    }
    const entry = {} as Record<Column, string>;
    columns.forEach((column, columnIndex) => {
      entry[column] = (row[positions[columnIndex] ?? 0] ?? '').trim();
    });
    return entry;
  });
}

export function loadReference(dir: string = REFERENCE_DIR): ReferenceData {
  const seenDot = new Set<string>();
  return {
    wasteCodes: readTable(dir, 'federal_waste_codes.csv', ['code', 'list', 'description'] as const),
    managementMethods: readTable(dir, 'management_method_codes.csv', [
      'code',
      'group',
      'description',
      'rcrainfo_short_description',
    ] as const).map((row) => ({
      code: row.code,
      group: row.group,
      description: row.description,
      shortDescription: row.rcrainfo_short_description,
    })),
    naicsCodes: readTable(dir, 'naics_common_hw_generators.csv', ['naics_code', 'title'] as const).map(
      (row) => ({ code: row.naics_code, description: row.title }),
    ),
    containerTypes: readTable(dir, 'container_types.csv', ['code', 'description'] as const),
    // The list repeats a few (id, name) pairs; one of each is enough.
    dotEntries: readTable(dir, 'dot_ids_common_on_manifests.csv', [
      'id_number',
      'proper_shipping_name',
    ] as const)
      .map((row) => ({ idNumber: row.id_number, shippingName: row.proper_shipping_name }))
      .filter((entry) => {
        const key = `${entry.idNumber}|${entry.shippingName}`;
        if (seenDot.has(key)) return false;
        seenDot.add(key);
        return true;
      }),
    generatorStatuses: readTable(dir, 'federal_generator_status.csv', [
      'field',
      'code',
      'label',
      'description',
    ] as const),
  };
}

/** Fills the reference tables of the schema (replacing what they held). */
/** Each code-list table of a tracker database with the rows it holds: written by both backends. */
export function referenceTables(
  reference: ReferenceData = loadReference(),
): [table: string, rows: readonly CodeDescription[]][] {
  return [
    ['waste_codes', reference.wasteCodes],
    ['management_methods', reference.managementMethods],
    ['naics_codes', reference.naicsCodes],
    ['container_types', reference.containerTypes],
  ];
}

export function fillReferenceTables(db: Database, reference: ReferenceData = loadReference()): void {
  db.transaction(() => {
    for (const [table, rows] of referenceTables(reference)) {
      db.prepare(`DELETE FROM ${table}`).run();
      const insert = db.prepare(`INSERT INTO ${table} (code, description) VALUES (?, ?)`);
      for (const row of rows) insert.run(row.code, row.description);
    }
  })();
}
