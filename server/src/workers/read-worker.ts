/**
 * A read pool worker (read-pool.ts): its own read-only connection to the database file (WAL lets it read
 * beside the main thread's connection) and its own repositories, built on the first job. Runs one job at a
 * time, as the pool hands them out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/open.ts';
import { GeneratorsRepository } from '../repositories/generators-repository.ts';
import { ManifestsRepository } from '../repositories/manifests-repository.ts';
import {
  READ_JOBS,
  type ReadJobMessage,
  type ReadJobReply,
  type ReadWorkerData,
  type Repositories,
} from './read-jobs.ts';

const port = parentPort;
if (!port) throw new Error('read-worker.ts runs only as a worker thread');
const { dbPath, gate } = workerData as ReadWorkerData;
let repositories: Repositories | undefined;

port.on('message', (job: ReadJobMessage) => {
  // A test holds jobs here to show the main thread answers while one is in flight (ReadPoolOptions.gate).
  if (gate) Atomics.wait(gate, 0, 1);
  let reply: ReadJobReply;
  try {
    if (!repositories) {
      const db = openDatabase(dbPath, { readonly: true });
      repositories = { generators: new GeneratorsRepository(db), manifests: new ManifestsRepository(db) };
    }
    const run = READ_JOBS[job.name] as (repositories: Repositories, ...args: unknown[]) => unknown;
    reply = { id: job.id, ok: true, result: run(repositories, ...job.args) };
  } catch (error) {
    reply = { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
