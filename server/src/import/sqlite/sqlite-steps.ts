/**
 * Runs the import writers' steps (../writers/steps.ts) on SQLite: synchronously, each statement prepared
 * once and found again by its text, so that a whole batch stays inside one better-sqlite3 transaction. An
 * `add` is inserted at once (a statement a row is what SQLite does fastest), so a new row's id is the one
 * SQLite would give it: one past the table's largest.
 */
import type { Database, Statement as Prepared } from 'better-sqlite3';
import {
  ListParameter,
  statementFor,
  type IdTable,
  type Statement,
  type Step,
  type StatementStep,
  type Writing,
} from '../writers/steps.ts';

/** A step's parameters as better-sqlite3 binds them: a list as JSON text, which `json_each(?)` reads. */
function bound(params: unknown[]): unknown[] {
  if (!params.some((param) => param instanceof ListParameter)) return params;
  return params.map((param) => (param instanceof ListParameter ? JSON.stringify(param.values) : param));
}

export class SqliteSteps {
  private readonly db: Database;
  private readonly prepared = new Map<Statement, Prepared>();

  constructor(db: Database) {
    this.db = db;
  }

  private statement(sql: Statement): Prepared {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(statementFor(sql, 'sqlite'));
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  private answer(step: Step): unknown {
    if (step.kind === 'nextId') return this.nextId(step.table);
    return this.statementAnswer(step);
  }

  private nextId(table: IdTable): unknown {
    return this.statement(`SELECT coalesce(max(id), 0) + 1 FROM ${table}`).pluck().get();
  }

  private statementAnswer(step: StatementStep): unknown {
    const statement = this.statement(step.sql);
    const params = bound(step.params);
    switch (step.kind) {
      case 'get':
        return statement.raw().get(...params);
      case 'all':
        return statement.raw().all(...params);
      case 'run':
        return statement.run(...params).changes;
      case 'exec':
      case 'add':
        statement.run(...params);
        return undefined;
      case 'insert':
        return statement.run(...params).lastInsertRowid;
    }
  }

  /** Runs a writer to its end and returns its result. */
  run<T>(writing: Writing<T>): T {
    let next = writing.next();
    while (!next.done) next = writing.next(this.answer(next.value));
    return next.value;
  }
}
