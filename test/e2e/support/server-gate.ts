/**
 * A loopback door in front of the reference server that a test can shut and open again on the same port:
 * shut, every connection is dropped and new ones are refused, exactly as when the server is stopped; the
 * app keeps the same server address, so its saved data (per server and user) stays its own. Held, the
 * connections stay up but nothing the app sends reaches the server until it is let go, as with a server
 * that is slow to answer.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class ServerGate {
  readonly port: number;
  private readonly target: URL;
  private server: Server | null;
  private readonly sockets = new Set<Socket>();
  /** While held: each connection's way to the server, to be joined when the gate lets go. */
  private held: { client: Socket; upstream: Socket }[] | null = null;
  /** Each open connection from the app, and its connection to the server. */
  private readonly upstreams = new Map<Socket, Socket>();

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

  private listen(port: number): Promise<number> {
    const server = createServer((client) => {
      const upstream = createConnection({ host: this.target.hostname, port: Number(this.target.port) });
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      this.upstreams.set(client, upstream);
      client.on('close', () => this.upstreams.delete(client));
      upstream.pipe(client);
      if (this.held) this.held.push({ client, upstream });
      else client.pipe(upstream);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
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
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Holds what the app sends, on the connections it has and on new ones, until `letGo`. */
  hold(): void {
    if (this.held) return;
    this.held = [];
    for (const [client, upstream] of this.upstreams) {
      client.unpipe(upstream);
      client.pause();
      this.held.push({ client, upstream });
    }
  }

  /** Sends on what was held, and everything after. */
  letGo(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const { client, upstream } of held)
      if (!client.destroyed && !upstream.destroyed) client.pipe(upstream);
  }

  /** As if the server started again, on the same address, letting go of anything held. */
  async reopen(): Promise<void> {
    this.letGo();
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.shut();
  }
}
