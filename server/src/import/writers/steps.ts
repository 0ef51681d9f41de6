/**
 * The import's writers are written once for both databases: as generator functions that yield each
 * statement they run (a step) and are handed its answer. SQLite's sink runs a writer to its end
 * synchronously inside its batch transaction (sqlite/sqlite-steps.ts); PostgreSQL's awaits each answer
 * from the server inside its own (postgres/pg-steps.ts). The decisions (new, changed, older, conflicting,
 * pending) are made here once; how a statement reaches a database is the driver's.
 *
 * A statement is one text both databases accept (`?` parameters, `INSERT … ON CONFLICT`), or, where their
 * SQL differs, one text for each. A list of values (a batch's tracking numbers) is one parameter, bound as
 * each database reads a list: SQLite as JSON text (`json_each(?)`), PostgreSQL as an array (`= ANY(?)`).
 *
 * A new row whose id a writer needs (its lines name it) takes the id it asks for (`nextId`) rather than one
 * an INSERT answers, so that its INSERT, as the new rows of lines and transporters, can be an `add`: rows
 * PostgreSQL's driver writes many to a statement, as one statement a row cost it ten times as much.
 */

/** A statement: one text for both, or each database's own. */
export type Statement = string | { sqlite: string; postgres: string };

/** A parameter holding many values (listOf), bound by each driver as its database reads a list. */
export class ListParameter {
  readonly values: readonly string[];

  constructor(values: readonly string[]) {
    this.values = values;
  }
}

export const listOf = (values: Iterable<string>): ListParameter => new ListParameter([...values]);

export type Step =
  /** The first row's values, or undefined. */
  | { kind: 'get'; sql: Statement; params: unknown[] }
  /** Every row's values. */
  | { kind: 'all'; sql: Statement; params: unknown[] }
  /** How many rows the statement changed. */
  | { kind: 'run'; sql: Statement; params: unknown[] }
  /**
   * A write whose answer the writer does not read: a driver may send it on without waiting (PostgreSQL
   * pipelines it); any error still fails the batch.
   */
  | { kind: 'exec'; sql: Statement; params: unknown[] }
  /** The id of the row an INSERT made. */
  | { kind: 'insert'; sql: Statement; params: unknown[] }
  /**
   * A new row whose answer the writer does not read, by an `INSERT INTO t (…) VALUES (?, …)` with no more
   * after it than `ON CONFLICT DO NOTHING`. A driver may hold it and insert it together with the rows of the
   * same statement that follow (PostgreSQL: one multi-row INSERT), up to the next step that is neither an
   * `add` nor a `nextId`, or the writer's end. Rows are inserted in order within their statement, and the
   * statements in the order they first came: the writer adds in one stretch only rows whose outcome does
   * not depend on the rows of another statement (other tables, no other row of the same key).
   */
  | { kind: 'add'; sql: Statement; params: unknown[] }
  /** An id for a new row of the table, which no row has and no other nextId gives: the writer inserts it. */
  | { kind: 'nextId'; table: IdTable };

/** Tables whose new rows take their id from nextId. */
export type IdTable = 'manifests' | 'generators';

/** A step that names a statement (every kind but nextId). */
export type StatementStep = Exclude<Step, { kind: 'nextId' }>;

/** A writer's work: the steps it yields, each answered by the driver, then its result. */
export type Writing<T> = Generator<Step, T, unknown>;

export function* get(sql: Statement, ...params: unknown[]): Writing<unknown[] | undefined> {
  return (yield { kind: 'get', sql, params }) as unknown[] | undefined;
}

/** The first column of the first row, or undefined. */
export function* value(sql: Statement, ...params: unknown[]): Writing<unknown> {
  const row = yield* get(sql, ...params);
  return row?.[0];
}

export function* all(sql: Statement, ...params: unknown[]): Writing<unknown[][]> {
  return (yield { kind: 'all', sql, params }) as unknown[][];
}

export function* run(sql: Statement, ...params: unknown[]): Writing<number> {
  return (yield { kind: 'run', sql, params }) as number;
}

export function* exec(sql: Statement, ...params: unknown[]): Writing<void> {
  yield { kind: 'exec', sql, params };
}

export function* insert(sql: Statement, ...params: unknown[]): Writing<number> {
  return Number(yield { kind: 'insert', sql, params });
}

export function* add(sql: Statement, ...params: unknown[]): Writing<void> {
  yield { kind: 'add', sql, params };
}

export function* nextId(table: IdTable): Writing<number> {
  return Number(yield { kind: 'nextId', table });
}

/** A statement's text for one database. */
export function statementFor(sql: Statement, dialect: 'sqlite' | 'postgres'): string {
  return typeof sql === 'string' ? sql : sql[dialect];
}
