/**
 * Test wiring for the main-process handlers in plain Node: main's own service factory over a temp folder
 * (real settings and token stores, the real API client and session), an encryption stand-in for
 * safeStorage, and every emitted event recorded.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  EventName,
  EventPayload,
  Group,
  InputOf,
  MethodOf,
  OutputOf,
  RequestOptions,
  Result,
} from '../../shared/ipc/contract.ts';
import { channelOf } from '../../shared/ipc/contract.ts';
import { DEMO_USERS } from '../helpers/demo-users.ts';
import type { ApiClientOptions } from '../../main/src/api/client.ts';
import { handlers, type HandlerContext } from '../../main/src/ipc/handlers.ts';
import { channelTable } from '../../main/src/ipc/register.ts';
import { createSenderRequests } from '../../main/src/ipc/requests.ts';
import { createMainServices } from '../../main/src/ipc/services.ts';
import type { Session } from '../../main/src/session/session.ts';
import type { Encryption, TokenStore } from '../../main/src/session/token-store.ts';
import { API_BASE_URL_OPTION } from '../../main/src/settings/launch-options.ts';
import type { SettingsStore } from '../../main/src/settings/settings-store.ts';

export { DEMO_USERS };

/** The data of a successful answer; a failure throws with its kind and message. */
export function assertOk<Data>(result: Result<Data>): Data {
  if (!result.ok) throw new Error(`expected success, got ${result.error.kind}: ${result.error.message}`);
  return result.data;
}

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
  /** The reasons of the session events so far, in order. */
  sessionReasons: () => string[];
  /** Where the save dialog puts an export: `saved/<suggested name>` in the app's folder, unless a test says. */
  saveTargets: { next: (suggestedName: string) => string | undefined };
  context: HandlerContext;
  opened: string[];
  /**
   * Calls a method as the renderer would: by its channel, the input unparsed until main parses it, as one
   * sender (the app's window), so `requests.cancel` reaches the requests given an id here.
   */
  invoke: <G extends Group, M extends MethodOf<G>>(
    group: G,
    method: M,
    input?: InputOf<G, M>,
    options?: RequestOptions,
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
  const events: RecordedEvent[] = [];
  const opened: string[] = [];
  const saveTargets = {
    next: (suggestedName: string): string | undefined => join(dir, 'saved', suggestedName),
  };
  const services = await createMainServices({
    userDataDir: dir,
    argv: [API_BASE_URL_OPTION, options.baseUrl],
    env: {},
    encryption,
    emit: (event, payload) => events.push({ event, payload }),
    log: () => undefined,
    openExternal: (url) => {
      opened.push(url);
      return Promise.resolve();
    },
    chooseSaveTarget: async (suggestedName) => {
      await mkdir(join(dir, 'saved'), { recursive: true });
      return saveTargets.next(suggestedName);
    },
    ...(options.client ? { client: options.client } : {}),
  });
  const { session, settings, tokens } = services;
  const context: HandlerContext = services;
  const table = channelTable(handlers);
  const requests = createSenderRequests();
  return {
    dir,
    settings,
    tokens,
    session,
    encryption,
    events,
    sessionReasons: () =>
      events.flatMap((recorded) =>
        recorded.event === 'session.changed'
          ? [(recorded.payload as EventPayload<'session.changed'>).reason]
          : [],
      ),
    saveTargets,
    context,
    opened,
    async invoke(group, method, input, requestOptions) {
      const entry = table.get(channelOf(group, method));
      if (!entry) throw new Error(`no channel for ${group}.${method}`);
      // The channel's handler is the one typed for this group and method in Handlers.
      return (await entry.invoke(input, context, { options: requestOptions, requests })) as OutputOf<
        typeof group,
        typeof method
      >;
    },
    restart: () => createTestApp(options),
  };
}
