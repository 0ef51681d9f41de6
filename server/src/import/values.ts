/**
 * Reading one EPA value: dates in the forms EPA's exports and the e-Manifest API write, numbers, and Y/N
 * flags. Each reader returns a typed value or an error message naming what it found, which becomes the
 * rejected row's reason.
 */

/** emanifest.json `ManifestTrackingNumber`: 9 digits then 3 upper-case letters. */
export const TRACKING_NUMBER = /^[0-9]{9}[A-Z]{3}$/;

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

const MONTHS: Record<string, number> = {
  JAN: 1,
  FEB: 2,
  MAR: 3,
  APR: 4,
  MAY: 5,
  JUN: 6,
  JUL: 7,
  AUG: 8,
  SEP: 9,
  OCT: 10,
  NOV: 11,
  DEC: 12,
};

function calendarDate(year: number, month: number, day: number): string | undefined {
  if (month < 1 || month > 12 || day < 1 || year < 1900 || year > 2199) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: [\d:.]+(?: ?[AP]M)?)?$/i;
const ORACLE = /^(\d{1,2})-([A-Z]{3})-(\d{2}|\d{4})(?: [\d:.]+(?: ?[AP]M)?)?$/i;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * Dates read, by their text: a file's dates repeat (a few thousand days over millions of rows), and a date
 * read once is a Map hit after, where each read cost regular expressions and a Date (bench:import's
 * profile). Bounded: emptied when full.
 */
const datesRead = new Map<string, Read<string>>();
const DATES_KEPT = 20_000;

/**
 * A date as YYYY-MM-DD: `2024-09-16` (with or without a time, as e-Manifest JSON writes it), `9/16/2024`,
 * `16-SEP-24` (two-digit years are 20yy) or `20240916`. The date part is taken as written, never shifted
 * by a time zone. Empty text is '' (no date).
 */
export function readDate(text: string): Read<string> {
  let read = datesRead.get(text);
  if (read === undefined) {
    if (datesRead.size >= DATES_KEPT) datesRead.clear();
    read = parseDate(text);
    datesRead.set(text, read);
  }
  return read;
}

function parseDate(text: string): Read<string> {
  const value = text.trim();
  if (value === '') return { ok: true, value: '' };
  let date: string | undefined;
  let match = ISO.exec(value);
  if (match) date = calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
  else if ((match = US.exec(value)))
    date = calendarDate(Number(match[3]), Number(match[1]), Number(match[2]));
  else if ((match = ORACLE.exec(value))) {
    const year = (match[3] ?? '').length === 2 ? 2000 + Number(match[3]) : Number(match[3]);
    date = calendarDate(year, MONTHS[(match[2] ?? '').toUpperCase()] ?? 0, Number(match[1]));
  } else if ((match = COMPACT.exec(value))) {
    date = calendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
  }
  return date === undefined ? { ok: false, message: `not a date: "${value}"` } : { ok: true, value: date };
}

/**
 * A time of day after a date, as EPA's exports and the e-Manifest API write it: `15:03:27.857+0000`,
 * `15:03:27.0`, `3:03:27 PM` (Excel), `03.15.22.000000 PM` (Oracle), with or without seconds and a zone.
 */
const TIME =
  /^(\d{1,2})[:.](\d{2})(?:[:.](\d{2})(?:\.(\d{1,9}))?)?(?: ?([AP]M))?(?: ?(Z|([+-])(\d{2}):?(\d{2})))?$/i;

/**
 * When a row was last changed, as text that sorts as the changes happened: `YYYY-MM-DD` when the source
 * gives a date alone, else `YYYY-MM-DDTHH:MM:SS.sssZ` (a zone given applied, none taken as UTC), so that two
 * versions of one manifest changed on the same day are told apart (e-Manifest's updatedDate carries its
 * time, and a manifest changes several times a day as each party signs). A date alone sorts before every
 * time of its day.
 */
