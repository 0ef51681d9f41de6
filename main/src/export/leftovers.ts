/**
 * What an export leaves behind when the app stops midway (a crash, a kill, a power cut): the hidden `.part`
 * file beside the user's target, and the `.cells` file of waste lines in the app's own export folder. Each
 * running export notes its `.part` file in the app's folder before creating it and drops the note when it
 * ends; at start the app removes every `.cells` file of its folder and the `.part` file each note names, and
 * nothing else: a note that names anything but one of our temporary names is dropped, the file left alone.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { isTemporaryName } from './atomic-file.ts';

const NOTE_SUFFIX = '.part-note';

/** A spill file's name: the temporary file's name and `.cells` (export-jobs.ts). */
export function spillNameFor(temporary: string): string {
  return `${basename(temporary)}.cells`;
}

function isSpillName(name: string): boolean {
  return name.endsWith('.cells') && isTemporaryName(name.slice(0, -'.cells'.length));
}

/** The notes of running exports' temporary files, in the app's export folder. */
export class PartNotes {
  private readonly folder: string;

  constructor(folder: string) {
    this.folder = folder;
  }

  private file(id: string): string {
    return join(this.folder, `${id}${NOTE_SUFFIX}`);
  }

  /** Notes that export `id` writes `temporary`; before the file is created. */
  async note(id: string, temporary: string): Promise<void> {
    await writeFile(this.file(id), temporary, { encoding: 'utf8', mode: 0o600 });
  }

  /** The export ended and its temporary file is gone (renamed or removed). */
  async forget(id: string): Promise<void> {
    await rm(this.file(id), { force: true });
  }
}

/** Removes a file; false when there was none. */
async function removeFile(path: string): Promise<boolean> {
  try {
    await rm(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes what exports that did not end left behind; answers the paths removed. Run at start, before any
 * export: every note then belongs to an export of an earlier run.
 */
export async function sweepLeftovers(folder: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = join(folder, name);
    if (isSpillName(name)) {
      await rm(path, { force: true });
      removed.push(path);
    } else if (name.endsWith(NOTE_SUFFIX)) {
      const temporary = (await readFile(path, 'utf8').catch(() => '')).trim();
      if (isAbsolute(temporary) && isTemporaryName(basename(temporary)) && (await removeFile(temporary)))
        removed.push(temporary);
      await rm(path, { force: true });
    }
  }
  return removed;
}
