import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Settings } from '../../shared/ipc/contract.ts';
import { FALLBACK_API_BASE_URL, launchDefaults } from '../../main/src/settings/launch-options.ts';
import { openSettingsStore } from '../../main/src/settings/settings-store.ts';
import { temporaryFolder } from './support.ts';

const defaults: Settings = {
  apiBaseUrl: 'http://127.0.0.1:4999',
  pageSize: 100,
  requestTimeoutMs: 20_000,
  theme: 'system',
  plainHttpServers: [],
  removeDataOnSignOut: false,
};

describe('settings store', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let file: string;
  beforeEach(async () => {
    folder = await temporaryFolder();
    file = join(folder.dir, 'settings.json');
  });
  afterEach(() => folder.remove());

  it('starts from the defaults when there is no file yet, and reports nothing', async () => {
    const opened = await openSettingsStore({ file, defaults });
    expect(opened.problem).toBeUndefined();
    expect(opened.store.get()).toEqual(defaults);
  });

  it('round-trips a change through the file into a new store', async () => {
    const { store } = await openSettingsStore({ file, defaults });
    const updated = await store.update({ pageSize: 250, apiBaseUrl: 'https://tracker.example.gov/' });
    expect(updated).toEqual({
      ok: true,
      settings: { ...defaults, apiBaseUrl: 'https://tracker.example.gov/', pageSize: 250 },
    });
    const reopened = await openSettingsStore({ file, defaults });
    expect(reopened.problem).toBeUndefined();
    expect(reopened.store.get()).toEqual({
      ...defaults,
      apiBaseUrl: 'https://tracker.example.gov/',
      pageSize: 250,
    });
  });

  it('keeps only what the user changed, so a new launcher default still applies to the rest', async () => {
    const { store } = await openSettingsStore({ file, defaults });
    await store.update({ pageSize: 50 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ pageSize: 50 });
    const moved = { ...defaults, apiBaseUrl: 'http://127.0.0.1:5123' };
    const reopened = await openSettingsStore({ file, defaults: moved });
    expect(reopened.store.get()).toEqual({ ...moved, pageSize: 50 });
  });

  it.each([
    ['pageSize below the minimum', { pageSize: 5 }, 'pageSize'],
    ['a timeout above the maximum', { requestTimeoutMs: 999_999 }, 'requestTimeoutMs'],
    ['a server address that is not http(s)', { apiBaseUrl: 'file:///etc/passwd' }, 'apiBaseUrl'],
    ['a server address with credentials', { apiBaseUrl: 'https://user:secret@example.gov' }, 'apiBaseUrl'],
    ['a theme that does not exist', { theme: 'sepia' as Settings['theme'] }, 'theme'],
  ])('refuses %s and changes nothing', async (_name, patch, field) => {
    const { store } = await openSettingsStore({ file, defaults });
    const updated = await store.update(patch);
    expect(updated.ok).toBe(false);
    if (!updated.ok) expect(updated.message).toContain(field);
    expect(store.get()).toEqual(defaults);
    await expect(readFile(file, 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it.each([
    ['not JSON', '{"pageSize": 50,'],
    ['an invalid value', JSON.stringify({ pageSize: 'many' })],
    ['a value out of range', JSON.stringify({ requestTimeoutMs: 10 })],
    ['not an object', '[1, 2, 3]'],
  ])('reports a corrupt file (%s), moves it aside and uses the defaults', async (_name, content) => {
    await writeFile(file, content);
    const opened = await openSettingsStore({ file, defaults });
    expect(opened.store.get()).toEqual(defaults);
    expect(opened.problem).toMatch(/could not be used/);
    expect(opened.problem).toContain('moved to');
    const names = await readdir(folder.dir);
    const aside = names.find((name) => name.startsWith('settings.json.corrupt-'));
    expect(aside).toBeDefined();
    expect(await readFile(join(folder.dir, aside!), 'utf8')).toBe(content);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({});
    // The replaced file is good: the next start reports nothing.
    expect((await openSettingsStore({ file, defaults })).problem).toBeUndefined();
  });

  it('ignores members it does not know (a newer version may have written them)', async () => {
    await writeFile(file, JSON.stringify({ pageSize: 200, layout: 'compact' }));
    const opened = await openSettingsStore({ file, defaults });
    expect(opened.problem).toBeUndefined();
    expect(opened.store.get()).toEqual({ ...defaults, pageSize: 200 });
  });

  it('serialises concurrent updates: the last one wins on disk and in memory', async () => {
    const { store } = await openSettingsStore({ file, defaults });
    await Promise.all([10, 20, 30, 40].map((pageSize) => store.update({ pageSize })));
    expect(store.get().pageSize).toBe(40);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ pageSize: 40 });
    expect((await readdir(folder.dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('launch defaults', () => {
  it('falls back to the local default server', () => {
    expect(launchDefaults([], {}).defaults.apiBaseUrl).toBe(FALLBACK_API_BASE_URL);
  });

  it('takes the launcher option, in either spelling, over the environment', () => {
    const env = { WASTE_TRACKER_API_BASE_URL: 'http://127.0.0.1:7000' };
    expect(launchDefaults([], env).defaults.apiBaseUrl).toBe('http://127.0.0.1:7000');
    expect(launchDefaults(['--api-base-url=http://127.0.0.1:7001'], env).defaults.apiBaseUrl).toBe(
      'http://127.0.0.1:7001',
    );
    expect(launchDefaults(['app', '--api-base-url', 'http://127.0.0.1:7002'], env).defaults.apiBaseUrl).toBe(
      'http://127.0.0.1:7002',
    );
  });

  it('reports an unusable launcher address and uses the fallback', () => {
    const launch = launchDefaults(['--api-base-url=ftp://example.gov'], {});
    expect(launch.defaults.apiBaseUrl).toBe(FALLBACK_API_BASE_URL);
    expect(launch.problem).toContain('ftp://example.gov');
  });
});
