/**
 * The user's settings, as JSON in the user-data folder. The file holds only what the user changed, so a
 * default the launcher gives (the embedded server's address) still applies to everything they left alone.
 * A file that cannot be read or does not validate is moved aside, reported, and the defaults are used:
 * a bad settings file never stops the app.
 */
import { readFile, rename } from 'node:fs/promises';
import { Settings } from '../../../shared/ipc/contract.ts';
import { writeUserDataFile } from './user-data-file.ts';
import { PLAIN_HTTP_MESSAGES, plainHttpAllowed, plainHttpOrigin } from '../../../shared/ipc/plain-http.ts';

const StoredSettings = Settings.partial();
type StoredSettings = Partial<Settings>;

export interface SettingsStore {
  readonly file: string;
  get(): Settings;
  /**
   * Validates the merged settings before anything is written; an invalid patch changes nothing. A new
   * server address on plain http:// to another computer needs its origin in `plainHttpServers`.
   */
  update(
    patch: Partial<Settings>,
  ): Promise<{ ok: true; settings: Settings } | { ok: false; message: string }>;
}

export interface OpenedSettings {
  store: SettingsStore;
  /** Why the file was not used, for the log; absent when it was read (or did not exist yet). */
  problem?: string;
}

export async function openSettingsStore(options: {
  file: string;
  defaults: Settings;
}): Promise<OpenedSettings> {
  const { file, defaults } = options;
  const loaded = await readStored(file);
  let stored: StoredSettings = loaded.ok ? loaded.stored : {};
  let problem: string | undefined;
  if (!loaded.ok) {
    const aside = `${file}.corrupt-${Date.now()}`;
    const moved = await rename(file, aside).then(
      () => true,
      () => false,
    );
    await writeSettings(file, stored).catch(() => undefined);
    problem = `The settings file ${file} could not be used (${loaded.reason}); ${
      moved ? `it was moved to ${aside} and ` : ''
    }the default settings apply.`;
  }
  let writes: Promise<unknown> = Promise.resolve();

  const store: SettingsStore = {
    file,
    get: () => ({ ...defaults, ...stored }),
    async update(patch) {
      const next = { ...stored, ...withoutUndefined(patch) };
      const checked = Settings.safeParse({ ...defaults, ...next });
      if (!checked.success) return { ok: false, message: describe(checked.error) };
      const { apiBaseUrl, plainHttpServers } = checked.data;
      if (patch.apiBaseUrl !== undefined && !plainHttpAllowed(apiBaseUrl, plainHttpServers))
        return { ok: false, message: PLAIN_HTTP_MESSAGES.refused(plainHttpOrigin(apiBaseUrl) ?? apiBaseUrl) };
      const write = writes.then(() => writeSettings(file, next));
      writes = write.catch(() => undefined);
      await write;
      stored = next;
      return { ok: true, settings: checked.data };
    },
  };
  return problem === undefined ? { store } : { store, problem };
}

type Loaded = { ok: true; stored: StoredSettings } | { ok: false; reason: string };

async function readStored(file: string): Promise<Loaded> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, stored: {} };
    return { ok: false, reason: `unreadable: ${(error as Error).message}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  const parsed = StoredSettings.safeParse(json);
  if (!parsed.success) return { ok: false, reason: describe(parsed.error) };
  return { ok: true, stored: withoutUndefined(parsed.data) };
}

function describe(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid settings';
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

function withoutUndefined(patch: StoredSettings): StoredSettings {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
}

function writeSettings(file: string, value: StoredSettings): Promise<void> {
  return writeUserDataFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
