/**
 * Runs the import writers' steps (../writers/steps.ts) on SQLite: synchronously, each statement prepared
 * once and found again by its text, so that a whole batch stays inside one better-sqlite3 transaction.
 */
import type { Database, Statement as Prepared } from 'better-sqlite3';
import { statementFor, type Step, type Writing } from '../writers/steps.ts';

export class SqliteSteps {
  private readonly db: Database;
  private readonly prepared = new Map<Step['sql'], Prepared>();

  constructor(db: Database) {
    this.db = db;
  }

  private statement(sql: Step['sql']): Prepared {
    let statement = this.prepared.get(sql);
    if (!statement) {
      statement = this.db.prepare(statementFor(sql, 'sqlite'));
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  private answer(step: Step): unknown {
    const statement = this.statement(step.sql);
    switch (step.kind) {
      case 'get':
        return statement.raw().get(...step.params);
      case 'all':
        return statement.raw().all(...step.params);
      case 'run':
        return statement.run(...step.params).changes;
      case 'exec':
        statement.run(...step.params);
        return undefined;
      case 'insert':
        return statement.run(...step.params).lastInsertRowid;
    }
  }

  /** Runs a writer to its end and returns its result. */
  run<T>(writing: Writing<T>): T {
    let next = writing.next();
    while (!next.done) next = writing.next(this.answer(next.value));
    return next.value;
  }
}
