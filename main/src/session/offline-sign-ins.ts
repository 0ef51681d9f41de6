/**
 * Signing in on this computer while the server is out of reach. Each time the server accepts a user's
 * password, a verifier of it (scrypt with a salt of its own: never the password, nor anything the server
 * would take) is kept for that server and user, in one file of the user-data folder readable by its owner
 * only. With the server out of reach, the same user name and password then open that user's saved data on
 * this computer, and nothing more: no token is issued, no request is sent. A verifier goes when the server
 * refuses the password (it was changed there) and when the user signs out removing their data.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { z } from 'zod';
import { Scope } from '../../../shared/api/index.ts';
import { sameServer } from '../../../shared/ipc/server-address.ts';
import { writeUserDataFile } from '../settings/user-data-file.ts';

/** scrypt's cost: ~0.1 s a check on a desktop, 32 MiB of memory, so a stolen file is slow to guess from. */
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const HASH_BYTES = 32;
const SALT_BYTES = 16;

const Verifier = z.object({
  baseUrl: z.string(),
  username: z.string(),
  scopes: z.array(Scope).optional(),
  salt: z.string().min(1),
  hash: z.string().min(1),
});
type Verifier = z.infer<typeof Verifier>;

const VerifierFile = z.object({ version: z.literal(1), verifiers: z.array(Verifier) });

/** Who a sign-in on this computer opens the data of. */
export interface OfflineUser {
  baseUrl: string;
  username: string;
  scopes?: Scope[];
}

/** What checking a password here found. */
export type OfflineCheck =
  { kind: 'no-verifier' } | { kind: 'wrong-password' } | { kind: 'matches'; user: OfflineUser };

export interface OfflineSignIns {
  readonly file: string;
  /** Keeps (or replaces) the verifier of the password the server has just accepted for `user`. */
  keep(user: OfflineUser, password: string): Promise<void>;
  check(baseUrl: string, username: string, password: string): Promise<OfflineCheck>;
  forget(baseUrl: string, username: string): Promise<void>;
}

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, HASH_BYTES, COST, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

function isUser(verifier: Verifier, baseUrl: string, username: string): boolean {
  return verifier.username === username && sameServer(verifier.baseUrl, baseUrl);
}

export function createOfflineSignIns(options: {
  file: string;
  /** Where an unreadable file is reported; it is then treated as holding no verifier. */
  log?: (message: string) => void;
}): OfflineSignIns {
  const { file } = options;
  const log = options.log ?? ((message: string) => console.warn(message));
  /** Each change reads and writes the whole file; one at a time, so none is lost. */
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  async function read(): Promise<Verifier[]> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        log(`The saved offline sign-ins could not be read: ${(error as Error).message}`);
      return [];
    }
    try {
      const parsed = VerifierFile.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data.verifiers;
    } catch {
      // Falls through: damaged JSON is as useless as the wrong shape.
    }
    log(
      `The saved offline sign-ins in ${file} are damaged; each user signs in online once to save theirs again.`,
    );
    return [];
  }

  async function write(verifiers: Verifier[]): Promise<void> {
    if (verifiers.length === 0) {
      await rm(file, { force: true });
      return;
    }
    await writeUserDataFile(file, JSON.stringify({ version: 1, verifiers }));
  }

  return {
    file,
    keep(user, password) {
      // Queued before the verifier is derived: a forget asked meanwhile (a sign-out removing the user's data
      // right after signing in) comes after it and removes it.
      return serially(async () => {
        const salt = randomBytes(SALT_BYTES);
        const verifier: Verifier = {
          baseUrl: user.baseUrl,
          username: user.username,
          ...(user.scopes ? { scopes: user.scopes } : {}),
          salt: salt.toString('base64'),
          hash: (await derive(password, salt)).toString('base64'),
        };
        const others = (await read()).filter((kept) => !isUser(kept, user.baseUrl, user.username));
        await write([...others, verifier]);
      });
    },
    async check(baseUrl, username, password) {
      const verifier = (await serially(read)).find((kept) => isUser(kept, baseUrl, username));
      if (!verifier) return { kind: 'no-verifier' };
      const expected = Buffer.from(verifier.hash, 'base64');
      const actual = await derive(password, Buffer.from(verifier.salt, 'base64'));
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual))
        return { kind: 'wrong-password' };
      return {
        kind: 'matches',
        user: { baseUrl, username, ...(verifier.scopes ? { scopes: verifier.scopes } : {}) },
      };
    },
    forget(baseUrl, username) {
      return serially(async () => {
        const verifiers = await read();
        const kept = verifiers.filter((verifier) => !isUser(verifier, baseUrl, username));
        if (kept.length !== verifiers.length) await write(kept);
      });
    },
  };
}
