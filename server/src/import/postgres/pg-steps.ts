/**
 * Runs the import writers' steps (../writers/steps.ts) on PostgreSQL: each statement's `?` parameters
 * numbered ($1, $2, …) once, prepared by the client, inside the sink's batch transaction. A write whose
 * answer the writer does not read (`exec`) is sent without waiting for it: the client pipelines it on the
 * transaction's connection, ahead of the next statement, so a batch waits for the server only where a
 * writer reads. Its outcome is awaited before the writer's result is returned, and the first failure is
 * the one thrown (the statements after it fail only because the transaction is aborted).
 *
 * New rows (`add`) are held and written ADD_ROWS to a multi-row INSERT, sent as an `exec` is: one statement
 * a row cost the server and the client ~190 µs a row, pipelined or not, against ~15 µs a row in statements
 * of 100 to 500 rows (20,000 waste lines into a table of the same keys on the bench machine). The ids of
 * new rows (`nextId`) are taken from the table's sequence a block at a time.
 */
import type { ParameterOrJSON, Sql, TransactionSql } from 'postgres';
import {
  ListParameter,
  statementFor,
  type IdTable,
  type Statement,
  type StatementStep,
  type Writing,
} from '../writers/steps.ts';

/** Rows of an `add` written by one statement at most (fewer where their parameters pass PostgreSQL's 65,535). */
const ADD_ROWS = 500;
const MAX_PARAMETERS = 65_535;
/** Ids taken from a sequence at once: the first block, then twice the one before, up to the last. */
const ID_BLOCKS = { first: 16, last: 1024 };

/**
 * An `add` statement as a multi-row INSERT: its text for a number of rows, ADD_ROWS or a power of two (so
 * that the client prepares a few texts per statement, not one per number of rows).
 */
class MultiRowInsert {
  private readonly head: string;
  private readonly row: string;
  private readonly tail: string;
  readonly parameters: number;
  readonly maxRows: number;
  private readonly texts = new Map<number, string>();

  constructor(text: string) {
    const parts = /^([\s\S]*\bVALUES\s*)(\([?,\s]*\))(\s*ON CONFLICT DO NOTHING)?\s*$/.exec(text);
    if (!parts) throw new Error(`not an add statement (INSERT … VALUES (?, …)): ${text}`);
    this.head = parts[1] ?? '';
    this.row = parts[2] ?? '';
    this.tail = parts[3] ?? '';
    this.parameters = (this.row.match(/\?/g) ?? []).length;
    this.maxRows = Math.min(ADD_ROWS, Math.floor(MAX_PARAMETERS / Math.max(1, this.parameters)));
  }

  text(rows: number): string {
    let text = this.texts.get(rows);
    if (text === undefined) {
      text = numbered(`${this.head}${Array.from({ length: rows }, () => this.row).join(', ')}${this.tail}`);
      this.texts.set(rows, text);
    }
    return text;
  }

  /** How `count` rows are split into statements: full ones, then the rest by powers of two. */
  sizes(count: number): number[] {
    const sizes: number[] = [];
    let left = count;
    while (left >= this.maxRows) {
      sizes.push(this.maxRows);
      left -= this.maxRows;
    }
    for (let size = 2 ** Math.floor(Math.log2(Math.max(1, left))); left > 0; size /= 2) {
      if (size <= left) {
        sizes.push(size);
        left -= size;
      }
    }
    return sizes;
  }
}

type AddStep = Extract<StatementStep, { kind: 'add' }>;

/** Ids taken from a table's sequence and not given yet. */
interface IdBlock {
  ids: number[];
  size: number;
}

/** `?` parameters as PostgreSQL numbers them (the writers' statements hold no other question mark). */
export function numbered(text: string): string {
  let next = 0;
  return text.replace(/\?/g, () => `$${(next += 1)}`);
}

/** A step's parameters as the client binds them: a list as an array, which `= ANY(?::text[])` reads. */
function bound(params: unknown[]): ParameterOrJSON<never>[] {
  if (!params.some((param) => param instanceof ListParameter)) return params as ParameterOrJSON<never>[];
  return params.map((param) =>
    param instanceof ListParameter ? [...param.values] : param,
  ) as ParameterOrJSON<never>[];
}

/**
 * The writes a writer sent without waiting, kept as the last one and the first failure, not one by one: a
 * connection answers in the order it was asked, so once the last has settled every earlier one has, and a
 * batch's tens of thousands of writes (with their parameters) are not held in memory until it ends.
 */
interface Sent {
  last: Promise<unknown> | undefined;
  failure: { error: unknown } | undefined;
}

export class PostgresSteps {
  private readonly texts = new Map<Statement, string>();
  private readonly inserts = new Map<Statement, MultiRowInsert>();
  /** Kept from one batch to the next: a rolled-back batch's ids were never stored, and a sequence gives none twice. */
  private readonly idBlocks = new Map<IdTable, IdBlock>();

