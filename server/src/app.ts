/**
 * The tracker API as a Fastify plugin-style factory: problem handlers, the JSON body parser, the Bearer
 * guard, then the routes. The entry (server.ts) only opens the database and listens.
 */
import type { Database } from 'better-sqlite3';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { LIMITS, type Dialect } from '../../shared/api/index.ts';
import { guard } from './auth/guard.ts';
import { DEFAULT_THROTTLE, LoginThrottle, type ThrottleOptions } from './auth/throttle.ts';
import { TokenStore } from './auth/tokens.ts';
import { HttpProblem, registerProblemHandlers } from './http/problem.ts';
import { DetailRepository } from './repositories/detail-repository.ts';
import { GeneratorsRepository } from './repositories/generators-repository.ts';
import { ManifestsRepository } from './repositories/manifests-repository.ts';
import { authRoutes } from './routes/auth.ts';
import { trackerRoutes } from './routes/tracker.ts';

export interface AppOptions {
  db: Database;
  dialect?: Dialect;
  /** Lifetime of an access token; default 8 hours. */
  tokenTtlMs?: number;
  throttle?: ThrottleOptions;
  /** Fastify's logger: false for none, true or an object for pino options. */
  logger?: FastifyServerOptions['logger'];
  /** Read the lookup lists and unfiltered totals before the first request. */
  warm?: boolean;
}

/** A route as registered, for the auth test to walk every one of them rather than a hand-kept list. */
export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    registeredRoutes: readonly RegisteredRoute[];
  }
}

export const DEFAULT_TOKEN_TTL_MS = 8 * 60 * 60 * 1000;

export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, written below, instead of Fastify's two; it never includes headers or bodies.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: LIMITS.bodyBytesMax,
    trustProxy: false,
  });
  registerProblemHandlers(app);

  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, public: route.config?.public === true });
    }
  });

  // JSON bodies; an empty body reads as "no body" so that schema validation names what is missing.
  // Only JSON: Fastify's text/plain parser would turn a text body into a string and hide the 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpProblem(400, 'the request body is not valid JSON'), undefined);
    }
  });

  const tokens = new TokenStore(options.db, { ttlMs: options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS });
  const throttle = new LoginThrottle(options.throttle ?? DEFAULT_THROTTLE);
  const generators = new GeneratorsRepository(options.db);
  const manifests = new ManifestsRepository(options.db);
  const details = new DetailRepository(options.db);
  if (options.warm ?? true) {
    generators.warm();
    manifests.warm();
  }

  app.addHook('onRequest', guard(tokens));
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.owner?.username,
      },
      'request',
    );
  });

  authRoutes(app, { db: options.db, tokens, throttle });
  trackerRoutes(app, { generators, manifests, details, dialect: options.dialect ?? 'sample' });
  return app;
}
