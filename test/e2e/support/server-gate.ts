/**
 * A loopback door in front of the reference server that a test can put in the ways a server fails in the
 * field, on the same port, so the app keeps the same server address and its saved data (per server and
 * user) stays its own:
 *
 * - `shut()`: every connection is dropped and new ones are refused, exactly as when the server is stopped;
 * - `hang()`: connections are taken and nothing comes back, as when the server is paused (`kill -STOP`), or
 *   a captive portal or a dying VPN swallows the traffic; what is sent meanwhile is held, and delivered in
 *   order when the gate opens again, as a paused server answers once it runs again;
 * - `slow(ms)`: every answer arrives `ms` late;
 * - `reopen()`: back to passing everything at once.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** How a test makes the server fail: stopped (refusing) or hanging. */
export type ServerFailure = 'stopped' | 'hanging';

type Mode = { kind: 'open' } | { kind: 'hanging' } | { kind: 'slow'; ms: number };

export class ServerGate {
  readonly port: number;
  private readonly target: URL;
  private server: Server | null;
  private readonly sockets = new Set<Socket>();
  private mode: Mode = { kind: 'open' };
  /** Writes held while hanging, in the order they came. */
  private held: (() => void)[] = [];

  private constructor(target: URL, server: Server, port: number) {
    this.target = target;
    this.server = server;
    this.port = port;
  }

  /** Opens a gate on a free port of 127.0.0.1 to the server at `targetUrl`. */
  static async open(targetUrl: string): Promise<ServerGate> {
    const target = new URL(targetUrl);
    const gate = new ServerGate(target, createServer(), 0);
    const port = await gate.listen(0);
    return Object.assign(gate, { port });
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Passes a chunk on as the mode says: at once, held, or late (answers only: `toClient`). */
  private pass(to: Socket, chunk: Buffer, toClient: boolean): void {
    const write = () => {
      if (!to.destroyed) to.write(chunk);
    };
    if (this.mode.kind === 'hanging') this.held.push(write);
    else if (this.mode.kind === 'slow' && toClient) setTimeout(write, this.mode.ms);
    else write();
  }

  /**
   * Ends the app's side of a connection the server ended; held while hanging, as a paused server ends
   * nothing (an idle connection it would have closed meanwhile must not fail a request the gate holds).
   */
  private end(client: Socket): void {
    if (this.mode.kind === 'hanging') this.held.push(() => client.destroy());
    else client.destroy();
  }

  private listen(port: number): Promise<number> {
    const server = createServer((client) => {
      const upstream = createConnection({ host: this.target.hostname, port: Number(this.target.port) });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (chunk: Buffer) => this.pass(upstream, chunk, false));
      upstream.on('data', (chunk: Buffer) => this.pass(client, chunk, true));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => this.end(client));
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** As if the server stopped: open connections drop, new ones are refused. */
  async shut(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.mode = { kind: 'open' };
    this.held = [];
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** As if the server were paused: connections are taken, nothing is answered until the gate reopens. */
  hang(): void {
    this.mode = { kind: 'hanging' };
  }

  /** Every answer `ms` late, until the gate reopens. */
  slow(ms: number): void {
    this.mode = { kind: 'slow', ms };
  }

  /** The server failing as `failure` says. */
  async fail(failure: ServerFailure): Promise<void> {
    if (failure === 'stopped') await this.shut();
    else this.hang();
  }

  /** As if the server started (or ran) again, on the same address: what was held is delivered. */
  async reopen(): Promise<void> {
    this.mode = { kind: 'open' };
    const held = this.held;
    this.held = [];
    for (const write of held) write();
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.shut();
  }
}
