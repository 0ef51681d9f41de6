/**
 * A read pool worker (read-pool.ts): its own read-only connection to the database file (WAL lets it read
 * beside the main thread's connection) and its own repositories, built on the first job. Runs one job at a
 * time, as the pool hands them out.
 */
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { DataVersion } from '../db/data-version.ts';
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
// A scan is background work beside the indexed requests the main thread answers in a millisecond or less:
// give it the lowest CPU priority, so that a scan on each core does not take the cores from the main thread
// (bench:server's isolation row: a first page's p99 of 72 ms at nice 0, on a machine loaded to 11-15).
// On Linux the nice value is per thread, so this lowers this worker alone; elsewhere it would lower the
// whole process, main thread included.
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_LOW);
const { dbPath, gate } = workerData as ReadWorkerData;
let repositories: Repositories | undefined;
let version: DataVersion | undefined;

port.on('message', (job: ReadJobMessage) => {
  // A test holds jobs here to show the main thread answers while one is in flight (ReadPoolOptions.gate).
  if (gate) Atomics.wait(gate, 0, 1);
  let reply: ReadJobReply;
  try {
    if (!repositories) {
      const db = openDatabase(dbPath, { readonly: true });
      repositories = { generators: new GeneratorsRepository(db), manifests: new ManifestsRepository(db) };
      version = new DataVersion(db);
    } else if (version?.changed()) {
      // An import committed since the last job: what this worker's repositories read before is dropped.
      repositories.generators.dataChanged();
      repositories.manifests.dataChanged();
    }
    const run = READ_JOBS[job.name] as (repositories: Repositories, ...args: unknown[]) => unknown;
    reply = { id: job.id, ok: true, result: run(repositories, ...job.args) };
  } catch (error) {
    reply = { id: job.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
