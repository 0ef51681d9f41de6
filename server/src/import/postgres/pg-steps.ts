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

  private async answer(sql: Sql | TransactionSql, step: Step, sent: Sent): Promise<unknown> {
    const query = sql.unsafe(this.text(step), bound(step.params), { prepare: true });
    switch (step.kind) {
      case 'exec': {
        const pending = query.execute();
        // Kept only as the first failure: a failure answered before run() awaits must not count as unhandled.
        pending.catch((error: unknown) => {
          sent.failure ??= { error };
        });
        sent.last = pending;
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
    const sent: Sent = { last: undefined, failure: undefined };
    try {
      let next = writing.next();
      while (!next.done) next = writing.next(await this.answer(sql, next.value, sent));
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
