/**
 * A small pool of worker threads, each with a read-only connection, for the requests no index can answer
 * (read-jobs.ts). better-sqlite3 is synchronous: a scan of a million manifests run on the main thread holds
 * every other request for its whole length, while run here it leaves the event loop free. Everything an index
 * answers stays on the main thread, with no hop (docs/api.md "What runs in worker threads").
 *
 * Workers start on the first job, take one job at a time, and jobs wait in arrival order for a free worker.
 * A job whose request has gone (its client closed the connection) is dropped: taken off the queue, or, when
 * it is running, its worker is stopped (a synchronous scan cannot be interrupted otherwise) and the next job
 * starts a new one. A client that asks and leaves, again and again, cannot keep the workers scanning.
 */
import { Worker } from 'node:worker_threads';
import type {
  ReadJobArgs,
  ReadJobMessage,
  ReadJobName,
  ReadJobReply,
  ReadJobResult,
  ReadWorkerData,
} from './read-jobs.ts';

export interface ReadPoolOptions {
  /** Worker threads; default 2. */
  size?: number;
  /**
   * For tests: while its first element is 1, a worker holds each job before running it (Atomics.wait), so a
   * test can show what the main thread answers while a scan is in flight. Backed by a SharedArrayBuffer.
   */
  gate?: Int32Array;
}

export const DEFAULT_READ_POOL_SIZE = 2;

interface Pending {
  message: ReadJobMessage;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  /** Stops following the job's signal once the job has ended. */
  settled: () => void;
}

interface Slot {
  worker: Worker;
  job: Pending | undefined;
}

export class ReadPoolError extends Error {}

/** The job's request went away before its answer, so the job was dropped. */
export class ReadJobDropped extends ReadPoolError {}

export class ReadPool {
  private readonly dbPath: string;
  private readonly size: number;
  private readonly gate: Int32Array | undefined;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(dbPath: string, options: ReadPoolOptions = {}) {
    const size = options.size ?? DEFAULT_READ_POOL_SIZE;
    if (!Number.isInteger(size) || size < 1) {
      throw new ReadPoolError(`a read pool needs a whole number of workers, at least 1; got ${size}`);
    }
    this.dbPath = dbPath;
    this.size = size;
    this.gate = options.gate;
  }

  run<Name extends ReadJobName>(name: Name, ...args: ReadJobArgs<Name>): Promise<ReadJobResult<Name>> {
    return this.runUntil(undefined, name, ...args);
  }

  /** As `run`, but the job is dropped (ReadJobDropped) as soon as `signal` aborts: its request went away. */
  runUntil<Name extends ReadJobName>(
    signal: AbortSignal | undefined,
    name: Name,
    ...args: ReadJobArgs<Name>
  ): Promise<ReadJobResult<Name>> {
    if (this.closed) return Promise.reject(new ReadPoolError('the read pool is closed'));
    if (signal?.aborted)
      return Promise.reject(new ReadJobDropped('the request went away before its job ran'));
    return new Promise((resolve, reject) => {
      const drop = () => this.drop(pending);
      const pending: Pending = {
        message: { id: this.nextId++, name, args },
        resolve: (result) => {
          pending.settled();
          (resolve as (result: unknown) => void)(result);
        },
        reject: (error) => {
          pending.settled();
          reject(error);
        },
        settled: () => signal?.removeEventListener('abort', drop),
      };
      signal?.addEventListener('abort', drop, { once: true });
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Takes a job off the queue, or stops the worker running it; its caller hears ReadJobDropped. */
  private drop(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued !== -1) {
      this.queue.splice(queued, 1);
      pending.reject(new ReadJobDropped('the request went away before its job ran'));
      return;
    }
    const slot = this.slots.find((each) => each.job === pending);
    if (!slot) return;
    this.slots.splice(this.slots.indexOf(slot), 1);
    slot.job = undefined;
    pending.reject(new ReadJobDropped('the request went away while its job ran'));
    void slot.worker.terminate();
    this.dispatch();
  }

  /** Stops every worker; jobs not yet answered fail. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = new ReadPoolError('the read pool was closed before the job finished');
    for (const pending of this.queue.splice(0)) pending.reject(stopped);
    for (const slot of this.slots) slot.job?.reject(stopped);
    const workers = this.slots.splice(0).map((slot) => slot.worker);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((each) => each.job === undefined) ?? this.start();
      if (!slot) return;
      const pending = this.queue.shift();
      if (!pending) return;
      slot.job = pending;
      slot.worker.postMessage(pending.message);
    }
  }

  /** A new worker when the pool has room for one. */
  private start(): Slot | undefined {
    if (this.slots.length >= this.size) return undefined;
    const data: ReadWorkerData = { dbPath: this.dbPath, gate: this.gate };
    const worker = new Worker(new URL('./read-worker.ts', import.meta.url), { workerData: data });
    const slot: Slot = { worker, job: undefined };
    worker.on('message', (reply: ReadJobReply) => {
      const job = slot.job;
      slot.job = undefined;
      if (job && job.message.id === reply.id) {
        if (reply.ok) job.resolve(reply.result);
        else job.reject(new ReadPoolError(reply.error));
      }
      this.dispatch();
    });
    // A worker that dies fails its job and leaves the pool; the next job starts a new one.
    const lost = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index === -1) return;
      this.slots.splice(index, 1);
      slot.job?.reject(error);
      slot.job = undefined;
      if (!this.closed) this.dispatch();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new ReadPoolError(`a read worker exited (code ${code})`)));
    // An idle pool does not keep the process alive.
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}
