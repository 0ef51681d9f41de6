/**
 * Sign-in, tokens, scopes, throttling, password storage and the accounts CLI (spec 5; docs/api.md
 * "Authentication").
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app.ts';
import {
  OWASP_MINIMUM_COST,
  PASSWORD_COST_VARIABLE,
  hashPassword,
  passwordCost,
} from '../../server/src/auth/passwords.ts';
import {
  buildTestDatabase,
  send,
  startTrackerServer,
  type TrackerServer,
} from '../helpers/tracker-server.ts';
import {
  GENERATORS_ONLY,
  INSPECTOR,
  PATHS,
  expectProblem,
  get,
  listBody,
  post,
  signInAs,
  type Answer,
} from './support.ts';

let dir: string;
let dbPath: string;
let server: TrackerServer;

beforeAll(async () => {
  const built = await buildTestDatabase();
  dir = built.dir;
  dbPath = built.path;
  server = await startTrackerServer({ dbPath, socket: false });
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const login = (baseUrl: string, username: string, password: string) =>
  post(baseUrl, PATHS.login, undefined, { username, password });

/** One request to every endpoint that needs a token, each answering 200 for a caller with both scopes. */
function endpoints(
  token: string | undefined,
): { name: string; scope: 'generators' | 'manifests'; call: () => Promise<Answer> }[] {
  const base = server.baseUrl;
  return [
    {
      name: 'generators list',
      scope: 'generators',
      call: () => post(base, PATHS.generators, token, listBody({})),
    },
    {
      name: 'generator totals',
      scope: 'generators',
      call: () => post(base, PATHS.generatorTotals, token, {}),
    },
    {
      name: 'generator lookup',
      scope: 'generators',
      call: () => get(base, PATHS.generatorLookup, token, { field: 'generator_state', page: 1 }),
    },
    {
      name: 'manifests list',
      scope: 'manifests',
      call: () => post(base, PATHS.manifests, token, listBody({})),
    },
    { name: 'manifest totals', scope: 'manifests', call: () => post(base, PATHS.manifestTotals, token, {}) },
    {
      name: 'manifest lookup',
      scope: 'manifests',
      call: () => get(base, PATHS.manifestLookup, token, { field: 'container_type', page: 1 }),
    },
  ];
}

