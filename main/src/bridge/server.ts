/**
 * The loopback browser bridge: the second thin adapter over the main-process handlers (the first is
 * main/src/electron/ipc.ts). It serves the built renderer with the real preload in front of it, answers
 * invocations through the same channel table (same parsing, same handlers), and pushes main's events over
 * a WebSocket. It listens on 127.0.0.1 only, and every request must carry the per-run secret as the first
 * path segment and name the bridge by its own loopback address; the secret check stands where the Electron
 * adapter checks the sender frame. A test and fallback surface, not a second product.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { eventChannelOf } from '../../../shared/ipc/contract.ts';
import { handlers as realHandlers, type Handlers } from '../ipc/handlers.ts';
import { channelTable } from '../ipc/register.ts';
import { createSenderRequests } from '../ipc/requests.ts';
import { APP_ORIGIN, contentTypeOf, resolveAppFile } from '../security/policy.ts';
import type { EmitEvent } from '../session/session.ts';
import { BRIDGE_HOST, bridgeIdentity, checkRequest, newBridgeSecret, type BridgeIdentity } from './guard.ts';
import {
  BRIDGE_FOLDER,
  PRELOAD_SCRIPT,
  bridgeContentSecurityPolicy,
  preloadScript,
  withPreload,
} from './page.ts';
import { BridgeDownloads } from './downloads.ts';
import { createBridgeContext } from './services.ts';

/** An invocation is a few hundred bytes of JSON; this is generous and still bounded. */
const MAX_BODY_BYTES = 1024 * 1024;
const INVOKE_PATH = `/${BRIDGE_FOLDER}/invoke`;
const EVENTS_PATH = `/${BRIDGE_FOLDER}/events`;
const DOWNLOADS_PATH = `/${BRIDGE_FOLDER}/downloads/`;
/** The page shim's channel for a finished export: not part of the IPC contract, only of the bridge. */
const DOWNLOAD_CHANNEL = 'bridge:download';

export interface BridgeOptions {
  /** The electron-vite build of the renderer, out/renderer. */
  rendererRoot: string;
  /** The preload bundle, out/preload/index.cjs. */
  preloadFile: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Settings and saved sign-in; a new temp folder, removed on close, when absent. */
  userDataDir?: string;
  apiBaseUrl?: string;
  /** Rows an export's sheet may hold: Excel's limit unless a test lowers it to see a split. */
  sheetRows?: number;
  /** The handlers behind the channels; the real ones unless a test stands in for them. */
  handlers?: Handlers;
  log?: (message: string) => void;
}

