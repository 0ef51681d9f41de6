import { describe, expect, it } from 'vitest';
import { GENERATOR_COLUMNS, type ColumnKind } from '../../shared/columns.ts';
import {
  formatCount,
  formatPicked,
  formatTimestamp,
  formatTons,
  formatValue,
} from '../../renderer/src/base/format.ts';

describe('number formatting', () => {
  it('shows tons with two decimals and thousands separators', () => {
    expect(formatTons(1234567.891)).toBe('1,234,567.89');
    expect(formatTons(0)).toBe('0.00');
  });
  it('shows counts without decimals', () => {
    expect(formatCount(12345)).toBe('12,345');
  });
  it('shows a dash for missing values', () => {
    expect(formatCount(undefined)).toBe('—');
    expect(formatTons(Number.NaN)).toBe('—');
  });
});

describe('catalogue values', () => {
  it.each([
    [{ type: 'number', decimals: 2, unit: 'tons' }, 1234.5, '1,234.50'],
    [{ type: 'number', decimals: 3, unit: 'tons' }, 0.1, '0.100'],
    [{ type: 'number', decimals: 2, unit: 'tons' }, 0, '0.00'],
    [{ type: 'number', decimals: 2, unit: 'tons', reported: true }, 0, ''],
    [{ type: 'number', decimals: 2, unit: 'tons', reported: true }, 0.004, '0.00'],
    [{ type: 'number', decimals: 2, unit: 'tons', reported: true }, 12.5, '12.50'],
    [{ type: 'count' }, 12345, '12,345'],
    [{ type: 'count' }, undefined, ''],
    [{ type: 'flag' }, 'y', 'Yes'],
    [{ type: 'flag' }, 'N ', 'No'],
    [{ type: 'flag' }, 'U', 'U'],
    [{ type: 'codes' }, 'D001,F003,,D018', 'D001, F003, D018'],
    [{ type: 'date' }, '2024-02-29', '2024-02-29'],
    [{ type: 'text' }, '  Acme  ', 'Acme'],
  ] as const)('%o shows %o as %o', (kind: ColumnKind, value, shown) => {
    expect(formatValue(kind, value)).toBe(shown);
  });
});

describe("the generators grid's total waste", () => {
  it("is a report's amount: a generator with no report (0 tons generated) shows an empty cell", () => {
    const total = GENERATOR_COLUMNS.find((column) => column.field === 'total_waste');
    expect(total && formatValue(total.kind, 0)).toBe('');
    expect(total && formatValue(total.kind, 1234.5)).toBe('1,234.50');
  });
});

describe('picked lookup values', () => {
  it.each([
    ['325110', '325110 - Petrochemical Manufacturing', '325110 – Petrochemical Manufacturing'],
    ['325110', '325110 – Petrochemical Manufacturing', '325110 – Petrochemical Manufacturing'],
    ['325110', ' 325110 -  Petrochemical Manufacturing ', '325110 – Petrochemical Manufacturing'],
    ['D001-A', 'D001-A - Ignitable waste', 'D001-A – Ignitable waste'],
    ['H141', 'Storage, transfer', 'H141 – Storage, transfer'],
    ['325110', '325110', '325110'],
    ['325110', '325110 - ', '325110'],
    ['325110', '', '325110'],
    ['TX', undefined, 'TX'],
  ])('%j with the text %j reads %j', (value, text, shown) => {
    expect(formatPicked(value, text)).toBe(shown);
  });
});

describe('moments', () => {
  it('are written YYYY-MM-DD HH:MM in local time, as every date in the app is', () => {
    expect(formatTimestamp(new Date(2026, 10, 3, 9, 5).getTime())).toBe('2026-11-03 09:05');
    expect(formatTimestamp(new Date(2027, 0, 1, 23, 59, 59).getTime())).toBe('2027-01-01 23:59');
  });
});
