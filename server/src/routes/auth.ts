/** Login and logout (docs/api.md, "Authentication"; the spec leaves the login operation "not shown"). */
import type { FastifyInstance } from 'fastify';
import { LoginRequest } from '../../../shared/api/index.ts';
import type { LoginThrottle } from '../auth/throttle.ts';
import type { TokenStore } from '../auth/tokens.ts';
import { findUser, parseScopes } from '../auth/users.ts';
import { verifyPassword } from '../auth/passwords.ts';
import { HttpProblem, validationProblem } from '../http/problem.ts';
import type { Database } from 'better-sqlite3';

/** Verifies a password even for an unknown user, so the answer time does not tell which names exist. */
const UNKNOWN_USER_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

export function authRoutes(
  app: FastifyInstance,
  deps: { db: Database; tokens: TokenStore; throttle: LoginThrottle },
) {
  app.post('/api/tracker/auth/login/', async (request, reply) => {
    const parsed = LoginRequest.safeParse(request.body);
    if (!parsed.success) throw validationProblem(parsed.error, 'body');
    const { username, password } = parsed.data;
    const address = request.ip;
    const wait = deps.throttle.retryAfter(username, address);
    if (wait > 0) {
      throw new HttpProblem(429, `too many failed sign-ins; try again in ${wait} s`, {
        headers: { 'retry-after': String(wait) },
      });
    }
    const user = findUser(deps.db, username);
    const matches = await verifyPassword(password, user?.password_hash ?? UNKNOWN_USER_HASH);
    if (!user || !matches) {
      deps.throttle.fail(username, address);
      throw new HttpProblem(401, 'the user name or password is wrong', {
        headers: { 'www-authenticate': 'Bearer realm="tracker"' },
      });
    }
    deps.throttle.succeed(username, address);
    return reply.send({
      access_token: deps.tokens.issue(user.id),
      token_type: 'Bearer',
      expires_in: deps.tokens.ttlSeconds,
      scopes: parseScopes(user.scopes),
    });
  });

  app.post(
    '/api/tracker/auth/logout/',
    { config: { scopes: ['generators', 'manifests'] } },
    async (request, reply) => {
      if (request.bearerToken) deps.tokens.revoke(request.bearerToken);
      return reply.code(204).send();
    },
  );
}
