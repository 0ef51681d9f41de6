/**
 * The Bearer check (spec 5), deny by default: every route under /api/tracker/ needs a live token unless it is
 * marked `public` (login). A missing, unknown, revoked or expired token is a 401 with `WWW-Authenticate:
 * Bearer`; a valid token without one of the route's `scopes` is a 403 naming them. An unknown path stays a
 * 404 whoever asks: there is nothing behind it to protect.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Scope } from '../../../shared/api/index.ts';
import { HttpProblem } from '../http/problem.ts';
import type { TokenOwner, Tokens } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    owner?: TokenOwner;
    bearerToken?: string;
  }
  interface FastifyContextConfig {
    /** Scopes of which the caller needs at least one; absent means any signed-in caller. */
    scopes?: readonly Scope[];
    /** Reachable without a token. Only sign-in is. */
    public?: boolean;
  }
}

const REALM = 'Bearer realm="tracker"';
const API_PREFIX = '/api/tracker/';

function unauthorized(detail: string, error?: 'invalid_token'): HttpProblem {
  return new HttpProblem(401, detail, {
    headers: { 'www-authenticate': error ? `${REALM}, error="${error}"` : REALM },
  });
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(header);
  return match?.[1];
}

/** The route's rule, before the token is verified: false when the route needs no token. */
function needsToken(request: FastifyRequest): boolean {
  if (request.is404) return false;
  const { url, config } = request.routeOptions;
  return config.public !== true && url?.startsWith(API_PREFIX) === true;
}

function admit(request: FastifyRequest, token: string | undefined, owner: TokenOwner | undefined): void {
  if (!token || !owner) {
    throw unauthorized('the access token is invalid or has expired; sign in again', 'invalid_token');
  }
  request.owner = owner;
  request.bearerToken = token;
  const scopes = request.routeOptions.config.scopes;
  if (scopes && !scopes.some((scope) => owner.scopes.includes(scope))) {
    throw new HttpProblem(
      403,
      `user "${owner.username}" lacks the "${scopes.join('" or "')}" permission this endpoint needs`,
    );
  }
}

/**
 * An onRequest hook: runs before the body is read, so an unauthenticated request costs no parsing. A store
 * that verifies in process (SQLite) answers at once and the hook runs without a promise; one that asks a
 * database server (PostgreSQL) answers later.
 */
export function guard(tokens: Tokens) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const fail = (error: unknown) => done(error instanceof Error ? error : new Error(String(error)));
    try {
      if (!needsToken(request)) return done();
      if (!request.headers.authorization) {
        throw unauthorized('sign in first: send Authorization: Bearer <token>');
      }
      const token = bearerToken(request);
      const owner = token === undefined ? undefined : tokens.verify(token);
      if (owner instanceof Promise) {
        owner.then((found) => {
          try {
            admit(request, token, found);
            done();
          } catch (error) {
            fail(error);
          }
        }, fail);
        return;
      }
      admit(request, token, owner);
      done();
    } catch (error) {
      fail(error);
    }
  };
}
