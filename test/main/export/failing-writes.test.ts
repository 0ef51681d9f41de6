/**
 * Writes that fail, on the real file system: a disk that fills up (a file layer that refuses every write
 * past a number of bytes with ENOSPC, as the kernel does), a folder nobody may write in (immutable: root is
 * refused too, where file modes would not stop it), a folder the kernel refuses (/sys), a "folder" that is
 * a file, and a target that is a folder. Each reports the failure in words, leaves no temporary file and no
 * spilled waste lines, and keeps the old file as it was. Rows come from the offline source, so a chunk the
 * renderer sent while the disk filled is refused rather than left waiting.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_COLUMNS } from '../../../shared/columns.ts';
import { createExports, type ExportEvents } from '../../../main/src/export/export-jobs.ts';
import type { GridFile } from '../../../main/src/export/grid-file.ts';
import { ENDED_MESSAGE, ExportFailure } from '../../../main/src/export/errors.ts';
import { ChunkFeed } from '../../../main/src/export/offline-rows.ts';
import { diskWithRoom } from './disk-with-room.ts';

let folder: string;
let spillFolder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'failing-writes-'));
  spillFolder = join(folder, 'spill');
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const manifests = (format: 'xlsx' | 'csv'): GridFile => ({
  format,
  sheetName: 'Manifests',
  columns: MANIFEST_COLUMNS,
  wasteLines: format === 'xlsx',
  describe: (rows) => [['Rows', rows]],
});

/** A manifest with three waste lines, each with text long enough that the lines sheet takes some room. */
function manifest(index: number) {
  const number = `${String(index).padStart(9, '0')}ELC`;
  return {
    manifest_tracking_number: number,
    generator_name: `Generator ${index}`,
    shipped_date: '2024-03-01',
    total_waste_quantity_tons: index / 10,
    container_count: 3,
    waste_lines: [1, 2, 3].map((line) => ({
      manifest_tracking_number: number,
      waste_line_number: line,
      usdot_haz_indicator: 'Y',
      usdot_id_number: 'UN1993',
      usdot_desc: `Flammable liquid, n.o.s. ${'x'.repeat(200)}`,
      container_count: 1,
      container_type_code: 'DM',
      epa_waste_indicator: 'Y',
      waste_quantity_tons: 0.5,
      transporter: 'Transporter',
      federal_waste_codes: 'D001',
      mmc_and_desc: 'H141',
    })),
  };
}

function recorder() {
  let settle: (outcome: { failed?: string; done?: number }) => void = () => undefined;
  const outcome = new Promise<{ failed?: string; done?: number }>((resolve) => (settle = resolve));
  const events: ExportEvents = {
    progress: () => undefined,
    done: (_id, { rows }) => settle({ done: rows }),
    failed: (_id, message) => settle({ failed: message }),
  };
  return { events, outcome };
}

/**
 * Runs an export of offline data whose renderer sends `count` manifests in chunks of 250, as the renderer
 * does; answers what main answered to each chunk and how the export ended.
 */
async function exportChunks(
  target: string,
  file: GridFile,
  count: number,
  open?: (path: string) => Writable,
): Promise<{ answers: string[]; failed?: string; done?: number }> {
  const { events, outcome } = recorder();
  const exports = createExports({ events, spillFolder, ...(open ? { open } : {}) });
  const feed = new ChunkFeed('manifests');
  exports.start({ target, file, pages: (signal) => feed.pages(signal) });
  const answers: string[] = [];
  let ended = false;
  void outcome.then(() => {
    ended = true;
    // As the export service does when an export ends: a chunk on its way is refused. The writer may have
    // failed before it read any (the folder refused the file first), and then nothing else answers it.
    feed.fail(new ExportFailure(ENDED_MESSAGE));
  });
  for (let from = 0; from < count && !ended; from += 250) {
    const rows = Array.from({ length: Math.min(250, count - from) }, (_, i) => manifest(from + i));
    try {
      await feed.push({ totalElements: count, rows });
      answers.push('written');
    } catch (error) {
      answers.push(`refused: ${(error as Error).message}`);
      break;
    }
  }
  feed.end();
  return { answers, ...(await outcome) };
}

