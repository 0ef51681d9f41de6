/** The reference code lists shipped with the server, and the CSV reader behind them. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTables } from '../../../server/src/db/schema.ts';
import {
  ReferenceError,
  fillReferenceTables,
  loadReference,
  parseCsv,
} from '../../../server/src/data/reference.ts';

describe('parseCsv', () => {
  it.each([
    [
      'plain fields',
      'a,b\n1,2\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'quoted commas',
      'code,description\nBA,"Burlap, cloth, paper"\n',
      [
        ['code', 'description'],
        ['BA', 'Burlap, cloth, paper'],
      ],
    ],
    ['doubled quotes', 'x\n"say ""hi"""\n', [['x'], ['say "hi"']]],
    [
      'CRLF and no final newline',
      'a,b\r\n1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    ['a line break inside quotes', 'a\n"two\nlines"\n', [['a'], ['two\nlines']]],
    [
      'empty fields',
      'a,b,c\n,,\n',
      [
        ['a', 'b', 'c'],
        ['', '', ''],
      ],
    ],
  ])('reads %s', (_name, text, expected) => {
    expect(parseCsv(text)).toEqual(expected);
  });

  it('refuses an unterminated quoted field', () => {
    expect(() => parseCsv('a\n"open')).toThrow(ReferenceError);
  });
});

describe('the reference lists', () => {
  const reference = loadReference();

  it('hold the federal codes, methods, NAICS codes, container types and DOT ids', () => {
    expect(reference.wasteCodes).toHaveLength(167);
    expect(reference.wasteCodes.find((code) => code.code === 'D001')?.description).toBe('IGNITABLE WASTE');
    expect(reference.managementMethods.map((method) => method.code)).toContain('H141');
    expect(reference.managementMethods).toHaveLength(20);
    expect(reference.naicsCodes).toHaveLength(29);
    expect(reference.containerTypes.find((type) => type.code === 'DM')?.description).toBe(
      'Metal drums, barrels, kegs',
    );
    expect(reference.containerTypes).toHaveLength(13);
    const dotKeys = reference.dotEntries.map((entry) => `${entry.idNumber}|${entry.shippingName}`);
    expect(new Set(dotKeys).size).toBe(dotKeys.length);
    for (const entry of reference.dotEntries) expect(entry.idNumber).toMatch(/^(UN|NA|ID)\d{4}$/);
    expect(reference.generatorStatuses.some((status) => status.label === 'LQG')).toBe(true);
  });

  it('fill the reference tables of a tracker database', () => {
    const db = new Database(':memory:');
    try {
      createTables(db);
      fillReferenceTables(db, reference);
      fillReferenceTables(db, reference);
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
      expect(count('waste_codes')).toBe(167);
      expect(count('management_methods')).toBe(20);
      expect(count('naics_codes')).toBe(29);
      expect(count('container_types')).toBe(13);
    } finally {
      db.close();
    }
  });

  it('name the file and column when a list is malformed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reference-'));
    try {
      writeFileSync(join(dir, 'federal_waste_codes.csv'), 'code,description\nD001,IGNITABLE WASTE\n');
      expect(() => loadReference(dir)).toThrow(/federal_waste_codes\.csv has no column "list"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