export function readTimestamp(text: string): Read<string> {
  const value = text.trim();
  const split = /^(\d{4}-\d{1,2}-\d{1,2})T(.+)$/.exec(value) ?? /^(\S+) (.+)$/.exec(value);
  if (!split) return readDate(value);
  const [, datePart = '', timePart = ''] = split;
  const date = readDate(datePart);
  const time = TIME.exec(timePart);
  const refused: Read<string> = { ok: false, message: `not a date: "${value}"` };
  if (!date.ok || date.value === '' || !time) return refused;
  const [, h = '0', m = '0', sec = '0', fraction = '', half, , sign, zoneH = '0', zoneM = '0'] = time;
  let hours = Number(h);
  if (half !== undefined) {
    if (hours < 1 || hours > 12) return refused;
    hours = (hours % 12) + (half.toUpperCase() === 'PM' ? 12 : 0);
  }
  const minutes = Number(m);
  const seconds = Number(sec);
  if (hours > 23 || minutes > 59 || seconds > 59) return refused;
  const [year, month, day] = date.value.split('-').map(Number) as [number, number, number];
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zoneH) * 60 + Number(zoneM));
  const utc =
    Date.UTC(year, month - 1, day, hours, minutes, seconds, Number(fraction.padEnd(3, '0').slice(0, 3))) -
    offset * 60_000;
  return { ok: true, value: new Date(utc).toISOString() };
}

const NUMBER = /^[+-]?(?:\d+|\d{1,3}(?:,\d{3})+)?(?:\.\d*)?(?:[eE][+-]?\d+)?$/;

/**
 * The largest number read: far past any manifest's (EPA's schema caps a quantity at 99,999,999,999), and
 * small enough that totals of millions stay finite and keep their decimals. Past it, two values of 1e308
 * add up to Infinity, which JSON writes as null and the app refuses.
 */
const AMOUNT_MAX = 1e12;

/** A decimal number (grouping commas allowed); empty text is undefined (no value). */
export function readNumber(text: string): Read<number | undefined> {
  const value = text.trim();
  if (value === '') return { ok: true, value: undefined };
  if (!NUMBER.test(value) || value === '.' || value === '+' || value === '-') {
    return { ok: false, message: `not a number: "${value}"` };
  }
  const number = Number(value.replaceAll(',', ''));
  if (!Number.isFinite(number)) return { ok: false, message: `not a number: "${value}"` };
  if (Math.abs(number) > AMOUNT_MAX) {
    return { ok: false, message: `too large for an amount (at most 1,000,000,000,000): "${value}"` };
  }
  return { ok: true, value: number };
}

/** The largest count both databases store (PostgreSQL's integer); past it PostgreSQL refused the batch. */
const COUNT_MAX = 2_147_483_647;

/** A whole number from 0 to COUNT_MAX; empty text is undefined. */
export function readCount(text: string): Read<number | undefined> {
  const number = readNumber(text);
  if (!number.ok || number.value === undefined) return number;
  if (!Number.isInteger(number.value) || number.value < 0) {
    return { ok: false, message: `not a whole number: "${text.trim()}"` };
  }
  if (number.value > COUNT_MAX) {
    return { ok: false, message: `too large for a count (at most 2,147,483,647): "${text.trim()}"` };
  }
  return number;
}

/** The most containers a waste line holds: EPA's manifest schema (emanifest.json, Quantity.containerNumber). */
export const MAX_CONTAINERS = 99_999;

/** A waste line's number of containers: a whole number from 0 to MAX_CONTAINERS. */
export function readContainers(text: string): Read<number | undefined> {
  const count = readCount(text);
  if (!count.ok || count.value === undefined || count.value <= MAX_CONTAINERS) return count;
  return { ok: false, message: `more containers than a waste line holds (0 to 99,999): "${text.trim()}"` };
}

const YES = new Set(['Y', 'YES', 'T', 'TRUE', '1']);
const NO = new Set(['N', 'NO', 'F', 'FALSE', '0']);

/** A flag as the tracker writes it: 'Y', 'N', or '' when the source leaves it empty or unreadable. */
export function flag(text: string | boolean | undefined): string {
  if (typeof text === 'boolean') return text ? 'Y' : 'N';
  const value = (text ?? '').trim().toUpperCase();
  if (YES.has(value)) return 'Y';
  if (NO.has(value)) return 'N';
  return '';
}

/** Waste codes from a list cell: EPA separates them by commas, spaces or semicolons; duplicates dropped. */
export function splitWasteCodes(text: string): string[] {
  const codes = text
    .split(/[\s,;|]+/)
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code !== '');
  return [...new Set(codes)];
}
