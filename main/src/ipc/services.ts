/**
 * Main's services, wired once: settings → API client → token store → session, and the context the handlers
 * get. The Electron entry (main/src/index.ts) and the browser bridge (main/src/bridge/) both build their
 * services here and differ only in what they pass in: where user data lives, the launch arguments, the key
 * store, how events reach the page and how links open.
 */
import { join } from 'node:path';
import { createApiClient, type ApiClientOptions } from '../api/client.ts';
import type { EventPayload } from '../../../shared/ipc/contract.ts';
import { createExportService, spillFolderIn, type ChooseSaveTarget } from '../export/export-service.ts';
import { sweepLeftovers } from '../export/leftovers.ts';
import { createSession, type EmitEvent } from '../session/session.ts';
import { createOfflineSignIns } from '../session/offline-sign-ins.ts';
import { createSignInWaiters } from '../session/sign-in-waiters.ts';
import { createTokenStore, type Encryption, type TokenStore } from '../session/token-store.ts';
import { launchDefaults } from '../settings/launch-options.ts';
import { openSettingsStore } from '../settings/settings-store.ts';
import type { HandlerContext } from './handlers.ts';

export interface MainServiceOptions {
  /** Holds settings.json, session.bin and offline-sign-ins.json (Electron's userData folder). */
  userDataDir: string;
  /** The command line and environment the app was launched with; they seed the default server address. */
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Encrypts a remembered sign-in: safeStorage in Electron; unavailable behind the bridge. */
  encryption: Encryption;
  emit: EmitEvent;
  /** Opens an https: link in the user's browser. */
  openExternal: (url: string) => Promise<void>;
  /** Asks the user where to save an export: Electron's save dialog; behind the bridge, a download. */
  chooseSaveTarget: ChooseSaveTarget;
  /** Told of each finished export file; the bridge offers it as a download. */
  onExportSaved?: (id: string, path: string) => void;
  /** Told of each export that ended without a file, with its target; the bridge removes its folder. */
  onExportFailed?: (id: string, target: string) => void;
  /** Removes files the adapter keeps for the user (the bridge's downloads not yet fetched). */
  removeUserFiles?: () => Promise<void>;
  /** Where problems nobody asked about go (a bad launch option, an unreadable settings file). */
  log?: (message: string) => void;
  /** Rows an export's sheet may hold: Excel's limit unless a test lowers it to see a split. */
  sheetRows?: number;
  /** Replaces parts of the API client (its fetch, retry timing) where a test must. */
  client?: Partial<Omit<ApiClientOptions, 'timeoutMs'>>;
}

export interface MainServices extends HandlerContext {
  tokens: TokenStore;
}

export async function createMainServices(options: MainServiceOptions): Promise<MainServices> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const launch = launchDefaults(options.argv, options.env);
  if (launch.problem) log(launch.problem);
  const { store: settings, problem } = await openSettingsStore({
    file: join(options.userDataDir, 'settings.json'),
    defaults: launch.defaults,
  });
  if (problem) log(problem);
  const client = createApiClient({ ...options.client, timeoutMs: () => settings.get().requestTimeoutMs });
  const tokens = createTokenStore({
    file: join(options.userDataDir, 'session.bin'),
    encryption: options.encryption,
  });
  const waiters = createSignInWaiters();
  // Main's own work learns of session changes from the same event the renderer gets.
  const sessionListeners: ((change: EventPayload<'session.changed'>) => void)[] = [];
  const emit: EmitEvent = (event, payload) => {
    options.emit(event, payload);
    if (event !== 'session.changed') return;
    for (const listener of sessionListeners) listener(payload as EventPayload<'session.changed'>);
  };
  const offlineSignIns = createOfflineSignIns({
    file: join(options.userDataDir, 'offline-sign-ins.json'),
    log,
  });
  const session = createSession({ client, tokens, offlineSignIns, settings, emit, log });
  await session.restore();
  const spillFolder = spillFolderIn(options.userDataDir);
  // Before any export starts: what a crash or a kill left behind last time.
  for (const path of await sweepLeftovers(spillFolder))
    log(`Removed ${path}, left by an export that did not end.`);
  const exports = createExportService({
    session,
    waiters,
    emit,
    chooseSaveTarget: options.chooseSaveTarget,
    spillFolder,
    ...(options.onExportSaved ? { onSaved: options.onExportSaved } : {}),
    ...(options.onExportFailed ? { onFailed: options.onExportFailed } : {}),
    ...(options.sheetRows ? { sheetRows: options.sheetRows } : {}),
  });
  // Exports the change takes from their owner end first; then those waiting for their owner go on.
  sessionListeners.push(
    (change) => exports.sessionChanged(change),
    (change) => waiters.sessionChanged(change),
  );
  const removeUserFiles = async () => {
    // Exports end with the sign-out; each removes what it wrote, and anything left goes after.
    await exports.cancelAll();
    for (const path of await sweepLeftovers(spillFolder)) log(`Removed ${path} with the user's data.`);
    await options.removeUserFiles?.();
  };
  return { session, settings, tokens, openExternal: options.openExternal, exports, removeUserFiles };
}
