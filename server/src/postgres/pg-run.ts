/**
 * Runs the reads' statements on PostgreSQL (pg-reads.ts, pg-manifest-reads.ts, pg-list-page.ts): each
 * prepared once per connection by the client, but the few planned for their parameters (a lookup search
 * through a trigram index, pg-list-page.ts), and cancelled on the server when the request's client leaves.
 */
import type { Sql } from 'postgres';
import type { Param } from './pg-query.ts';

/** Runs one statement, cancelled on the server when `signal` aborts (its client has gone). */
export async function rows<Row>(
  sql: Sql,
  text: string,
  params: readonly Param[],
  signal?: AbortSignal,
): Promise<Row[]> {
  const query = sql.unsafe<Row[]>(text, params as Param[], { prepare: true });
  const cancel = () => void query.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await query;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** As `rows`, each row an array; `prepare` false plans the statement for these parameters each time. */
export async function values(
  sql: Sql,
  text: string,
  params: readonly Param[],
  signal?: AbortSignal,
  prepare = true,
): Promise<unknown[][]> {
  const query = sql.unsafe(text, params as Param[], { prepare }).values();
  const cancel = () => void query.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await query;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
