/**
 * "Keep me signed in": the session, token included, encrypted with the operating system's key store
 * (Electron's safeStorage) in one file of the user-data folder, readable by its owner only. When the system
 * offers no real encryption the store refuses to save rather than write the token in the clear.
 */
import { readFile, rm } from 'node:fs/promises';
import { z } from 'zod';
import { Scope } from '../../../shared/api/index.ts';
import { writeUserDataFile } from '../settings/user-data-file.ts';

/** The one seam around safeStorage, so plain-Node tests can stand in for the key store. */
export interface Encryption {
  isAvailable(): boolean;
  encrypt(text: string): Buffer;
  decrypt(data: Buffer): string;
}

export const RememberedSession = z.object({
  baseUrl: z.string(),
  username: z.string(),
  scopes: z.array(Scope).optional(),
  token: z.string().min(1),
  /** Epoch milliseconds, from the login answer's expires_in. */
  expiresAt: z.number(),
});
export type RememberedSession = z.infer<typeof RememberedSession>;

export const ENCRYPTION_UNAVAILABLE_MESSAGE =
  'This computer offers no encrypted storage for the sign-in (no system key store is available), so the app ' +
  'cannot keep you signed in. Sign in without "keep me signed in".';

export class RememberRefusedError extends Error {
  constructor() {
    super(ENCRYPTION_UNAVAILABLE_MESSAGE);
    this.name = 'RememberRefusedError';
  }
}

export interface TokenStore {
  readonly file: string;
  canRemember(): boolean;
  /** Throws RememberRefusedError when encryption is unavailable; nothing is written then. */
  save(session: RememberedSession): Promise<void>;
  /** The remembered session, or why there is none that can be used (absent file is not a problem). */
  load(): Promise<{ session?: RememberedSession; problem?: string }>;
  clear(): Promise<void>;
}

export function createTokenStore(options: { file: string; encryption: Encryption }): TokenStore {
  const { file, encryption } = options;
  return {
    file,
    canRemember: () => encryption.isAvailable(),
    async save(session) {
      if (!encryption.isAvailable()) throw new RememberRefusedError();
      const data = encryption.encrypt(JSON.stringify(RememberedSession.parse(session)));
      await writeUserDataFile(file, data);
    },
    async load() {
      let data: Buffer;
      try {
        data = await readFile(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        return { problem: `The saved sign-in could not be read: ${(error as Error).message}` };
      }
      if (!encryption.isAvailable()) {
        return { problem: 'The saved sign-in cannot be decrypted: no system key store is available.' };
      }
      try {
        const parsed = RememberedSession.safeParse(JSON.parse(encryption.decrypt(data)));
        if (parsed.success) return { session: parsed.data };
      } catch {
        // Falls through: a file another key encrypted, or damaged, is as useless as a malformed one.
      }
      return { problem: 'The saved sign-in is damaged or was encrypted by another user; sign in again.' };
    },
    async clear() {
      await rm(file, { force: true });
    },
  };
}
