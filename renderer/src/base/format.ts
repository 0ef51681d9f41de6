/**
 * How values read on screen: numbers in en-US with fixed decimals, the spec's Y/N flags as Yes/No, code
 * lists with a space after each comma. A missing value is an em dash wherever a blank would look like zero.
 */
import { flagAnswer, isUnreported, type ColumnKind } from '../../../shared/columns.ts';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const byDecimals = new Map<number, Intl.NumberFormat>();

function decimalFormat(decimals: number): Intl.NumberFormat {
  let format = byDecimals.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    byDecimals.set(decimals, format);
  }
  return format;
}

/** Counts: thousands separators, no decimals. */
export function formatCount(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : integer.format(value);
}

/** Tons: always two decimals so columns of figures line up. */
export function formatTons(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : decimalFormat(2).format(value);
}

/** A flag (spec 2.3, 2.6: "Y"/"N", sometimes spelled out) as Yes/No; anything else as sent. */
export function formatFlag(flag: string): string {
  return flagAnswer(flag) ?? flag.trim();
}

/** The wire joins codes with bare commas; a space after each lets a long list wrap. */
export function formatCodes(codes: string): string {
  return codes
    .split(',')
    .map((code) => code.trim())
    .filter((code) => code !== '')
    .join(', ');
}

/**
 * A value picked from a lookup, as its filter chip shows it: "code – description" when the lookup's text
 * describes the code (NAICS sends "code - description", spec 2.7; the en dash keeps a hyphenated code
 * readable), else the value alone.
 */
export function formatPicked(value: string, text: string | undefined): string {
  const shown = text?.trim() ?? '';
  if (shown === '' || shown === value) return value;
  const description = shown.startsWith(value)
    ? shown.slice(value.length).replace(/^\s*[-–—:]\s*/, '')
    : shown;
  return description === '' ? value : `${value} – ${description}`;
}

/** A value of a catalogue column as the grid shows it; '' for a missing one. Rows hold numbers and text only. */
export function formatValue(kind: ColumnKind, value: string | number | undefined): string {
  if (value === undefined) return '';
  switch (kind.type) {
    // A number the server could only give as text ("Not Available") is shown as it was sent.
    case 'number':
      if (typeof value === 'string') return value.trim();
      if (isUnreported(kind, value)) return '';
      return Number.isFinite(value) ? decimalFormat(kind.decimals).format(value) : '';
    case 'count':
      if (typeof value === 'string') return value.trim();
      return Number.isFinite(value) ? integer.format(value) : '';
    case 'flag':
      return formatFlag(String(value));
    case 'codes':
      return formatCodes(String(value));
    case 'date':
    case 'text':
      return String(value).trim();
  }
}

const two = (value: number) => String(value).padStart(2, '0');

/**
 * A moment in local time, written as the app writes every date (YYYY-MM-DD, as the grid, the chips, the
 * date filters and the workbooks do) with the time after it: "2026-11-03 13:24".
 */
export function formatTimestamp(ms: number): string {
  const at = new Date(ms);
  const date = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `${date} ${two(at.getHours())}:${two(at.getMinutes())}`;
}
