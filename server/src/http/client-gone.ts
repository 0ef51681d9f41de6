/**
 * Whether a request's client is still there. Node tells a response's `close` both when it was sent and when
 * its connection went first; only the second, before the answer was written, means the client left (a
 * closed tab, a cancelled export, a timeout of its own). Work done for that request is then wasted, and a
 * scan in the read pool is dropped (workers/read-pool.ts).
 */
import type { FastifyReply } from 'fastify';

/** A signal that aborts when the client closes the connection before its answer is sent. */
export function untilClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const response = reply.raw;
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