describe('sign-in', () => {
  it('answers a token of 256 random bits in base64url, its type and lifetime, and the scopes', async () => {
    const answer = await login(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    expect(answer.status).toBe(200);
    const body = answer.body as {
      access_token: string;
      token_type: string;
      expires_in: number;
      scopes: string[];
    };
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(8 * 60 * 60);
    expect(body.scopes).toEqual(['generators', 'manifests']);
    const again = (await login(server.baseUrl, INSPECTOR.username, INSPECTOR.password)).body as {
      access_token: string;
    };
    expect(again.access_token).not.toBe(body.access_token);
  });

  it('answers a wrong password and an unknown user with the same 401', async () => {
    const wrongPassword = await login(server.baseUrl, INSPECTOR.username, 'not-the-password');
    const unknownUser = await login(server.baseUrl, 'nobody-here', INSPECTOR.password);
    expectProblem(wrongPassword, 401);
    expectProblem(unknownUser, 401);
    expect(wrongPassword.text).toBe(unknownUser.text);
    expect(wrongPassword.headers.get('www-authenticate')).toBe(unknownUser.headers.get('www-authenticate'));
    expect(wrongPassword.text).not.toContain('inspector');
  });

  it('refuses a sign-in body without a password as a validation problem', async () => {
    const answer = await post(server.baseUrl, PATHS.login, undefined, { username: 'inspector' });
    expect(expectProblem(answer, 400).type).toBe('urn:waste-tracker:problem:validation');
  });

  it('stores passwords only as scrypt hashes at the configured cost, with a 16-byte salt', async () => {
    const cost = passwordCost();
    const rows = (await server.storedRows('SELECT username, password_hash FROM users')) as {
      username: string;
      password_hash: string;
    }[];
    expect(rows.map((row) => row.username)).toEqual(expect.arrayContaining(['inspector', 'generators-only']));
    for (const row of rows) {
      const [scheme, n, r, p, salt, hash] = row.password_hash.split('$');
      expect([scheme, n, r, p]).toEqual(['scrypt', String(cost.N), String(cost.r), String(cost.p)]);
      expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
      expect(Buffer.from(hash ?? '', 'base64').length).toBeGreaterThanOrEqual(32);
      expect(row.password_hash).not.toContain('demo');
    }
  });

  it('stores no token in plain text, only its SHA-256 hash', async () => {
    const session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    const stored = (await server.storedRows('SELECT token_hash FROM tokens')).map((row) => row.token_hash);
    expect(stored.length).toBeGreaterThan(0);
    for (const hash of stored) expect(hash).not.toContain(session.token);
    expect(stored).toContain(createHash('sha256').update(session.token).digest('hex'));
    const dump = JSON.stringify(await server.storedRows('SELECT * FROM tokens'));
    expect(dump).not.toContain(session.token);
  });
});

describe('the Bearer check', () => {
  it.each([
    ['another scheme', 'Basic aW5zcGVjdG9yOmluc3BlY3Rvci1kZW1v'],
    ['the scheme alone', 'Bearer'],
  ])('answers %s with 401 and a Bearer challenge', async (_name, header) => {
    const response = await send(server.baseUrl, PATHS.generatorTotals, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: header },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="tracker"/);
  });

  it('marks only sign-in as public among the routes the server registered', () => {
    const routes = server.app.registeredRoutes;
    expect(routes.filter((route) => route.url.startsWith('/api/tracker/')).length).toBeGreaterThan(8);
    expect(routes.filter((route) => route.public)).toEqual([
      { method: 'POST', url: PATHS.login, public: true },
    ]);
  });

  it('answers every registered route but sign-in without Authorization with 401 and WWW-Authenticate: Bearer', async () => {
    const guarded = server.app.registeredRoutes.filter(
      (route) => route.url.startsWith('/api/tracker/') && !route.public,
    );
    for (const url of Object.values(PATHS).filter((path) => path !== PATHS.login)) {
      expect(guarded.map((route) => route.url)).toContain(url);
    }
    for (const route of guarded) {
      const response = await send(server.baseUrl, route.url, {
        method: route.method,
        ...(route.method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
      });
      expect(response.status, `${route.method} ${route.url}`).toBe(401);
      expect(response.headers.get('www-authenticate'), `${route.method} ${route.url}`).toBe(
        'Bearer realm="tracker"',
      );
    }
  });

  it('denies by default: a route registered without any auth setting needs a token', async () => {
    const app = buildApp({ ...server.source, warm: false });
    app.get('/api/tracker/added-later/', () => ({ reached: true }));
    try {
      const anonymous = await app.inject({ method: 'GET', url: '/api/tracker/added-later/' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="tracker"');
      const session = await signInAs(server.baseUrl, GENERATORS_ONLY.username, GENERATORS_ONLY.password);
      const signedIn = await app.inject({
        method: 'GET',
        url: '/api/tracker/added-later/',
        headers: { authorization: `Bearer ${session.token}` },
      });
      expect(signedIn.json()).toEqual({ reached: true });
    } finally {
      await app.close();
    }
  });

  it.each([
    ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed token', 'Bearer not a token!'],
    ['a token in lower-case "bearer" that is unknown', 'bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
  ])('answers %s with 401 invalid_token', async (_name, header) => {
    const response = await send(server.baseUrl, PATHS.generatorTotals, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: header },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="tracker", error="invalid_token"');
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('lets a caller with both scopes reach every endpoint', async () => {
    const session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    for (const endpoint of endpoints(session.token))
      expect((await endpoint.call()).status, endpoint.name).toBe(200);
  });

  it('answers a generators-only user 403 naming "manifests" on the manifests endpoints, 200 on the others', async () => {
    const session = await signInAs(server.baseUrl, GENERATORS_ONLY.username, GENERATORS_ONLY.password);
    for (const endpoint of endpoints(session.token)) {
      const answer = await endpoint.call();
      if (endpoint.scope === 'manifests') {
        const problem = expectProblem(answer, 403);
        expect(problem.detail, endpoint.name).toContain('"manifests"');
        expect(problem.detail).not.toContain('"generators"');
      } else {
        expect(answer.status, endpoint.name).toBe(200);
      }
    }
  });

  it('refuses an expired token with 401', async () => {
    // Long enough for the first request to land inside the lifetime on a busy machine (1 s was not, on a
    // machine running the end-to-end tests beside).
    const ttlMs = 3000;
    const shortLived = await startTrackerServer({ dbPath, tokenTtlMs: ttlMs, socket: false });
    try {
      const session = await signInAs(shortLived.baseUrl, INSPECTOR.username, INSPECTOR.password);
      // The token was issued before the answer came: it has expired this long after it.
      const expired = Date.now() + ttlMs + 100;
      expect((await post(shortLived.baseUrl, PATHS.generatorTotals, session.token, {})).status).toBe(200);
      await new Promise((done) => setTimeout(done, Math.max(0, expired - Date.now())));
      const answer = await post(shortLived.baseUrl, PATHS.generatorTotals, session.token, {});
      expectProblem(answer, 401);
      expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      await shortLived.close();
    }
  });
});

describe('sign-out', () => {
  it('answers 204 and the token then gets 401, while other tokens still work', async () => {
    const session = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    const other = await signInAs(server.baseUrl, INSPECTOR.username, INSPECTOR.password);
    const answer = await post(server.baseUrl, PATHS.logout, session.token, undefined);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expectProblem(await post(server.baseUrl, PATHS.generatorTotals, session.token, {}), 401);
    expect((await post(server.baseUrl, PATHS.generatorTotals, other.token, {})).status).toBe(200);
  });

  it('needs a token itself', async () => {
    expectProblem(await post(server.baseUrl, PATHS.logout, undefined, undefined), 401);
  });
});

describe('throttling failed sign-ins', () => {
  it('answers the 4th bad password with 429 and Retry-After, and then refuses the right one too', async () => {
    const throttled = await startTrackerServer({
      dbPath,
      throttle: { perUser: 3, perAddress: 10, windowMs: 60_000 },
      socket: false,
    });
    try {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expectProblem(await login(throttled.baseUrl, GENERATORS_ONLY.username, `wrong-${attempt}`), 401);
      }
      const fourth = await login(throttled.baseUrl, GENERATORS_ONLY.username, 'wrong-4');
      expectProblem(fourth, 429);
      const retryAfter = fourth.headers.get('retry-after') ?? '';
      expect(retryAfter).toMatch(/^[1-9]\d*$/);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      const right = await login(throttled.baseUrl, GENERATORS_ONLY.username, GENERATORS_ONLY.password);
      expectProblem(right, 429);
      expect(right.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      // Another user from the same address is not yet past the per-address limit.
      expect((await login(throttled.baseUrl, INSPECTOR.username, INSPECTOR.password)).status).toBe(200);
    } finally {
      await throttled.close();
    }
  });

  it('by default allows 5 failures per user name and address, then answers 429', async () => {
    const defaults = await startTrackerServer({ dbPath, socket: false });
    try {
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expectProblem(await login(defaults.baseUrl, INSPECTOR.username, `wrong-${attempt}`), 401);
      }
      const sixth = await login(defaults.baseUrl, INSPECTOR.username, INSPECTOR.password);
      expectProblem(sixth, 429);
      const retryAfter = Number(sixth.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    } finally {
      await defaults.close();
    }
  });

  // Eleven password checks at the full scrypt cost: ~1 s each on a quiet machine, several on a busy one.
  it('limits one address across user names', { timeout: 90_000 }, async () => {
    const throttled = await startTrackerServer({
      dbPath,
      throttle: { perUser: 3, perAddress: 10, windowMs: 60_000 },
      socket: false,
    });
    try {
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expectProblem(await login(throttled.baseUrl, `user-${attempt}`, 'wrong-password'), 401);
      }
      const answer = await login(throttled.baseUrl, INSPECTOR.username, INSPECTOR.password);
      expectProblem(answer, 429);
      expect(answer.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    } finally {
      await throttled.close();
    }
  });
});

describe('guesses sent at once', () => {
  it('judges at most the allowed number: 40 concurrent wrong passwords give 5 × 401 and 35 × 429', async () => {
    const fresh = await startTrackerServer({ dbPath, socket: false });
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, index) => login(fresh.baseUrl, INSPECTOR.username, `guess-${index}`)),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    } finally {
      await fresh.close();
    }
  });

  it('gives the attempt back when the password was right, so sign-ins never use up the limit', async () => {
    const fresh = await startTrackerServer({
      dbPath,
      throttle: { perUser: 2, perAddress: 2, windowMs: 60_000 },
      socket: false,
    });
    try {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect((await login(fresh.baseUrl, INSPECTOR.username, INSPECTOR.password)).status).toBe(200);
      }
      expectProblem(await login(fresh.baseUrl, INSPECTOR.username, 'wrong-1'), 401);
      expectProblem(await login(fresh.baseUrl, GENERATORS_ONLY.username, 'wrong-2'), 401);
      expectProblem(await login(fresh.baseUrl, GENERATORS_ONLY.username, GENERATORS_ONLY.password), 429);
    } finally {
      await fresh.close();
    }
  });
});

describe('password storage and changes', () => {
  const storedHash = async (username: string) => {
    const [row] = await server.storedRows(`SELECT password_hash FROM users WHERE username = '${username}'`);
    return String(row?.password_hash);
  };

  it('re-hashes a hash made at another cost at the configured one on the next successful sign-in', async () => {
    const current = passwordCost();
    const other = { ...current, N: current.N * 2 };
    await server.addUser('erin', 'erin-password-1', ['generators'], { cost: other });
    const old = await storedHash('erin');
    expect(old.startsWith(`scrypt$${other.N}$8$1$`)).toBe(true);
    expectProblem(await login(server.baseUrl, 'erin', 'not-erins-password'), 401);
    expect(await storedHash('erin')).toBe(old);

    const first = await signInAs(server.baseUrl, 'erin', 'erin-password-1');
    const upgraded = await storedHash('erin');
    expect(upgraded.startsWith(`scrypt$${current.N}$8$1$`)).toBe(true);
    expect(upgraded.split('$')[4]).not.toBe(old.split('$')[4]);
    // The same password: the sign-in that upgraded it keeps its token, and the new hash verifies.
    expect((await post(server.baseUrl, PATHS.generatorTotals, first.token, {})).status).toBe(200);
    await signInAs(server.baseUrl, 'erin', 'erin-password-1');
    expect(await storedHash('erin')).toBe(upgraded);
  });

  it('revokes every token of a user at once when the password is replaced', async () => {
    await server.addUser('frank', 'frank-password-1', ['manifests']);
    const session = await signInAs(server.baseUrl, 'frank', 'frank-password-1');
    expect((await post(server.baseUrl, PATHS.manifestTotals, session.token, {})).status).toBe(200);
    await server.addUser('frank', 'frank-password-2', ['manifests'], {
      replace: true,
      passwordHash: await hashPassword('frank-password-2'),
    });
    expectProblem(await post(server.baseUrl, PATHS.manifestTotals, session.token, {}), 401);
    expect((await login(server.baseUrl, 'frank', 'frank-password-2')).status).toBe(200);
  });
});

describe('the accounts CLI (npm run users)', () => {
  const cli = resolve(import.meta.dirname, '../../server/src/cli/users.ts');

  /**
   * Runs the CLI; the password goes in TRACKER_PASSWORD, or on standard input when `stdin` is given.
   * `environment` replaces variables of this process's environment, one set to undefined removes it.
   */
  function users(
    args: string[],
    password?: string,
    stdin?: string,
    environment: NodeJS.ProcessEnv = {},
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((done, fail) => {
      const env: NodeJS.ProcessEnv = { ...process.env, TRACKER_PASSWORD: password ?? '', ...environment };
      for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
      const child = spawn(process.execPath, [cli, '--db', server.databaseUrl ?? dbPath, ...args], {
        env,
        stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      });
      child.stdin?.end(stdin);
      let stdout = '';
      let stderr = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  }

  it('adds an account that can sign in with its scope, lists it, and removes it with its tokens', async () => {
    const added = await users(['add', 'alice', '--scopes', 'generators'], 'alice-password-1');
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('alice');

    const signedIn = await login(server.baseUrl, 'alice', 'alice-password-1');
    expect(signedIn.status).toBe(200);
    const { access_token: token, scopes } = signedIn.body as { access_token: string; scopes: string[] };
    expect(scopes).toEqual(['generators']);
    expect((await post(server.baseUrl, PATHS.generatorTotals, token, {})).status).toBe(200);
    expectProblem(await post(server.baseUrl, PATHS.manifestTotals, token, {}), 403);

    const listed = await users(['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^alice\tgenerators\t/m);
    expect(listed.stdout).toMatch(/^inspector\tgenerators,manifests\t/m);
    expect(listed.stdout).not.toContain('scrypt');

    const removed = await users(['remove', 'alice']);
    expect(removed.code, removed.stderr).toBe(0);
    expectProblem(await post(server.baseUrl, PATHS.generatorTotals, token, {}), 401);
    expectProblem(await login(server.baseUrl, 'alice', 'alice-password-1'), 401);
    expect((await users(['list'])).stdout).not.toMatch(/^alice\t/m);
  });

  it('reads the password from standard input when TRACKER_PASSWORD is not set', async () => {
    const added = await users(
      ['add', 'dave', '--scopes', 'manifests,generators'],
      undefined,
      'dave-password-1\n',
    );
    expect(added.code, added.stderr).toBe(0);
    const signedIn = await login(server.baseUrl, 'dave', 'dave-password-1');
    expect(signedIn.status).toBe(200);
    expect((signedIn.body as { scopes: string[] }).scopes).toEqual(['manifests', 'generators']);
    expect((await users(['remove', 'dave'])).code).toBe(0);
  });

  it('changes a password with passwd, ending the sign-ins made with the old one at once', async () => {
    expect((await users(['add', 'grace', '--scopes', 'generators'], 'grace-password-1')).code).toBe(0);
    const session = await signInAs(server.baseUrl, 'grace', 'grace-password-1');
    expect((await post(server.baseUrl, PATHS.generatorTotals, session.token, {})).status).toBe(200);

    const changed = await users(['passwd', 'grace'], 'grace-password-2');
    expect(changed.code, changed.stderr).toBe(0);
    expectProblem(await post(server.baseUrl, PATHS.generatorTotals, session.token, {}), 401);
    expectProblem(await login(server.baseUrl, 'grace', 'grace-password-1'), 401);
    expect((await login(server.baseUrl, 'grace', 'grace-password-2')).status).toBe(200);

    const missing = await users(['passwd', 'nobody-at-all'], 'long-enough-password');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no user "nobody-at-all"');
    const short = await users(['passwd', 'grace'], 'short');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 8 characters');
    expect((await users(['remove', 'grace'])).code).toBe(0);
  });

  it("hashes at OWASP's minimum (N=2^17, r=8, p=1) unless TRACKER_PASSWORD_COST says otherwise", async () => {
    const added = await users(['add', 'heidi', '--scopes', 'generators'], 'heidi-password-1', undefined, {
      [PASSWORD_COST_VARIABLE]: undefined,
    });
    expect(added.code, added.stderr).toBe(0);
    const [row] = await server.storedRows(`SELECT password_hash FROM users WHERE username = 'heidi'`);
    const { N, r, p } = OWASP_MINIMUM_COST;
    expect([N, r, p]).toEqual([131072, 8, 1]);
    expect(String(row?.password_hash).startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);

    const raised = await users(['passwd', 'heidi'], 'heidi-password-2', undefined, {
      [PASSWORD_COST_VARIABLE]: '13',
    });
    expect(raised.code, raised.stderr).toBe(0);
    const [changed] = await server.storedRows(`SELECT password_hash FROM users WHERE username = 'heidi'`);
    expect(String(changed?.password_hash).startsWith(`scrypt$${2 ** 13}$8$1$`)).toBe(true);
    expect((await users(['remove', 'heidi'])).code).toBe(0);
  });

  it('refuses a TRACKER_PASSWORD_COST it cannot use with exit code 2, saying what it takes', async () => {
    for (const bad of ['9', '20', '2^17', 'high']) {
      const result = await users(['add', 'ivan', '--scopes', 'generators'], 'ivan-password-1', undefined, {
        [PASSWORD_COST_VARIABLE]: bad,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`TRACKER_PASSWORD_COST is the scrypt cost as a power of two, 10–19`);
      expect(result.stderr).toContain(`got "${bad}"`);
    }
    expect((await users(['list'])).stdout).not.toMatch(/^ivan\t/m);
  });

  it('refuses unknown scopes with exit code 2 and a message naming them', async () => {
    const result = await users(['add', 'bob', '--scopes', 'generators,admin'], 'bob-password-1');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown scope "admin"');
    expect(result.stderr).toContain('generators, manifests');
    expect((await users(['list'])).stdout).not.toMatch(/^bob\t/m);
  });

  it('refuses a short password, a duplicate user and an unknown user to remove with exit code 2', async () => {
    const short = await users(['add', 'carol', '--scopes', 'manifests'], 'short');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('at least 8 characters');
    const duplicate = await users(['add', 'inspector', '--scopes', 'manifests'], 'long-enough-password');
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toContain('already exists');
    const missing = await users(['remove', 'nobody-at-all']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no user "nobody-at-all"');
  });

  it('refuses a database file that does not exist with that sentence alone, and a bad argument with the usage', async () => {
    const missing = join(dir, 'missing.db');
    const refused = await users(['--db', missing, 'list']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(`no database at ${missing}`);
    const misused = await users(['list', 'extra', 'more']);
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain('unexpected arguments: extra more');
    expect(misused.stderr).toContain('usage:');
  });
});
