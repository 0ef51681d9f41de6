/**
 * shared/query's reductions as SQL: one builder, and for each database (db/sqlite-query.ts,
 * postgres/pg-query.ts) how it writes each kind of reduction over the rows read.
 */
import type { Reduction } from '../../../shared/query/definition.ts';

/** How a database writes each kind of reduction over the rows read, `column` an expression of a row. */
export interface ReductionDialect {
  rows: string;
  sum: (column: string) => string;
  rowsAbove0: (column: string) => string;
  /** A sum as the database hands it out, after rounding where its reduction rounds. */
  sumValue: (sql: string) => string;
  /** Whether sums are rounded here (false for parts, which are rounded once added up). */
  rounds: boolean;
}

/** `sql`, a value of a reduction (whole, or moved by a part), rounded as the reduction says. */
export function roundedSql<Quantity extends string>(reduction: Reduction<Quantity>, sql: string): string {
  return reduction.reduce === 'sum' && reduction.decimals !== undefined
    ? `round(${sql}, ${reduction.decimals})`
    : sql;
}

/** Each reduction of `totals` as an SQL expression in `dialect`, `column` naming where a quantity is. */
export function reductionsSql<Quantity extends string, Total extends string>(
  totals: Readonly<Record<Total, Reduction<Quantity>>>,
  column: (quantity: Quantity) => string,
  dialect: ReductionDialect,
): [Total, string][] {
  return (Object.entries(totals) as [Total, Reduction<Quantity>][]).map(([name, reduction]) => {
    switch (reduction.reduce) {
      case 'rows':
        return [name, dialect.rows];
      case 'sum': {
        const sum = dialect.sum(column(reduction.of));
        return [name, dialect.sumValue(dialect.rounds ? roundedSql(reduction, sum) : sum)];
      }
      case 'rowsAbove0':
        return [name, dialect.rowsAbove0(column(reduction.of))];
    }
  });
}

/** The reductions as a select list, each named as the definition names it. */
export function selectList(reductions: readonly [string, string][]): string {
  return reductions.map(([name, sql]) => `${sql} AS ${name}`).join(', ');
}
