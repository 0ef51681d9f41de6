/**
 * A file that appears whole or not at all: written to a temporary name beside the target (same folder, so
 * the final rename is atomic on the same file system) and renamed over the target only once complete. A
 * cancel or a failure removes the temporary file and leaves any existing target untouched; a cancel that
 * comes as the last byte is written still wins over the rename.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The temporary name beside `target`: hidden, unique, and clearly not the finished file. */
export function temporaryPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.part`);
}

/** Whether `name` is one temporaryPathFor makes: what the start-up sweep may remove (leftovers.ts). */
export function isTemporaryName(name: string): boolean {
  return /^\..+\.[0-9a-f]{8}\.part$/.test(name);
}

/** Writes `temporary` (temporaryPathFor(target)) with `write`, then renames it over `target` unless aborted. */
export async function writeAtomically<T>(
  target: string,
  temporary: string,
  write: (temporary: string) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  try {
    const result = await write(temporary);
    signal?.throwIfAborted();
    await rename(temporary, target);
    return result;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
