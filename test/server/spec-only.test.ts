/**
 * `npm run server -- --spec-only` (docs/api.md "Spec-only mode"): the server command answers as a server that
 * implements only the spec, refusing this server's additions the way it refuses anything unknown, while
 * everything the spec lists keeps working.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestDatabase } from '../helpers/tracker-server.ts';
import { GENERATORS_ONLY, INSPECTOR, PATHS, expectValidation, get, listBody, post } from './support.ts';

let dir: string;
let child: ChildProcess;
let baseUrl: string;
let stderr = '';
/** The inspector's sign-in answer (each sign-in costs a second of password hashing). */
let signedIn: { status: number; body: unknown };
let token: string;

function startSpecOnly(dbPath: string): Promise<string> {
  const cli = resolve(import.meta.dirname, '../../server/src/cli/server.ts');
  child = spawn(
    process.execPath,
    [cli, '--db', dbPath, '--port', '0', '--log-level', 'silent', '--spec-only'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    let output = '';
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`the server command exited with ${String(code)}: ${stderr}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const origin = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
      if (origin) done(origin);
    });
  });
}

beforeAll(async () => {
  const built = await buildTestDatabase(300);
  dir = built.dir;
  baseUrl = await startSpecOnly(built.path);
  signedIn = await post(baseUrl, PATHS.login, undefined, INSPECTOR);
  token = (signedIn.body as { access_token: string }).access_token;
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.removeAllListeners('exit');
    await new Promise((done) => {
      child.on('exit', done);
      child.kill('SIGTERM');
    });
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the server command with --spec-only', () => {
  it('says so when it starts', () => {
    expect(stderr).toMatch(/spec only/);
  });

  it('signs in without telling the permissions, which the spec has no model of', () => {
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ token_type: 'Bearer' });
    expect(signedIn.body).not.toHaveProperty('scopes');
  });

  it.each(['shipped_year', 'status'])(
    'refuses the lookup field %s as unknown, naming only the spec’s fields',
    async (field) => {
      const answer = await get(baseUrl, PATHS.generatorLookup, token, { field, page: 1 });
      expectValidation(answer, 'query.field');
      expect(answer.text).toContain('generator_city');
      expect(answer.text).not.toContain('shipped_year');
    },
  );

  it('answers the spec’s lookups, lists and totals as before, and still refuses a missing permission', async () => {
    const lookup = await get(baseUrl, PATHS.generatorLookup, token, { field: 'generator_state', page: 1 });
    expect(lookup.status).toBe(200);
    const { results } = lookup.body as { results: { value: string; text: string }[] };
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) expect(Object.keys(result).sort()).toEqual(['text', 'value']);
    expect((await post(baseUrl, PATHS.generators, token, listBody({}))).status).toBe(200);
    expect((await post(baseUrl, PATHS.manifestTotals, token, {})).status).toBe(200);

    const narrow = await post(baseUrl, PATHS.login, undefined, GENERATORS_ONLY);
    const narrowToken = (narrow.body as { access_token: string }).access_token;
    expect((await post(baseUrl, PATHS.manifests, narrowToken, listBody({}))).status).toBe(403);
  });
});
