/**
 * A file of the user-data folder (the settings, a remembered sign-in, the offline sign-in verifiers), written
 * whole or not at all and readable by its owner only: written to a temporary name beside it, then renamed
 * over it, so a crash mid-write leaves the old file, not half a new one.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeUserDataFile(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, data, { mode: 0o600 });
    // writeFile's mode passes through the umask, which can strip the owner's bits too; this makes it 0600 exactly.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