async function expectOnly(dir: string, names: string[]): Promise<void> {
  expect((await readdir(dir)).sort()).toEqual(names.sort());
}

describe('a full disk', () => {
  it('while the waste lines are written, reports it, refuses nothing silently and keeps the old file', async () => {
    const target = join(folder, 'Manifests.xlsx');
    await writeFile(target, 'the previous export');
    // Room for the manifests' sheet of 2,000 rows but not for their 6,000 waste lines.
    const result = await exportChunks(target, manifests('xlsx'), 2_000, diskWithRoom(200 * 1024));
    expect(result.failed).toBe(
      `The disk is full; ${target} was not written. Free some space and export again.`,
    );
    expect(result.answers.every((answer) => answer === 'written')).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('the previous export');
    await expectOnly(folder, ['Manifests.xlsx', 'spill']);
    await expectOnly(spillFolder, []);
  });

  it('while the rows are written, refuses the chunk on its way and keeps the old file', async () => {
    const target = join(folder, 'Manifests.csv');
    await writeFile(target, 'the previous export');
    const result = await exportChunks(target, manifests('csv'), 20_000, diskWithRoom(64 * 1024));
    expect(result.failed).toBe(
      `The disk is full; ${target} was not written. Free some space and export again.`,
    );
    expect(result.answers.at(-1)).toBe('refused: The export has ended.');
    expect(result.answers.length).toBeLessThan(80);
    expect(await readFile(target, 'utf8')).toBe('the previous export');
    await expectOnly(folder, ['Manifests.csv', 'spill']);
  });
});

/** Makes a folder immutable, which refuses even root; undefined where the file system cannot. */
function immutable(dir: string): (() => void) | undefined {
  try {
    execFileSync('chattr', ['+i', dir], { stdio: 'ignore' });
    return () => execFileSync('chattr', ['-i', dir], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
}

describe('a folder that cannot be written', () => {
  it('an immutable folder: no permission, and the old file in it as it was', async (context) => {
    const dir = join(folder, 'locked');
    await mkdir(dir);
    const target = join(dir, 'Manifests.xlsx');
    await writeFile(target, 'the previous export');
    const unlock = immutable(dir);
    if (!unlock) {
      context.skip('this file system has no immutable folders (chattr +i)');
      return;
    }
    try {
      const result = await exportChunks(target, manifests('xlsx'), 600);
      expect(result.failed).toBe(`There is no permission to write ${target}; choose another folder.`);
    } finally {
      unlock();
    }
    await expectOnly(dir, ['Manifests.xlsx']);
    expect(await readFile(target, 'utf8')).toBe('the previous export');
    await expectOnly(spillFolder, []);
  });

  it('a folder of the kernel’s (/sys) says there is no permission', async () => {
    const target = '/sys/Manifests.xlsx';
    const result = await exportChunks(target, manifests('xlsx'), 300);
    expect(result.failed).toBe(`There is no permission to write ${target}; choose another folder.`);
    await expectOnly(spillFolder, []);
  });

  it('a "folder" that is a file says so and leaves that file as it was', async () => {
    const notFolder = join(folder, 'report');
    await writeFile(notFolder, 'a file, not a folder');
    const target = join(notFolder, 'Manifests.csv');
    const result = await exportChunks(target, manifests('csv'), 300);
    expect(result.failed).toBe(`The folder of ${target} is not a folder; choose another.`);
    expect(await readFile(notFolder, 'utf8')).toBe('a file, not a folder');
    await expectOnly(folder, ['report', 'spill']);
  });

  it('a target that is a folder: the whole file is written, then not renamed over it, and removed', async () => {
    const target = join(folder, 'Manifests.xlsx');
    await mkdir(target);
    await writeFile(join(target, 'inside'), 'kept');
    const result = await exportChunks(target, manifests('xlsx'), 600);
    expect(result.failed).toBe(`${target} is a folder; choose a file name.`);
    expect(result.answers).toEqual(['written', 'written', 'written']);
    await expectOnly(folder, ['Manifests.xlsx', 'spill']);
    await expectOnly(target, ['inside']);
  });
});
