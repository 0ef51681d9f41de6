/**
 * The SQL of shared/query's reductions that both databases write alike; each database's own is in its
 * builder (db/sqlite-query.ts, postgres/pg-query.ts).
 */
import type { Reduction } from '../../../shared/query/definition.ts';

/** `sql`, a value of a reduction (whole, or moved by a part), rounded as the reduction says. */
export function roundedSql<Quantity extends string>(reduction: Reduction<Quantity>, sql: string): string {
  return reduction.reduce === 'sum' && reduction.decimals !== undefined
    ? `round(${sql}, ${reduction.decimals})`
    : sql;
}
