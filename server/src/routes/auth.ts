/** Login and logout (docs/api.md, "Authentication"; the spec leaves the login operation "not shown"). */
import type { FastifyPluginCallback } from 'fastify';
import { LoginRequest } from '../../../shared/api/index.ts';
import { readRequest } from '../../../shared/query/parse.ts';
import {
  type ScryptCost,
  hashPassword,
  needsRehash,
  passwordCost,
  verifyPassword,
} from '../auth/passwords.ts';
import { parseScopes } from '../auth/users.ts';
import { HttpProblem, validationProblem } from '../http/problem.ts';
import type { Accounts, SignInThrottle, Tokens } from '../store/store.ts';

/**
 * Verified in place of a password hash for an unknown user, at the current cost, so the answer time does
 * not tell which names exist.
 */
function unknownUserHash(cost: ScryptCost): string {
  return [
    'scrypt',
    cost.N,
    cost.r,
    cost.p,
    'AAAAAAAAAAAAAAAAAAAAAA==',
    'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  ].join('$');
}

export interface AuthDeps {
  accounts: Accounts;
  tokens: Tokens;
  throttle: SignInThrottle;
  /** A spec-only server does not tell the scopes (app.ts `specOnly`). */
  specOnly: boolean;
}

/** Registered on the app as a plugin of its own, with what it needs. */
export const authRoutes: FastifyPluginCallback<AuthDeps> = (app, deps, done) => {
  // Read once as the server starts, not at every sign-in.
  const cost = passwordCost();
  const unknownUser = unknownUserHash(cost);
  app.post('/api/tracker/auth/login/', { config: { public: true } }, async (request, reply) => {
    const parsed = readRequest(LoginRequest, request.body);
    if (!parsed.ok) throw validationProblem(parsed.issues, 'body');
    const { username, password } = parsed.value;
    const reservation = await deps.throttle.reserve(username, request.ip);
    if (!reservation.allowed) {
      const wait = reservation.retryAfter;
      throw new HttpProblem(429, `too many failed sign-ins; try again in ${wait} s`, {
        headers: { 'retry-after': String(wait) },
      });
    }
    const user = await deps.accounts.findUser(username);
    const matches = await verifyPassword(password, user?.password_hash ?? unknownUser);
    if (!user || !matches) {
      throw new HttpProblem(401, 'the user name or password is wrong', {
        headers: { 'www-authenticate': 'Bearer realm="tracker"' },
      });
    }
    await reservation.attempt.succeeded();
    if (needsRehash(user.password_hash, cost)) {
      await deps.accounts.replacePasswordHash(
        user.id,
        user.password_hash,
        await hashPassword(password, cost),
      );
    }
    return reply.send({
      access_token: await deps.tokens.issue(user.id),
      token_type: 'Bearer',
      expires_in: deps.tokens.ttlSeconds,
      // The spec has no permission model (spec 5.4: "not shown"); a spec-only server does not tell it.
      ...(deps.specOnly ? {} : { scopes: parseScopes(user.scopes) }),
    });
  });

  app.post('/api/tracker/auth/logout/', async (request, reply) => {
    if (request.bearerToken) await deps.tokens.revoke(request.bearerToken);
    return reply.code(204).send();
  });
  done();
};
