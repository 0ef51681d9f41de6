import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  GENERATOR_FIELDS,
  GeneratorRecord,
  MANIFEST_FIELDS,
  ManifestRecord,
  WASTE_LINE_FIELDS,
  WasteLine,
} from '../../shared/api/index.ts';
import {
  GENERATOR_COLUMNS,
  MANIFEST_COLUMNS,
  WASTE_LINE_COLUMNS,
  defaultFields,
  isNumeric,
  type Column,
} from '../../shared/columns.ts';

/** The fields a record schema reads as numbers: the tolerant number reader accepts a number, text does not. */
function numericFields(shape: Record<string, z.ZodType>): string[] {
  return Object.entries(shape)
    .filter(([, schema]) => schema.safeParse(1).success && !schema.safeParse('x').success)
    .map(([field]) => field);
}

const lists: [string, readonly Column<string>[], readonly string[], Record<string, z.ZodType>][] = [
  ['generators', GENERATOR_COLUMNS, GENERATOR_FIELDS, GeneratorRecord.shape],
  [
    'manifests',
    MANIFEST_COLUMNS,
    MANIFEST_FIELDS.filter((field) => field !== 'waste_lines'),
    ManifestRecord.shape,
  ],
  ['waste lines', WASTE_LINE_COLUMNS, WASTE_LINE_FIELDS, WasteLine.shape],
];

describe.each(lists)('the %s catalogue', (_, columns, fields, shape) => {
  it('has one column for every field of the spec, and no other', () => {
    expect(columns.map((column) => column.field).toSorted()).toEqual([...fields].toSorted());
  });

  it('calls numeric exactly the fields the API sends as numbers', () => {
    const numeric = columns.filter((column) => isNumeric(column.kind)).map((column) => column.field);
    expect(numeric.toSorted()).toEqual(numericFields(shape).toSorted());
  });

  it('gives every column a distinct header', () => {
    const headers = columns.map((column) => column.header);
    expect(new Set(headers).size).toBe(headers.length);
  });

  it('puts the unit of a measured number in its header', () => {
    for (const column of columns) {
      if (column.kind.type === 'number') expect(column.header).toContain(`(${column.kind.unit})`);
    }
  });
});

describe('catalogue kinds', () => {
  it.each([
    [MANIFEST_COLUMNS, 'shipped_date', 'date'],
    [MANIFEST_COLUMNS, 'received_date', 'date'],
    [MANIFEST_COLUMNS, 'total_waste_quantity_tons', 'number'],
    [MANIFEST_COLUMNS, 'container_count', 'count'],
    [GENERATOR_COLUMNS, 'total_waste', 'number'],
    [WASTE_LINE_COLUMNS, 'usdot_haz_indicator', 'flag'],
    [WASTE_LINE_COLUMNS, 'epa_waste_indicator', 'flag'],
    [WASTE_LINE_COLUMNS, 'federal_waste_codes', 'codes'],
    [WASTE_LINE_COLUMNS, 'waste_quantity_tons', 'number'],
  ] as const)('%#: %s is %s', (columns: readonly Column<string>[], field, type) => {
    expect(columns.find((column) => column.field === field)?.kind.type).toBe(type);
  });

  it('shows the identity of each row by default', () => {
    expect(defaultFields(GENERATOR_COLUMNS)).toContain('epa_handler_id');
    expect(defaultFields(MANIFEST_COLUMNS)).toContain('manifest_tracking_number');
  });
});
