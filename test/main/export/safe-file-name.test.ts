import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../shared/ipc/contract.ts';
import { createBridgeContext } from '../../../main/src/bridge/services.ts';
import type { HandlerContext } from '../../../main/src/ipc/handlers.ts';
import { FILE_NAME_BYTES_MAX, fileInFolder, safeFileName } from '../../../main/src/export/safe-file-name.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, temporaryFolder } from '../support.ts';

/** What no safe name may hold, whatever it was made from. */
function expectSafe(name: string, extension: string): void {
  expect(name).not.toMatch(/[/\\:*?"<>|]/);
  // eslint-disable-next-line no-control-regex -- control characters are what must be gone
  expect(name).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
  expect(name).not.toContain('..');
  expect(name).not.toMatch(/^[\s.]/);
  expect(name.endsWith(`.${extension}`)).toBe(true);
  expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(FILE_NAME_BYTES_MAX);
  expect(name.split('.')[0]).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)$/i);
}

describe('safeFileName', () => {
  it.each([
    ['Generator /../../../../home/u/x', 'Generator _._._._._home_u_x.xlsx'],
    ['Generator ..\\..\\Windows\\win.ini', 'Generator ._._Windows_win.ini.xlsx'],
    ['../../etc/passwd', '_._etc_passwd.xlsx'],
    ['..', 'Export.xlsx'],
    ['   ', 'Export.xlsx'],
    ['.bashrc', 'bashrc.xlsx'],
    ['CON', '_CON.xlsx'],
    ['com1.txt', '_com1.txt.xlsx'],
    ['LPT9 ', '_LPT9.xlsx'],
    ['nul.tar', '_nul.tar.xlsx'],
    ['CONSOLE', 'CONSOLE.xlsx'],
    ['Generator CAD\u0000\u0007\u001b[31m', 'Generator CAD[31m.xlsx'],
    ['invoice\u202Excsl.exe', 'invoicexcsl.exe.xlsx'],
    ['a:b*c?d"e<f>g|h', 'a_b_c_d_e_f_g_h.xlsx'],
    ['line\nbreak\ttab', 'line break tab.xlsx'],
    ['trailing dots...', 'trailing dots.xlsx'],
    ['Manifests 2026-11-23', 'Manifests 2026-11-23.xlsx'],
    ['Société Générale — Zürich 東京', 'Société Générale — Zürich 東京.xlsx'],
  ])('%j becomes %j', (stem, expected) => {
    const name = safeFileName(stem, 'xlsx');
    expect(name).toBe(expected);
    expectSafe(name, 'xlsx');
  });

  it('caps the length in bytes without cutting a character, and keeps the extension', () => {
    const name = safeFileName(`Generator ${'東'.repeat(300)}`, 'csv');
    expectSafe(name, 'csv');
    expect(name).toMatch(/^Generator 東+\.csv$/);
    expect(new TextEncoder().encode(name).length).toBeGreaterThan(FILE_NAME_BYTES_MAX - 3);
  });

  it('keeps a pair of surrogates (an emoji) and drops a lone one', () => {
    expect(safeFileName('a\u{1F4C4}b\ud800c', 'csv')).toBe('a\u{1F4C4}bc.csv');
  });
});

describe('fileInFolder', () => {
  it('answers the path of a plain name in the folder', () => {
    expect(fileInFolder('/tmp/x', 'a b.xlsx')).toBe('/tmp/x/a b.xlsx');
  });

  it.each(['../a.xlsx', '/etc/passwd', 'sub/a.xlsx', '..', '.', ''])('refuses %j', (name) => {
    expect(() => fileInFolder('/tmp/x', name)).toThrow(/would leave the folder/);
  });
});

/**
 * A profile export behind the bridge, of generators whose EPA IDs a hostile server chose: the file lands in
 * the bridge's download folder for it, named safely, and nothing is written anywhere else.
 */
describe('a profile export of a hostile id behind the bridge', () => {
  const HOSTILE = ['/../../../../x', '..\\..\\CON', 'CAD\u202Egpj.exe'];
  let server: TrackerServer;
  let databaseDir: string;
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let context: HandlerContext;
  const events: { event: EventName; payload: unknown }[] = [];
  const saved: string[] = [];

  beforeAll(async () => {
    const built = await buildTestDatabase(200, 3);
    databaseDir = built.dir;
    const db = new Database(built.path);
    const ids = db.prepare('SELECT id FROM generators ORDER BY id LIMIT ?').pluck().all(HOSTILE.length);
    HOSTILE.forEach((hostile, index) =>
      db.prepare('UPDATE generators SET epa_handler_id = ? WHERE id = ?').run(hostile, ids[index]),
    );
    db.close();
    server = await startTrackerServer({ dbPath: built.path });
    folder = await temporaryFolder();
    context = await createBridgeContext({
      userDataDir: join(folder.dir, 'user-data'),
      apiBaseUrl: server.baseUrl,
      emit: (event, payload) => events.push({ event, payload }),
      log: () => undefined,
      onExportSaved: (_id, path) => saved.push(path),
      onExportFailed: () => undefined,
      removeDownloads: () => Promise.resolve(),
    });
    const signedIn = await context.session.signIn({ ...DEMO_USERS.inspector, remember: false });
    if (!signedIn.ok) throw new Error(signedIn.error.message);
  }, 60_000);

  afterAll(async () => {
    await server.close();
    await rm(databaseDir, { recursive: true, force: true });
    await folder.remove();
  });

  it.each(HOSTILE)('writes the profile of %j inside its download folder', async (hostile) => {
    const started = await context.exports.profile({ handler_id: hostile });
    if (!started.ok || !started.data) throw new Error(`the export did not start: ${JSON.stringify(started)}`);
    const { id } = started.data;
    await expect
      .poll(() =>
        events.find(
          (entry) => (entry.payload as { id?: string }).id === id && entry.event !== 'export.progress',
        ),
      )
      .toBeDefined();
    const outcome = events.find(
      (entry) => (entry.payload as { id?: string }).id === id && entry.event === 'export.done',
    );
    expect(outcome?.payload as EventPayload<'export.done'>).toMatchObject({ id });
    const path = saved.at(-1) ?? '';
    const downloads = join(folder.dir, 'user-data', 'downloads');
    expect(dirname(dirname(path))).toBe(downloads);
    expect(relative(downloads, path).split('/')).toHaveLength(2);
    expectSafe(basename(path), 'xlsx');
    // Nothing beside the user-data folder, nothing in it but what the app keeps there.
    expect(await readdir(folder.dir)).toEqual(['user-data']);
  });
});
