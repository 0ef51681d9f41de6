/**
 * `npm run start:browser` as a user runs it (over a small database, reusing the suite's build): when its
 * demo server stops, the app keeps running, shows the server as unreachable in its normal error display,
 * and the console says why. It stops only on Ctrl-C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';
import { buildTestDatabase } from '../helpers/tracker-server.ts';
import { DEMO_USERS } from './support/app.ts';
import { signInThroughUi } from './support/workspace.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Resolves with the first line of `lines` that matches, and with every line seen in `seen`. */
function lineMatching(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp, seen: string[]) {
  return new Promise<RegExpMatchArray>((resolveLine, reject) => {
    const lines = createInterface({ input: child[stream]! });
    lines.on('line', (line) => {
      seen.push(line);
      const match = line.match(pattern);
      if (match) resolveLine(match);
    });
    child.once('exit', () =>
      reject(new Error(`start:browser ended before printing ${pattern}:\n${seen.join('\n')}`)),
    );
  });
}

test('start:browser keeps the app running when its demo server stops, and says so', async ({ page }) => {
  test.setTimeout(90_000);
  const database = await buildTestDatabase(300);
  const launcher = spawn(
    process.execPath,
    [resolve(ROOT, 'scripts/start-browser.ts'), '--db', database.path, '--no-build'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolveExit) =>
    launcher.once('exit', (code) => resolveExit(code)),
  );
  const console: string[] = [];
  try {
    const serverLine = lineMatching(launcher, 'stderr', /Tracker API on (\S+) \(process (\d+)\)/, console);
    const stopped = lineMatching(launcher, 'stderr', /The demo server stopped/, console);
    const [url] = await lineMatching(launcher, 'stdout', /^http:\/\/127\.0\.0\.1:\d+\/\S+\/$/, []);
    const [, , pid] = await serverLine;

    await page.goto(url);
    await signInThroughUi(page, DEMO_USERS.inspector);
    await expect(page.getByRole('grid').first()).toBeVisible();

    process.kill(Number(pid), 'SIGTERM');
    const { input: message } = await stopped;
    expect(message).toContain('The app keeps running');

    // The next request meets no server: the workspace says so in its error display, and the bridge lives.
    await page.getByRole('searchbox', { name: 'Search generators' }).fill('chem');
    await expect(page.getByRole('alert').first()).toContainText('could not be loaded offline');
    expect(launcher.exitCode).toBeNull();
    expect((await page.request.get(url)).status()).toBe(200);

    launcher.kill('SIGTERM');
    expect(await exited).toBe(0);
  } finally {
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    rmSync(database.dir, { recursive: true, force: true });
  }
});
