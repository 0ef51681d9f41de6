/**
 * Runs the import writers' steps (../writers/steps.ts) on PostgreSQL: each statement's `?` parameters
 * numbered ($1, $2, …) once, prepared by the client, inside the sink's batch transaction. A write whose
 * answer the writer does not read (`exec`) is sent without waiting for it: the client pipelines it on the
 * transaction's connection, ahead of the next statement, so a batch waits for the server only where a
 * writer reads. Its outcome is awaited before the writer's result is returned, and the first failure is
 * the one thrown (the statements after it fail only because the transaction is aborted).
 */
import type { ParameterOrJSON, Sql, TransactionSql } from 'postgres';
import { ListParameter, statementFor, type Step, type Writing } from '../writers/steps.ts';

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

export class PostgresSteps {
  private readonly texts = new Map<Step['sql'], string>();

  private text(step: Step): string {
    let text = this.texts.get(step.sql);
    if (text === undefined) {
      text = numbered(statementFor(step.sql, 'postgres'));
      if (step.kind === 'insert') text += ' RETURNING id';
      this.texts.set(step.sql, text);
    }
    return text;
  }

  private async answer(sql: Sql | TransactionSql, step: Step, sent: Promise<unknown>[]): Promise<unknown> {
    const query = sql.unsafe(this.text(step), bound(step.params), { prepare: true });
    switch (step.kind) {
      case 'exec': {
        const pending = query.execute();
        // Handled where it is awaited (run); until then a failure must not count as unhandled.
        pending.catch(() => undefined);
        sent.push(pending);
        return undefined;
      }
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
    const sent: Promise<unknown>[] = [];
    try {
      let next = writing.next();
      while (!next.done) next = writing.next(await this.answer(sql, next.value, sent));
      await Promise.all(sent);
      return next.value;
    } catch (error) {
      const failed = (await Promise.allSettled(sent)).find((outcome) => outcome.status === 'rejected');
      throw failed ? failed.reason : error;
    }
  }
}
