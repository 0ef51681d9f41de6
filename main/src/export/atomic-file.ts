/**
 * A file that appears whole or not at all: written to a temporary name beside the target (same folder, so
 * the final rename is atomic on the same file system) and renamed over the target only once complete. A
 * cancel or a failure removes the temporary file and leaves any existing target untouched.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The temporary name beside `target`: hidden, unique, and clearly not the finished file. */
export function temporaryPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
}

export async function writeAtomically<T>(
  target: string,
  write: (temporary: string) => Promise<T>,
): Promise<T> {
  const temporary = temporaryPathFor(target);
  try {
    const result = await write(temporary);
    await rename(temporary, target);
    return result;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
