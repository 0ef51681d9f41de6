/**
 * The totals of a list (definition.ts `totals`) over the rows a request matches, for an engine that holds
 * each row's quantities in memory: the server's in-memory generator counts and the offline engine. SQL
 * engines write the same reductions as SQL (server/src/db/sqlite-query.ts).
 */
import type { Reduction } from './definition.ts';

/**
 * Neumaier's compensated sum, as SQLite's sum() adds, so a total agrees with SQL to the last digit shown;
 * whole numbers add exactly either way.
 */
function compensatedSum(values: ArrayLike<number>, positions: ArrayLike<number>): number {
  let sum = 0;
  let compensation = 0;
  for (let index = 0; index < positions.length; index += 1) {
    const value = values[positions[index] ?? 0] ?? 0;
    const total = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - total + value : value - total + sum;
    sum = total;
  }
  return sum + compensation;
}

/** `value` rounded to `decimals` places, as SQL's round(value, decimals). */
function rounded(value: number, decimals: number | undefined): number {
  if (decimals === undefined) return value;
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** Totals added up part by part (counts and unrounded sums), rounded as the definition says. */
export function roundTotals<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  sums: Readonly<Record<Total, number>>,
): Record<Total, number> {
  const answer = {} as Record<Total, number>;
  for (const [name, reduction] of Object.entries(totals) as [Total, Reduction<Quantity>][]) {
    answer[name] = reduction.reduce === 'sum' ? rounded(sums[name], reduction.decimals) : sums[name];
  }
  return answer;
}

/**
 * Each total over the rows at `positions`, a quantity of the row at position p being `columns[quantity][p]`.
 * The answer holds the totals in the definition's order.
 */
export function reduceTotals<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  columns: Readonly<Record<Quantity, ArrayLike<number>>>,
  positions: ArrayLike<number>,
): Record<Total, number> {
  const answer = {} as Record<Total, number>;
  for (const [name, reduction] of Object.entries(totals) as [Total, Reduction<Quantity>][]) {
    switch (reduction.reduce) {
      case 'rows':
        answer[name] = positions.length;
        break;
      case 'sum':
        answer[name] = rounded(compensatedSum(columns[reduction.of], positions), reduction.decimals);
        break;
      case 'rowsAbove0': {
        const values = columns[reduction.of];
        let count = 0;
        for (let index = 0; index < positions.length; index += 1) {
          if ((values[positions[index] ?? 0] ?? 0) > 0) count += 1;
        }
        answer[name] = count;
        break;
      }
    }
  }
  return answer;
}