  private text(step: StatementStep): string {
    let text = this.texts.get(step.sql);
    if (text === undefined) {
      text = numbered(statementFor(step.sql, 'postgres'));
      if (step.kind === 'insert') text += ' RETURNING id';
      this.texts.set(step.sql, text);
    }
    return text;
  }

  private multiRow(statement: Statement): MultiRowInsert {
    let insert = this.inserts.get(statement);
    if (!insert) {
      insert = new MultiRowInsert(statementFor(statement, 'postgres'));
      this.inserts.set(statement, insert);
    }
    return insert;
  }

  /** Sends a write without waiting for it (see the head of this file). */
  private send(sql: Sql | TransactionSql, text: string, params: unknown[], sent: Sent): void {
    const pending = sql.unsafe(text, bound(params), { prepare: true }).execute();
    // Kept only as the first failure: a failure answered before run() awaits must not count as unhandled.
    pending.catch((error: unknown) => {
      sent.failure ??= { error };
    });
    sent.last = pending;
  }

  /** Holds an `add`'s row; a statement's rows are sent once they fill one INSERT. */
  private hold(
    sql: Sql | TransactionSql,
    held: Map<Statement, unknown[][]>,
    step: AddStep,
    sent: Sent,
  ): void {
    const rows = held.get(step.sql) ?? [];
    rows.push(step.params);
    held.set(step.sql, rows);
    if (rows.length >= this.multiRow(step.sql).maxRows) this.write(sql, step.sql, rows, sent);
  }

  /** Sends a statement's held rows, emptying the list. */
  private write(sql: Sql | TransactionSql, statement: Statement, rows: unknown[][], sent: Sent): void {
    const insert = this.multiRow(statement);
    let from = 0;
    for (const size of insert.sizes(rows.length)) {
      this.send(sql, insert.text(size), rows.slice(from, from + size).flat(), sent);
      from += size;
    }
    rows.length = 0;
  }

  /** Sends every statement's held rows. */
  private flush(sql: Sql | TransactionSql, held: Map<Statement, unknown[][]>, sent: Sent): void {
    for (const [statement, rows] of held) if (rows.length > 0) this.write(sql, statement, rows, sent);
    held.clear();
  }

  private async nextId(sql: Sql | TransactionSql, table: IdTable): Promise<number> {
    const block = this.idBlocks.get(table) ?? { ids: [], size: ID_BLOCKS.first / 2 };
    this.idBlocks.set(table, block);
    if (block.ids.length === 0) {
      block.size = Math.min(ID_BLOCKS.last, block.size * 2);
      const rows = await sql
        .unsafe(`SELECT nextval(pg_get_serial_sequence('${table}', 'id')) FROM generate_series(1, $1::int)`, [
          block.size,
        ])
        .values();
      block.ids = rows.map(([id]) => Number(id)).reverse();
    }
    const id = block.ids.pop();
    if (id === undefined) throw new Error(`no id from the sequence of ${table}`);
    return id;
  }

  private async answer(
    sql: Sql | TransactionSql,
    step: Exclude<StatementStep, AddStep>,
    sent: Sent,
  ): Promise<unknown> {
    if (step.kind === 'exec') {
      this.send(sql, this.text(step), step.params, sent);
      return undefined;
    }
    const query = sql.unsafe(this.text(step), bound(step.params), { prepare: true });
    switch (step.kind) {
      case 'get':
        return (await query.values())[0];
      case 'all':
        return await query.values();
      case 'run':
        return (await query).count;
      case 'insert':
        return (await query.values())[0]?.[0];
    }
  }

  /** Runs a writer to its end on `sql` (a transaction's) and returns its result. */
  async run<T>(sql: Sql | TransactionSql, writing: Writing<T>): Promise<T> {
    const sent: Sent = { last: undefined, failure: undefined };
    const held = new Map<Statement, unknown[][]>();
    try {
      let next = writing.next();
      while (!next.done) {
        const step = next.value;
        if (step.kind === 'add') {
          this.hold(sql, held, step, sent);
          next = writing.next(undefined);
        } else if (step.kind === 'nextId') {
          next = writing.next(await this.nextId(sql, step.table));
        } else {
          // Whatever comes next may read the held rows: they go first.
          this.flush(sql, held, sent);
          next = writing.next(await this.answer(sql, step, sent));
        }
      }
      this.flush(sql, held, sent);
      await sent.last;
      // Outside a transaction a later write can succeed after an earlier one failed.
      if (sent.failure) throw sent.failure.error;
      return next.value;
    } catch (error) {
      await sent.last?.catch(() => undefined);
      throw sent.failure ? sent.failure.error : error;
    }
  }
}
