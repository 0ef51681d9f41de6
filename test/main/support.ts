/**
 * Test wiring for the main-process handlers in plain Node: real settings and token stores in a temp folder,
 * the real API client and session, an encryption stand-in for safeStorage, and every emitted event recorded.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  EventName,
  EventPayload,
  Group,
  InputOf,
  MethodOf,
  OutputOf,
} from '../../shared/ipc/contract.ts';
import { channelOf } from '../../shared/ipc/contract.ts';
import { createApiClient, type ApiClientOptions } from '../../main/src/api/client.ts';
import { handlers, type HandlerContext } from '../../main/src/ipc/handlers.ts';
import { channelTable } from '../../main/src/ipc/register.ts';
import { createSession, type Session } from '../../main/src/session/session.ts';
import { createTokenStore, type Encryption, type TokenStore } from '../../main/src/session/token-store.ts';
import { launchDefaults } from '../../main/src/settings/launch-options.ts';
import { openSettingsStore, type SettingsStore } from '../../main/src/settings/settings-store.ts';

/** Stands in for safeStorage: reversible, and never leaves the plain text visible in the bytes. */
export function fakeEncryption(available = true): Encryption & { available: boolean } {
  const key = 0x5a;
  return {
    available,
    isAvailable() {
      return this.available;
    },
    encrypt: (text) =>
      Buffer.concat([Buffer.from('FAKE1'), Buffer.from(text, 'utf8').map((byte) => byte ^ key)]),
    decrypt: (data) => {
      if (data.subarray(0, 5).toString() !== 'FAKE1') throw new Error('not encrypted by this key');
      return Buffer.from(data.subarray(5).map((byte) => byte ^ key)).toString('utf8');
    },
  };
}

export async function temporaryFolder(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'waste-tracker-main-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface RecordedEvent<E extends EventName = EventName> {
  event: E;
  payload: EventPayload<E>;
}

export interface TestApp {
  dir: string;
  settings: SettingsStore;
  tokens: TokenStore;
  session: Session;
  encryption: ReturnType<typeof fakeEncryption>;
  events: RecordedEvent[];
  context: HandlerContext;
  opened: string[];
  /** Calls a method as the renderer would: by its channel, the input unparsed until main parses it. */
  invoke: <G extends Group, M extends MethodOf<G>>(
    group: G,
    method: M,
    input?: InputOf<G, M>,
  ) => Promise<OutputOf<G, M>>;
  /** A fresh app process over the same user-data folder (settings and saved sign-in). */
  restart: () => Promise<TestApp>;
}

export async function createTestApp(options: {
  dir: string;
  baseUrl: string;
  encryption?: ReturnType<typeof fakeEncryption>;
  client?: Partial<ApiClientOptions>;
}): Promise<TestApp> {
  const { dir } = options;
  const encryption = options.encryption ?? fakeEncryption();
  const { defaults } = launchDefaults(['--api-base-url', options.baseUrl], {});
  const { store: settings } = await openSettingsStore({ file: join(dir, 'settings.json'), defaults });
  const tokens = createTokenStore({ file: join(dir, 'session.bin'), encryption });
  const client = createApiClient({ timeoutMs: () => settings.get().requestTimeoutMs, ...options.client });
  const events: RecordedEvent[] = [];
  const session = createSession({
    client,
    tokens,
    settings,
    emit: (event, payload) => events.push({ event, payload }),
    log: () => undefined,
  });
  await session.restore();
  const opened: string[] = [];
  const context: HandlerContext = {
    session,
    settings,
    openExternal: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
  };
  const table = channelTable(handlers);
  return {
    dir,
    settings,
    tokens,
    session,
    encryption,
    events,
    context,
    opened,
    async invoke(group, method, input) {
      const entry = table.get(channelOf(group, method));
      if (!entry) throw new Error(`no channel for ${group}.${method}`);
      // The channel's handler is the one typed for this group and method in Handlers.
      return (await entry.invoke(input, context)) as OutputOf<typeof group, typeof method>;
    },
    restart: () => createTestApp(options),
  };
}
