const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const tons = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Counts: thousands separators, no decimals. */
export function formatCount(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : integer.format(value);
}

/** Tons: always two decimals so columns of figures line up. */
export function formatTons(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : tons.format(value);
}
