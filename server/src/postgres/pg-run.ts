/**
 * Runs the reads' statements on PostgreSQL (pg-reads.ts, pg-manifest-reads.ts, pg-list-page.ts): each
 * prepared once per connection by the client, but the few planned for their parameters (a lookup search
 * through a trigram index, pg-list-page.ts), and cancelled on the server when the request's client leaves.
 */
import type { Sql } from 'postgres';
import type { Param } from './pg-query.ts';

/** A statement's answer, the statement cancelled on the server when `signal` aborts (its client has gone). */
async function answer<T>(query: PromiseLike<T> & { cancel(): unknown }, signal?: AbortSignal): Promise<T> {
  const cancel = () => void query.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await query;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** Runs one statement. */
export function rows<Row>(
  sql: Sql,
  text: string,
  params: readonly Param[],
  signal?: AbortSignal,
): Promise<Row[]> {
  return answer(sql.unsafe<Row[]>(text, params as Param[], { prepare: true }), signal);
}

/** As `rows`, each row an array; `prepare` false plans the statement for these parameters each time. */
export function values(
  sql: Sql,
  text: string,
  params: readonly Param[],
  signal?: AbortSignal,
  prepare = true,
): Promise<unknown[][]> {
  return answer(sql.unsafe(text, params as Param[], { prepare }).values(), signal);
}
