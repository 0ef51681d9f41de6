/**
 * The request log of the real server command (docs/api.md "Logs"): one JSON line per request with method,
 * path without query string, status, milliseconds and user name; no headers, bodies, tokens or passwords.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestDatabase } from '../helpers/tracker-server.ts';
import { INSPECTOR, PATHS, get, listBody, post } from './support.ts';

const SECRET_PASSWORD = 'Wrong-Horse-Battery-Staple-9';
const BODY_SECRET = 'needle-in-the-body';
const QUERY_SECRET = 'needle-in-the-query';

let dir: string;
let child: ChildProcess;
let output = '';
let token = '';
let requestsMade = 0;
let linesWhileRunning = 0;

/** Starts `npm run server` (the CLI) on a free port and resolves with its origin, printed on stdout. */
function startServerCommand(dbPath: string): Promise<string> {
  const cli = resolve(import.meta.dirname, '../../server/src/cli/server.ts');
  child = spawn(process.execPath, [cli, '--db', dbPath, '--port', '0', '--log-level', 'info'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`the server command exited with ${String(code)}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const origin = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
      if (origin) done(origin);
    });
  });
}

function stopServerCommand(): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.removeAllListeners('exit');
    child.on('exit', () => done());
    child.kill('SIGTERM');
  });
}

beforeAll(async () => {
  const built = await buildTestDatabase();
  dir = built.dir;
  const baseUrl = await startServerCommand(built.path);
  const calls: (() => Promise<unknown>)[] = [
    () => post(baseUrl, PATHS.login, undefined, { username: INSPECTOR.username, password: SECRET_PASSWORD }),
    async () => {
      const answer = await post(baseUrl, PATHS.login, undefined, INSPECTOR);
      token = (answer.body as { access_token: string }).access_token;
    },
    () => post(baseUrl, PATHS.generators, token, listBody({ searchKey: BODY_SECRET })),
    () =>
      get(baseUrl, PATHS.generatorLookup, token, { field: 'generator_name', page: 1, search: QUERY_SECRET }),
    () => post(baseUrl, PATHS.manifestTotals, undefined, {}),
    () => post(baseUrl, PATHS.logout, token, undefined),
  ];
  for (const call of calls) {
    await call();
    requestsMade += 1;
  }
  // The log is written in batches: wait for this batch while the server runs, then make one more request
  // and stop at once, so that its line can only come from the flush at exit.
  const deadline = Date.now() + 5000;
  while (requestLines().length < requestsMade && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
  }
  linesWhileRunning = requestLines().length;
  await get(baseUrl, PATHS.manifestLookup, undefined, { field: 'manifest_number', page: 1 });
  requestsMade += 1;
  await stopServerCommand();
});

afterAll(async () => {
  if (child) await stopServerCommand();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface RequestLine {
  msg: string;
  method?: unknown;
  path?: unknown;
  status?: unknown;
  ms?: unknown;
  user?: unknown;
}

function requestLines(): RequestLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as RequestLine)
    .filter((line) => line.msg === 'request');
}

describe('the request log', () => {
  it('has one JSON line per request with method, path, status, milliseconds and user', () => {
    const lines = requestLines();
    expect(lines).toHaveLength(requestsMade);
    expect(lines.map((line) => [line.method, line.path, line.status])).toEqual([
      ['POST', PATHS.login, 401],
      ['POST', PATHS.login, 200],
      ['POST', PATHS.generators, 200],
      ['GET', PATHS.generatorLookup, 200],
      ['POST', PATHS.manifestTotals, 401],
      ['POST', PATHS.logout, 204],
      ['GET', PATHS.manifestLookup, 401],
    ]);
    for (const line of lines) expect(typeof line.ms).toBe('number');
    expect(lines.map((line) => line.user)).toEqual([
      undefined,
      undefined,
      'inspector',
      'inspector',
      undefined,
      'inspector',
      undefined,
    ]);
  });

  it('writes its lines while the server runs, and what is left when it stops', () => {
    expect(linesWhileRunning).toBe(requestsMade - 1);
    expect(requestLines()).toHaveLength(requestsMade);
  });

  it('holds no password, token, header, body or query string', () => {
    expect(token.length).toBeGreaterThan(40);
    for (const secret of [SECRET_PASSWORD, INSPECTOR.password, token, BODY_SECRET, QUERY_SECRET]) {
      expect(output).not.toContain(secret);
    }
    expect(output).not.toMatch(/authorization/i);
    expect(output).not.toMatch(/Bearer /);
    expect(output).not.toContain('?field=');
  });
});
