/**
 * A loopback door in front of the reference server that a test can shut and open again on the same port:
 * shut, every connection is dropped and new ones are refused, exactly as when the server is stopped; the
 * app keeps the same server address, so its saved data (per server and user) stays its own.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class ServerGate {
  readonly port: number;
  private readonly target: URL;
  private server: Server | null;
  private readonly sockets = new Set<Socket>();

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
      client.pipe(upstream).pipe(client);
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

  /** As if the server started again, on the same address. */
  async reopen(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.shut();
  }
}
