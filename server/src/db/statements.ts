/**
 * Prepared statements cached by their SQL text. Filter combinations produce many distinct statements; the
 * cache keeps the most recently used ones (preparing costs tens of microseconds, a hit costs nothing).
 */
import type { Database, Statement } from 'better-sqlite3';

export class StatementCache {
  private readonly statements = new Map<string, Statement>();
  private readonly db: Database;
  private readonly capacity: number;

  constructor(db: Database, capacity = 500) {
    this.db = db;
    this.capacity = capacity;
  }

  get(sql: string): Statement {
    const cached = this.statements.get(sql);
    if (cached) {
      this.statements.delete(sql);
      this.statements.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    this.statements.set(sql, statement);
    if (this.statements.size > this.capacity) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    return statement;
  }
}
