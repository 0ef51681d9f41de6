/**
 * `npm run server -- --workers N`: N server processes on one port (Node's cluster module hands each new
 * connection to one of them), all serving one PostgreSQL database, which holds the tokens and the sign-in
 * throttle they share (docs/deploy.md). The primary only starts, watches and stops them: it prints the
 * origin once every worker listens, starts a new worker in place of one that dies, and stops them all on
 * SIGINT or SIGTERM.
 */
import cluster, { type Worker } from 'node:cluster';

/** A worker tells the primary it listens, and where. */
export interface ListeningMessage {
  listening: string;
}

function isListening(message: unknown): message is ListeningMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as ListeningMessage).listening === 'string'
  );
}

/** Runs in the primary: starts `count` workers and resolves with the origin once all of them listen. */
export function startWorkers(count: number): Promise<string> {
  let stopping = false;
  let ready = 0;
  return new Promise((resolve, reject) => {
    const start = (): Worker => {
      const worker = cluster.fork();
      worker.on('message', (message: unknown) => {
        if (!isListening(message)) return;
        ready += 1;
        if (ready === count) resolve(message.listening);
      });
      worker.on('exit', (code, signal) => {
        if (stopping) return;
        if (ready < count) {
          reject(new Error(`a server worker stopped before it listened (${signal ?? `exit code ${code}`})`));
          stop();
          return;
        }
        console.error(`A server worker stopped (${signal ?? `exit code ${code}`}); starting another.`);
        start();
      });
      return worker;
    };
    const stop = () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    for (let index = 0; index < count; index += 1) start();
  });
}

/** Runs in a worker: tells the primary where it listens. */
export function reportListening(origin: string): void {
  process.send?.({ listening: origin } satisfies ListeningMessage);
}

export const isWorker = (): boolean => cluster.isWorker;
