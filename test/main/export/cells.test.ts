import { describe, expect, it } from 'vitest';
import { calendarDate } from '../../../main/src/export/cells.ts';

describe('a calendar date as a cell', () => {
  it.each([
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    [' 2024-03-01 ', Date.UTC(2024, 2, 1)],
    ['1999-12-31', Date.UTC(1999, 11, 31)],
  ])('reads %j as that UTC midnight', (text, time) => {
    expect(calendarDate(text)?.getTime()).toBe(time);
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '2024-13-01',
    '2024-3-01',
    '2024/03/01',
    '2024-03-01T00:00',
    'abcd-ef-gh',
    '0050-01-01',
    '',
  ])('keeps %j as text', (text) => {
    expect(calendarDate(text)).toBeUndefined();
  });
});
