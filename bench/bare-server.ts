/**
 * node bench/bare-server.ts --db FILE
 *
 * The baseline of bench:server: the same repository queries behind the thinnest HTTP server Node has
 * (node:http; no framework, no token check, no validation, no log), answering a request that carries
 * `x-bench-case: N` with case N's answer as JSON, and GET /cases with the case names. What the tracker
 * server takes beyond this is what Fastify, the Bearer check, validation, the wire dialect and the request
 * log add to the query.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { openDatabase } from '../server/src/db/open.ts';
import { benchCases } from './server-cases.ts';

const { values } = parseArgs({ options: { db: { type: 'string' } }, strict: true });
if (!values.db) {
  console.error('usage: node bench/bare-server.ts --db FILE');
  process.exit(2);
}
const { cases } = benchCases(openDatabase(values.db));

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const item = cases[Number(request.headers['x-bench-case'])];
    const answer = item ? item.direct() : cases.map((each) => each.name);
    const body = JSON.stringify(answer);
    response
      .writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      .end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) console.log(`http://127.0.0.1:${address.port}`);
});
