/**
 * The launchers' demo server keeps one address from run to run when it can, so a remembered sign-in
 * (kept for one server address) survives `npm start`; when the port is taken it still starts, elsewhere.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALLBACK_API_BASE_URL } from '../../main/src/settings/launch-options.ts';
import { DEMO_SERVER_PORT, isPortFree, startDemoServer } from '../../scripts/launch.ts';
import { buildTestDatabase } from '../helpers/tracker-server.ts';

let database: { dir: string; path: string };
beforeAll(async () => {
  database = await buildTestDatabase(200);
});
afterAll(() => rmSync(database.dir, { recursive: true, force: true }));

function occupy(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  return new Promise((resolvePort) =>
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      resolvePort({ port: typeof address === 'object' && address ? address.port : 0, server });
    }),
  );
}

const close = (server: Server) => new Promise<void>((resolveClose) => server.close(() => resolveClose()));

describe('the demo server port', () => {
  it('is the app’s fallback address, so a launch with no address still finds it', () => {
    expect(`http://127.0.0.1:${DEMO_SERVER_PORT}`).toBe(FALLBACK_API_BASE_URL);
  });

  it('is used again on every start while it is free', async () => {
    const { port, server } = await occupy();
    await close(server);
    expect(await isPortFree(port)).toBe(true);
    for (let run = 0; run < 2; run += 1) {
      const demo = await startDemoServer({ db: database.path, port });
      try {
        expect(demo.url).toBe(`http://127.0.0.1:${port}`);
      } finally {
        await demo.stop();
      }
    }
  });

  it('gives way to whatever holds it, and the server starts on a free port instead', async () => {
    const { port, server } = await occupy();
    try {
      expect(await isPortFree(port)).toBe(false);
      const demo = await startDemoServer({ db: database.path, port });
      try {
        const actual = Number(new URL(demo.url).port);
        expect(actual).not.toBe(port);
        expect((await fetch(`${demo.url}/api/tracker/generators/filters/?field=naics&page=1`)).status).toBe(
          401,
        );
      } finally {
        await demo.stop();
      }
    } finally {
      await close(server);
    }
  });
});
