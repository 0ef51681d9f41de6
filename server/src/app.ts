/**
 * The tracker API as a Fastify plugin (`trackerApp`): problem handlers, the JSON body parser, the Host check,
 * the Bearer guard and the request log, then the routes, each group a plugin registered on it. It is wrapped
 * with fastify-plugin so that what it sets up (the error handler, the hooks, `registeredRoutes`) belongs to
 * the instance it is registered on, not to a context of its own. `buildApp` makes that instance with the
 * server options the app needs (body limit, timeouts, connection cap) and registers the app; the entry
 * (server.ts) only opens the database and listens, and tests `inject()` requests into it.
 */
import type { Database } from 'better-sqlite3';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS, type Dialect } from '../../shared/api/index.ts';
import { guard } from './auth/guard.ts';
import { DEFAULT_THROTTLE, type ThrottleOptions } from './auth/throttle.ts';
import { hostCheck, type HostPolicy } from './http/host-check.ts';
import { HttpProblem, registerProblemHandlers } from './http/problem.ts';
import { authRoutes } from './routes/auth.ts';
import { trackerRoutes } from './routes/tracker.ts';
import { sqliteStore } from './store/sqlite-store.ts';
import type { TrackerStore } from './store/store.ts';
import type { ReadPoolOptions } from './workers/read-pool.ts';

export interface AppOptions {
  /**
   * What the API reads and keeps its accounts in (store/store.ts); the caller opens and closes it. `db`
   * instead serves a SQLite database through a store the app makes (and closes) with `readPool`.
   */
  store?: TrackerStore;
  db?: Database;
  dialect?: Dialect;
  /** Lifetime of an access token; default 8 hours. */
  tokenTtlMs?: number;
  throttle?: ThrottleOptions;
  /** Fastify's logger: false for none, true or an object for pino options. */
  logger?: FastifyServerOptions['logger'];
  /** Read the generator matches before the first request. */
  warm?: boolean;
  /** Which Host names are answered; default loopback names only (serve() derives it from the bind address). */
  hosts?: HostPolicy;
  /** Timeouts and the connection cap; each defaults to CONNECTION_LIMITS. */
  connections?: Partial<ConnectionLimits>;
  /**
   * The worker threads that run the requests no index answers (workers/read-pool.ts); false runs them on the
   * main thread. Always false for a database that is not a file (workers open the file by its path).
   */
  readPool?: ReadPoolOptions | false;
  /**
   * Answer as a server that implements only the spec would (docs/api.md "Spec-only mode"): every addition
   * of this server is refused or left out, so a client can be tested against what the spec promises.
   */
  specOnly?: boolean;
}

/** Guards against clients that connect and then send slowly or not at all (docs/api.md "Limits"). */
export interface ConnectionLimits {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this; else 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A connection with no traffic either way for this long is destroyed. */
  idleTimeoutMs: number;
  /** Connections open at once; past it a new connection is closed on arrival. */
  maxConnections: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 512,
};

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

/** The tracker API on the instance it is registered on. */
export const trackerApp = fp(
  async function trackerApp(app: FastifyInstance, options: AppOptions) {
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

    let store = options.store;
    if (!store) {
      if (!options.db) throw new Error('the tracker app needs a store or a SQLite database');
      const own = sqliteStore(options.db, {
        readPool: options.readPool,
        onError: (error) => app.log.error({ err: error }, 'reading the generator matches again failed'),
      });
      app.addHook('onClose', () => own.close());
      store = own;
    }
    const tokens = store.accounts.tokens({ ttlMs: options.tokenTtlMs ?? DEFAULT_TOKEN_TTL_MS });
    const throttle = store.accounts.throttle(options.throttle ?? DEFAULT_THROTTLE);
    if (options.warm ?? true) await store.warm();

    app.addHook('onRequest', hostCheck(options.hosts ?? { loopback: true, names: [] }));
    // New data while serving: an import may commit to the database at any time (docs/api.md).
    app.addHook('onRequest', (_request, _reply, done) => {
      store.checkData();
      done();
    });
    app.addHook('onRequest', guard(tokens));
    // A callback rather than an async function: Fastify then runs the hook without a promise and a microtask.
    app.addHook('onResponse', (request, reply, done) => {
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
      done();
    });

    const specOnly = options.specOnly ?? false;
    await app.register(authRoutes, { accounts: store.accounts, tokens, throttle, specOnly });
    await app.register(trackerRoutes, {
      store,
      dialect: options.dialect ?? 'sample',
      specOnly,
    });
  },
  { fastify: '5.x', name: 'tracker-app' },
);

/** The Fastify instance the app runs on: the limits and timeouts of `options`, and no request log of its own. */
export function buildApp(options: AppOptions): FastifyInstance {
  const limits = { ...CONNECTION_LIMITS, ...options.connections };
  const app = Fastify({
    logger: options.logger ?? false,
    // One line per request, written by the app's own hook, instead of Fastify's two; it never includes
    // headers or bodies.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: LIMITS.bodyBytesMax,
    trustProxy: false,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    http: {
      // Node refuses a headers timeout longer than the request timeout.
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      // Node looks for overdue requests only this often (30 s by default), which would let a stalled body
      // live up to 30 s past its timeout.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs, limits.requestTimeoutMs),
    },
  });
  app.server.maxConnections = limits.maxConnections;
  // Loaded when the app is readied, listens or is first injected into.
  void app.register(trackerApp, options);
  return app;
}
