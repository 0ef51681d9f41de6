/**
 * The main-process services for the bridge, from the same factory the Electron entry uses
 * (main/src/ipc/services.ts). Only what a browser cannot give differs: there is no OS key store, so "keep
 * me signed in" is refused, links are printed instead of opened, and an export is a download.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileInFolder } from '../export/safe-file-name.ts';
import { API_BASE_URL_OPTION } from '../settings/launch-options.ts';
import type { HandlerContext } from '../ipc/handlers.ts';
import { createMainServices } from '../ipc/services.ts';
import type { EmitEvent } from '../session/session.ts';
import type { Encryption } from '../session/token-store.ts';

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
  /** A finished export, to offer to the page as a download. */
  onExportSaved: (id: string, path: string) => void;
  /** An export that ended without a file: the folder made for it goes. */
  onExportFailed: (id: string, target: string) => void;
  /** Removes the downloads not yet fetched, with the data of a user who signed out. */
  removeDownloads: () => Promise<void>;
  /** Rows an export's sheet may hold: Excel's limit unless a test lowers it. */
  sheetRows?: number;
}

export function createBridgeContext(options: BridgeServiceOptions): Promise<HandlerContext> {
  const log = options.log ?? ((message: string) => console.warn(message));
  return createMainServices({
    userDataDir: options.userDataDir,
    argv: options.apiBaseUrl === undefined ? [] : [API_BASE_URL_OPTION, options.apiBaseUrl],
    // The bridge's address comes from its options only, never from the environment of the process.
    env: {},
    encryption: noEncryption,
    emit: options.emit,
    log,
    // The handler has already refused anything but https:; a browser tab has no shell to hand it to.
    openExternal: (url) => {
      log(`Open this link in your browser: ${url}`);
      return Promise.resolve();
    },
    // A browser tab has no save dialog: the file is written in a folder of the bridge's own, then offered to
    // the page as a download, where the browser asks where to keep it.
    chooseSaveTarget: async (suggestedName) => {
      const folder = join(options.userDataDir, 'downloads', randomUUID());
      await mkdir(folder, { recursive: true });
      // The name may carry a server's data; whatever it holds, the file stays in this folder.
      return fileInFolder(folder, suggestedName);
    },
    onExportSaved: options.onExportSaved,
    onExportFailed: options.onExportFailed,
    removeUserFiles: options.removeDownloads,
    ...(options.sheetRows ? { sheetRows: options.sheetRows } : {}),
  });
}
