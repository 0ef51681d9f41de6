/**
 * The demo dataset's calendar: shipments from the start of e-Manifest (2018-07-01) to 2026-10-31, each day
 * numbered from 0 with its YYYY-MM-DD text, weekday and year precomputed for the manifest loop.
 */
export const FIRST_SHIPPED = '2018-07-01';
export const LAST_SHIPPED = '2026-10-31';
/** Waste is received at most this many days after it ships. */
export const MAX_TRANSIT_DAYS = 14;

const DAY_MS = 86_400_000;
const firstMs = Date.parse(`${FIRST_SHIPPED}T00:00:00Z`);

/** Days from FIRST_SHIPPED to LAST_SHIPPED, both included. */
export const SHIPPING_DAYS = (Date.parse(`${LAST_SHIPPED}T00:00:00Z`) - firstMs) / DAY_MS + 1;
export const FIRST_YEAR = Number(FIRST_SHIPPED.slice(0, 4));
export const YEAR_COUNT = Number(LAST_SHIPPED.slice(0, 4)) - FIRST_YEAR + 1;

const totalDays = SHIPPING_DAYS + MAX_TRANSIT_DAYS;
export const DAY_TEXT: readonly string[] = Array.from({ length: totalDays }, (_, day) =>
  new Date(firstMs + day * DAY_MS).toISOString().slice(0, 10),
);
/** 0 = Sunday … 6 = Saturday. */
export const WEEKDAY = Uint8Array.from({ length: totalDays }, (_, day) =>
  new Date(firstMs + day * DAY_MS).getUTCDay(),
);
/** Years since FIRST_YEAR. */
export const YEAR_INDEX = Uint8Array.from(
  { length: totalDays },
  (_, day) => new Date(firstMs + day * DAY_MS).getUTCFullYear() - FIRST_YEAR,
);
