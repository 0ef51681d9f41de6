import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ENCRYPTION_UNAVAILABLE_MESSAGE,
  RememberRefusedError,
  createTokenStore,
  type RememberedSession,
} from '../../main/src/session/token-store.ts';
import { fakeEncryption, temporaryFolder } from './support.ts';

const remembered: RememberedSession = {
  baseUrl: 'http://127.0.0.1:4010',
  username: 'inspector',
  scopes: ['generators', 'manifests'],
  token: 'tok_0123456789abcdef0123456789abcdef',
  expiresAt: Date.now() + 3_600_000,
};

describe('token store (keep me signed in)', () => {
  let folder: Awaited<ReturnType<typeof temporaryFolder>>;
  let file: string;
  beforeEach(async () => {
    folder = await temporaryFolder();
    file = join(folder.dir, 'nested', 'session.bin');
  });
  afterEach(() => folder.remove());

  it('round-trips a remembered session through an encrypted file', async () => {
    const store = createTokenStore({ file, encryption: fakeEncryption() });
    await store.save(remembered);
    expect(await store.load()).toEqual({ session: remembered });
    const bytes = await readFile(file);
    expect(bytes.toString('latin1')).not.toContain(remembered.token);
    expect(bytes.toString('latin1')).not.toContain('inspector');
  });

  it.skipIf(process.platform === 'win32')('writes the file readable by its owner only (0600)', async () => {
    // The usual umask, under which a file written without a mode would be 0644.
    const previous = process.umask(0o022);
    try {
      await createTokenStore({ file, encryption: fakeEncryption() }).save(remembered);
    } finally {
      process.umask(previous);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses to save, with a clear message, when encryption is unavailable', async () => {
    const store = createTokenStore({ file, encryption: fakeEncryption(false) });
    expect(store.canRemember()).toBe(false);
    await expect(store.save(remembered)).rejects.toBeInstanceOf(RememberRefusedError);
    await expect(store.save(remembered)).rejects.toThrow(ENCRYPTION_UNAVAILABLE_MESSAGE);
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it('clear deletes the file, and clearing twice is fine', async () => {
    const store = createTokenStore({ file, encryption: fakeEncryption() });
    await store.save(remembered);
    await store.clear();
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
    await store.clear();
    expect(await store.load()).toEqual({});
  });

  it('reports a damaged file or one from another key instead of throwing', async () => {
    const store = createTokenStore({ file, encryption: fakeEncryption() });
    await store.save(remembered);
    await writeFile(file, Buffer.from('FAKE1garbage'));
    expect((await store.load()).problem).toMatch(/damaged/);
    await writeFile(file, Buffer.from('written by someone else'));
    expect((await store.load()).problem).toMatch(/damaged/);
  });

  it('cannot read a saved sign-in back while the key store is unavailable', async () => {
    const encryption = fakeEncryption();
    const store = createTokenStore({ file, encryption });
    await store.save(remembered);
    encryption.available = false;
    const loaded = await store.load();
    expect(loaded.session).toBeUndefined();
    expect(loaded.problem).toMatch(/no system key store/);
  });
});
