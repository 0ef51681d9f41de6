/**
 * node bench/paired-servers.ts --db FILE
 *
 * The two servers bench:server asks in turn, in one process so that both share its heap, its CPU and how
 * the operating system schedules it, and differ only in what a request goes through:
 * - the tracker server, started as its CLI starts it (serve(): Fastify, the Bearer check, validation, the
 *   wire dialect and the request log on standard output);
 * - the bare baseline: the thinnest HTTP server Node has (node:http; no framework, token check, validation
 *   or log) over the same repository queries, answering a request that carries `x-bench-case: N` (or
 *   `x-bench-load: N`, or `x-bench-isolation: slow|firstPage`) with that case's answer as JSON, and GET /cases
 *   with the case names.
 * Prints one line, the tracker's origin and then the baseline's, separated by a space.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/src/db/open.ts';
import { serve } from '../server/src/server.ts';
import { benchCases } from './server-cases.ts';

const { values } = parseArgs({ options: { db: { type: 'string' } }, strict: true });
if (!values.db) {
  console.error('usage: node bench/paired-servers.ts --db FILE');
  process.exit(2);
}

const tracker = await serve({
  db: values.db,
  host: '127.0.0.1',
  port: 0,
  dialect: 'sample',
  logLevel: 'info',
});

const { cases, load, isolation } = benchCases(openDatabase(values.db));
const bare = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const isolated = request.headers['x-bench-isolation'];
    const item =
      isolated === 'slow' || isolated === 'firstPage'
        ? isolation[isolated]
        : request.headers['x-bench-load'] === undefined
          ? cases[Number(request.headers['x-bench-case'])]
          : load[Number(request.headers['x-bench-load'])];
    const answer = item ? item.direct() : cases.map((each) => each.name);
    // The manifests page comes as the bytes the tracker server sends (ManifestsRepository.pageBytes).
    const body = Buffer.isBuffer(answer) ? answer : JSON.stringify(answer);
    response
      .writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  });
});
await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
console.log(`${tracker.origin} http://127.0.0.1:${(bare.address() as AddressInfo).port}`);

const stop = () => {
  bare.close();
  tracker.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
