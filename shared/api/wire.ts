/**
 * Tolerant readers for values the spec's samples send in a different type than it declares
 * (spec 2.1, 2.4): numbers as strings with grouping commas and a leading space, e.g. " 1,234.56".
 */
import { z } from 'zod';
import { LIMITS } from './common.ts';
import { numberFromText } from './number-text.ts';

export { numberFromText };

/** Parses "1234", " 1,234.56" or -3.5 into a number; anything else is a validation error. */
export const tolerantNumber = z
  .union([z.number(), z.string().max(LIMITS.fieldTextMax)])
  .transform((value, ctx) => {
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return value;
      ctx.addIssue({ code: 'custom', message: 'expected a finite number' });
      return z.NEVER;
    }
    const number = numberFromText(value);
    if (number === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected a number, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return number;
  });

/** One formatter per number of decimals: building an Intl.NumberFormat costs far more than using one. */
const sampleFormats = new Map<number, Intl.NumberFormat>();

/** Formats a number the way the spec's samples do: leading space, grouping commas, fixed decimals. */
export function sampleNumberText(value: number, decimals: number): string {
  let format = sampleFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      useGrouping: true,
    });
    sampleFormats.set(decimals, format);
  }
  return ' ' + format.format(value);
}

/** A YYYY-MM-DD calendar date that really exists (2023-02-30 is refused). */
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
  .refine((text) => {
    const date = new Date(`${text}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
  }, 'not a real calendar date');

/** The two wire dialects the reference server can speak (docs/api.md, "Wire dialect"). */
export const Dialect = z.enum(['sample', 'typed']);
export type Dialect = z.infer<typeof Dialect>;
