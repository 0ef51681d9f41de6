/**
 * One writer at a time into a PostgreSQL database: an import (import/postgres/pg-sink.ts), a load of a file
 * (`data:load`) and a demo build (`data:demo --out postgres://…`) each hold this session advisory lock for
 * their whole run, and a second is refused at once. Two imports would take up the same unfinished run and
 * write its rows twice over; a load empties and fills the very tables an import writes.
 *
 * The lock is its session's: it goes with the connection however the process ends, and a connection the
 * server ends takes it along (the client would open another without it), so whoever holds it keeps that
 * connection open for the run (`lasting`) and an import checks it before each batch (holdsWriterLock).
 */
import type { Sql, TransactionSql } from 'postgres';
import { DatabaseError } from '../db/database-error.ts';
import { anotherWriterRuns } from '../db/import-lock.ts';
import { connect } from './pg-store.ts';
import { redactUrl } from './pg-url.ts';

/** Any number no other use of advisory locks in the database picks ("trim"). */
const WRITER_LOCK = 0x7472696d;

/** Takes the lock for the session of `sql`, a one-connection client; false while another writer holds it. */
export async function takeWriterLock(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ locked: boolean }[]>`SELECT pg_try_advisory_lock(${WRITER_LOCK}) AS locked`;
  return row?.locked === true;
}

/** The lock's row of pg_locks, which lists the locks of every database in the cluster. */
const THE_LOCK = `locktype = 'advisory' AND granted
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND classid = 0 AND objid = ${WRITER_LOCK} AND objsubid = 1`;

/** Whether this session holds the lock (taken by takeWriterLock, and gone with its connection). */
export async function holdsWriterLock(sql: Sql | TransactionSql): Promise<boolean> {
  const [row] = await sql.unsafe<{ held: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE ${THE_LOCK} AND pid = pg_backend_pid()) AS held`,
  );
  return row?.held === true;
}

/** The server process (pid) of the writer that holds the lock, the one to end to stop it; undefined if none. */
export async function writerLockHolder(sql: Sql): Promise<number | undefined> {
  const [row] = await sql.unsafe<{ pid: number }[]>(`SELECT pid FROM pg_locks WHERE ${THE_LOCK}`);
  return row?.pid;
}

/**
 * Runs a load, which writes over connections of its own, holding the lock on one more connection for its
 * whole run; refuses it (a DatabaseError, before `work` starts) while another writer holds the lock.
 */
export async function withWriterLock<T>(url: string, work: () => Promise<T>): Promise<T> {
  const lock = await connect(url, { max: 1, lasting: true });
  try {
    if (!(await takeWriterLock(lock))) throw new DatabaseError(anotherWriterRuns(redactUrl(url)));
    return await work();
  } finally {
    await lock.end({ timeout: 1 });
  }
}
