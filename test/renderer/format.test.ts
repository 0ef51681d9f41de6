import { describe, expect, it } from 'vitest';
import { formatCount, formatTons } from '../../renderer/src/format.ts';

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