export interface RunningBridge {
  /** The page to open, secret included: http://127.0.0.1:PORT/SECRET/ */
  url: string;
  origin: string;
  port: number;
  secret: string;
  userDataDir: string;
  close(): Promise<void>;
}

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const ownsUserData = options.userDataDir === undefined;
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'waste-tracker-bridge-')));
  const sockets = new Set<WebSocket>();
  const emit: EmitEvent = (event, payload) => {
    const message = JSON.stringify({ channel: eventChannelOf(event), payload });
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(message);
  };
  // Finished exports by id, each offered once to the page as a download of its file.
  const downloads = new BridgeDownloads(userDataDir);
  await downloads.sweep();
  const onExportSaved = (id: string, path: string) => {
    downloads.add(id, path);
    const message = JSON.stringify({
      channel: DOWNLOAD_CHANNEL,
      payload: { url: `downloads/${id}`, fileName: basename(path) },
    });
    for (const socket of sockets) if (socket.readyState === socket.OPEN) socket.send(message);
  };
  const context = await createBridgeContext({
    userDataDir,
    apiBaseUrl: options.apiBaseUrl,
    emit,
    log,
    onExportSaved,
    onExportFailed: (_id, target) => void downloads.discard(target),
    removeDownloads: () => downloads.removeAll(),
    ...(options.sheetRows ? { sheetRows: options.sheetRows } : {}),
  });
  const table = channelTable(options.handlers ?? realHandlers, (message, error) =>
    log(`${message}: ${String(error)}`),
  );
  // Whoever holds the secret is the bridge's one sender (the page it serves), so there is one request
  // table; it plays the part of the Electron adapter's table per window.
  const requests = createSenderRequests();
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: BRIDGE_HOST, port: options.port ?? 0 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    if (ownsUserData) await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const secret = newBridgeSecret();
  // Listeners are added below, before the event loop can hand this server its first connection.
  const identity: BridgeIdentity = bridgeIdentity(port, secret);

  function refuse(request: IncomingMessage, response: ServerResponse, reason: string): void {
    log(`The bridge refused a ${request.method} request: ${reason}.`);
    sendText(response, 403, 'Forbidden');
  }

  async function invoke(request: IncomingMessage): Promise<unknown> {
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      throw new HttpError(415, 'An invocation is a JSON body.');
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, 'The invocation is not valid JSON.');
    }
    const channel =
      typeof body === 'object' && body !== null ? (body as { channel?: unknown }).channel : undefined;
    const entry = typeof channel === 'string' ? table.get(channel) : undefined;
    if (!entry) throw new HttpError(404, `No handler registered for ${JSON.stringify(channel)}.`);
    const { input, options } = body as { input?: unknown; options?: unknown };
    return entry.invoke(input, context, { options, requests });
  }

  async function serveFile(response: ServerResponse, path: string, method: string): Promise<void> {
    const origin = identity.origin;
    if (path === `/${PRELOAD_SCRIPT}`) {
      sendPage(
        response,
        method,
        origin,
        'text/javascript; charset=utf-8',
        await preloadScript(options.preloadFile),
      );
      return;
    }
    const file = resolveAppFile(`${APP_ORIGIN}${path}`, options.rendererRoot);
    if (file === undefined || path.startsWith(`/${BRIDGE_FOLDER}/`))
      return sendText(response, 404, 'Not found');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return sendText(response, 404, 'Not found');
    }
    const isEntry = file === join(options.rendererRoot, 'index.html');
    sendPage(
      response,
      method,
      origin,
      contentTypeOf(file),
      isEntry ? withPreload(body.toString('utf8')) : body,
    );
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const method = request.method ?? 'GET';
    // Browsers ask every origin for its icon unprompted; an empty answer tells nobody anything.
    if (request.url === '/favicon.ico' && method === 'GET') return void response.writeHead(204).end();
    const verdict = checkRequest(identity, request, { requireOrigin: method !== 'GET' && method !== 'HEAD' });
    if (!verdict.allowed) return refuse(request, response, verdict.reason);
    const handle = async (): Promise<void> => {
      if (verdict.path === '') {
        response.writeHead(308, { location: `/${secret}/`, 'referrer-policy': 'no-referrer' }).end();
      } else if (verdict.path === INVOKE_PATH) {
        if (method !== 'POST') throw new HttpError(405, 'Invocations are POSTed.');
        sendJson(response, 200, await invoke(request));
      } else if (verdict.path.startsWith(DOWNLOADS_PATH) && method === 'GET') {
        await downloads.serve(response, verdict.path.slice(DOWNLOADS_PATH.length));
      } else if (method === 'GET' || method === 'HEAD') {
        await serveFile(response, verdict.path, method);
      } else {
        throw new HttpError(405, 'Method not allowed');
      }
    };
    handle().catch((error: unknown) => {
      if (!(error instanceof HttpError))
        log(`The bridge failed on ${method} ${verdict.path}: ${String(error)}`);
      const status = error instanceof HttpError ? error.status : 500;
      if (!response.headersSent)
        sendText(response, status, error instanceof HttpError ? error.message : 'Failed');
      else response.destroy();
    });
  });

  const events = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  server.on('upgrade', (request, socket, head) => {
    const verdict = checkRequest(identity, request, { requireOrigin: true });
    if (!verdict.allowed || verdict.path !== EVENTS_PATH) {
      log(`The bridge refused an event socket: ${verdict.allowed ? 'wrong path' : verdict.reason}.`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    events.handleUpgrade(request, socket, head, (client) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      // The page only listens: what it sends is ignored, and a socket that breaks the protocol is dropped.
      client.on('message', () => undefined);
      client.on('error', () => client.terminate());
    });
  });

  return {
    url: `${identity.origin}/${secret}/`,
    origin: identity.origin,
    port,
    secret,
    userDataDir,
    async close() {
      requests.cancelAll();
      // Exports stop and remove their temporary files before the folder they may be in goes.
      await context.exports.cancelAll();
      for (const socket of sockets) socket.terminate();
      events.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsUserData) await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, 'The invocation is too large.'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response
    .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    .end(text);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    .end(JSON.stringify(value));
}

/** The headers the Electron app protocol sends, with the bridge's CSP; nothing is cached, the URL holds the secret. */
function sendPage(
  response: ServerResponse,
  method: string,
  origin: string,
  contentType: string,
  body: string | Buffer,
): void {
  response.writeHead(200, {
    'content-type': contentType,
    'content-security-policy': bridgeContentSecurityPolicy(origin),
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  response.end(method === 'HEAD' ? undefined : body);
}
