/**
 * The main-process services for the bridge, wired as main/src/index.ts wires them for Electron: the same
 * settings store, API client, token store and session. Only what a browser cannot give differs: there is no
 * OS key store, so "keep me signed in" is refused, and links are printed instead of opened.
 */
import { join } from 'node:path';
import { createApiClient } from '../api/client.ts';
import type { HandlerContext } from '../ipc/handlers.ts';
import type { EmitEvent } from '../session/session.ts';
import { createSession } from '../session/session.ts';
import { createTokenStore, type Encryption } from '../session/token-store.ts';
import { launchDefaults } from '../settings/launch-options.ts';
import { openSettingsStore } from '../settings/settings-store.ts';

/** No key store: the token store refuses to save and says why. */
const noEncryption: Encryption = {
  isAvailable: () => false,
  encrypt: () => {
    throw new Error('No encrypted storage behind the browser bridge.');
  },
  decrypt: () => {
    throw new Error('No encrypted storage behind the browser bridge.');
  },
};

export interface BridgeServiceOptions {
  /** Holds settings.json, as Electron's userData folder does. */
  userDataDir: string;
  /** The launcher's server address, as `--api-base-url` gives it to the Electron app. */
  apiBaseUrl?: string;
  emit: EmitEvent;
  log?: (message: string) => void;
}

export async function createBridgeContext(options: BridgeServiceOptions): Promise<HandlerContext> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const argv = options.apiBaseUrl === undefined ? [] : ['--api-base-url', options.apiBaseUrl];
  const launch = launchDefaults(argv, {});
  if (launch.problem) log(launch.problem);
  const { store: settings, problem } = await openSettingsStore({
    file: join(options.userDataDir, 'settings.json'),
    defaults: launch.defaults,
  });
  if (problem) log(problem);
  const client = createApiClient({ timeoutMs: () => settings.get().requestTimeoutMs });
  const tokens = createTokenStore({
    file: join(options.userDataDir, 'session.bin'),
    encryption: noEncryption,
  });
  const session = createSession({ client, tokens, settings, emit: options.emit, log });
  await session.restore();
  return {
    session,
    settings,
    // The handler has already refused anything but https:; a browser tab has no shell to hand it to.
    openExternal: (url) => {
      log(`Open this link in your browser: ${url}`);
      return Promise.resolve();
    },
  };
}
