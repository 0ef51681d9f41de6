import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../shared/api/index.ts';
import { GENERATOR_COLUMNS } from '../../../shared/columns.ts';
import { apiPages, type FetchPage } from '../../../main/src/export/api-pages.ts';
import { createExports, type ExportEvents } from '../../../main/src/export/export-jobs.ts';
import { OWNER_MESSAGES } from '../../../main/src/export/export-owner.ts';
import type { GridFile } from '../../../main/src/export/grid-file.ts';
import { apiPage } from './api-page.ts';
import { diskWithRoom } from './disk-with-room.ts';
import { readBook } from './workbook-reader.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'export-jobs-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const file: GridFile = {
  format: 'xlsx',
  sheetName: 'Generators',
  columns: GENERATOR_COLUMNS,
  wasteLines: false,
  describe: (rows) => [['Rows', rows]],
};

const generator = (index: number) => ({
  epa_handler_id: `CAD${String(index).padStart(9, '0')}`,
  total_waste: index,
});

/** A list of `total` generators served in API-sized pages, counting what was asked. */
function listOf(total: number) {
  const asked: number[] = [];
  const fetchPage: FetchPage = (page) => {
    asked.push(page);
    const start = page * LIMITS.pageSizeMax;
    const rows = Array.from({ length: Math.max(0, Math.min(LIMITS.pageSizeMax, total - start)) }, (_, i) =>
      generator(start + i),
    );
    return Promise.resolve({ ok: true, data: apiPage('generators', total, rows) });
  };
  return { asked, fetchPage };
}

type Outcome = {
  done?: { path: string; rows: number };
  failed?: string;
  progress: number[];
  waiting: number;
};

function recorder() {
  const outcomes = new Map<string, Outcome>();
  const settled = new Map<string, () => void>();
  const of = (id: string) => {
    let outcome = outcomes.get(id);
    if (!outcome) outcomes.set(id, (outcome = { progress: [], waiting: 0 }));
    return outcome;
  };
  const events: ExportEvents = {
    progress: (id, progress) => {
      if (progress.waiting) of(id).waiting += 1;
      else of(id).progress.push(progress.rowsWritten);
    },
    done: (id, done) => {
      of(id).done = done;
      settled.get(id)?.();
    },
    failed: (id, message) => {
      of(id).failed = message;
      settled.get(id)?.();
    },
  };
  const finished = (id: string) =>
    new Promise<Outcome>((resolve) => {
      const outcome = outcomes.get(id);
      if (outcome?.done || outcome?.failed) resolve(outcome);
      else settled.set(id, () => resolve(of(id)));
    });
  return { events, finished };
}

const never = () => new Promise<boolean>(() => undefined);

describe('export jobs', () => {
  it('pages through every row and renames the finished file into place', async () => {
    const { events, finished } = recorder();
    const exports = createExports({ events, spillFolder: folder });
    const list = listOf(1_234);
    const target = join(folder, 'generators.xlsx');
    const id = exports.start({
      target,
      file,
      pages: (signal) => apiPages(list.fetchPage, signal, never, () => undefined),
    });
    const outcome = await finished(id);
    expect(outcome.failed).toBeUndefined();
    expect(outcome.done).toEqual({ path: target, rows: 1_234 });
    expect(list.asked).toEqual([0, 1, 2]);
    expect(outcome.progress.at(-1)).toBe(1_234);
    expect((await readBook(target)).rows('Generators')).toHaveLength(1_235);
    expect(await readdir(folder)).toEqual(['generators.xlsx']);
  });

  it('cancelled midway, leaves no file, no temporary file, and the old file as it was', async () => {
    const { events, finished } = recorder();
    const exports = createExports({ events, spillFolder: folder });
    const target = join(folder, 'generators.xlsx');
    await writeFile(target, 'the previous export');
    let id = '';
    const slowList: FetchPage = async (page) => {
      if (page === 3) exports.cancel(id);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const rows = Array.from({ length: LIMITS.pageSizeMax }, () => generator(page));
      return { ok: true, data: apiPage('generators', 1_000_000, rows) };
    };
    id = exports.start({
      target,
      file,
      pages: (signal) => apiPages(slowList, signal, never, () => undefined),
    });
    const outcome = await finished(id);
    expect(outcome.done).toBeUndefined();
    expect(outcome.failed).toBe('The export was cancelled; no file was written.');
    expect(await readdir(folder)).toEqual(['generators.xlsx']);
    expect(await readFile(target, 'utf8')).toBe('the previous export');
    expect(exports.cancel(id)).toBe(false);
  });

  it('reports a full disk in words and keeps the old file intact', async () => {
    const { events, finished } = recorder();
    // A disk that fills up after 64 KiB: every later write fails as the kernel would say it.
    const open = diskWithRoom(64 * 1024);
    const exports = createExports({ events, spillFolder: folder, open });
    const target = join(folder, 'generators.xlsx');
    await writeFile(target, 'the previous export');
    const list = listOf(20_000);
    const id = exports.start({
      target,
      file,
      pages: (signal) => apiPages(list.fetchPage, signal, never, () => undefined),
    });
    const outcome = await finished(id);
    expect(outcome.failed).toBe(
      `The disk is full; ${target} was not written. Free some space and export again.`,
    );
    expect(await readdir(folder)).toEqual(['generators.xlsx']);
    expect(await readFile(target, 'utf8')).toBe('the previous export');
  });

  it('says so when the folder cannot be written', async () => {
    const { events, finished } = recorder();
    const exports = createExports({ events, spillFolder: folder });
    const target = join(folder, 'no-such-folder', 'generators.xlsx');
    const id = exports.start({
      target,
      file,
      pages: (signal) => apiPages(listOf(10).fetchPage, signal, never, () => undefined),
    });
    expect((await finished(id)).failed).toBe(
      `The folder of ${target} does not exist any more; choose another.`,
    );
  });

  it('waits for a new sign-in on a 401 and goes on from the same page', async () => {
    const { events, finished } = recorder();
    const exports = createExports({ events, spillFolder: folder });
    const list = listOf(1_200);
    let expired = true;
    const fetchPage: FetchPage = (page, signal) => {
      if (page === 1 && expired) {
        return Promise.resolve({
          ok: false,
          error: { kind: 'unauthorized', message: 'Your session has expired.' },
        });
      }
      return list.fetchPage(page, signal);
    };
    let signIn: (again: boolean) => void = () => undefined;
    const waitForSignIn = () =>
      new Promise<boolean>((resolve) => {
        signIn = resolve;
      });
    const target = join(folder, 'generators.xlsx');
    const id = exports.start({
      target,
      file,
      pages: (signal, onWaiting) =>
        apiPages(fetchPage, signal, waitForSignIn, () => {
          onWaiting();
          expired = false;
          setTimeout(() => signIn(true), 5);
        }),
    });
    const outcome = await finished(id);
    expect(outcome.waiting).toBe(1);
    expect(outcome.done?.rows).toBe(1_200);
    const ids = (await readBook(target))
      .rows('Generators')
      .slice(1)
      .map((cells) => cells[0]?.v);
    expect(ids).toEqual(Array.from({ length: 1_200 }, (_, i) => generator(i).epa_handler_id));
  });

  it('reads the API’s bytes in the export’s own threads, and stops with a clear message at a page that does not read', async () => {
    const { events, finished } = recorder();
    const exports = createExports({ events, spillFolder: folder });
    const bytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));
    const pages = [
      bytes({
        totalElements: ' 1,000',
        content: Array.from({ length: LIMITS.pageSizeMax }, (_, i) => generator(i)),
      }),
      bytes({ totalElements: 1_000, content: [{ epa_handler_id: 'CAD1', total_waste: 'lots' }] }),
    ];
    const asked: number[] = [];
    const fetchPage: FetchPage = (page) => {
      asked.push(page);
      return Promise.resolve({ ok: true, data: { list: 'generators', json: pages[page] ?? bytes({}) } });
    };
    const target = join(folder, 'generators.xlsx');
    await writeFile(target, 'the previous export');
    const id = exports.start({
      target,
      file,
      pages: (signal) => apiPages(fetchPage, signal, never, () => undefined),
    });
    expect((await finished(id)).failed).toBe(
      "The server's answer does not match the tracker API at content.0.total_waste: " +
        'expected a number, got "lots".',
    );
    expect(asked).toEqual([0, 1]);
    expect(await readdir(folder)).toEqual(['generators.xlsx']);
    expect(await readFile(target, 'utf8')).toBe('the previous export');
  });

  it('stops with the API’s message when a page fails, and when the user signs out instead', async () => {
    const { events, finished } = recorder();
    const exports = createExports({ events, spillFolder: folder });
    const offline: FetchPage = () =>
      Promise.resolve({
        ok: false,
        error: { kind: 'offline', message: 'Nothing answers at http://127.0.0.1:9.' },
      });
    const first = exports.start({
      target: join(folder, 'a.xlsx'),
      file,
      pages: (signal) => apiPages(offline, signal, never, () => undefined),
    });
    expect((await finished(first)).failed).toBe('Nothing answers at http://127.0.0.1:9.');
    const expired: FetchPage = () =>
      Promise.resolve({ ok: false, error: { kind: 'unauthorized', message: 'Your session has expired.' } });
    const second = exports.start({
      target: join(folder, 'b.xlsx'),
      file,
      pages: (signal) =>
        apiPages(
          expired,
          signal,
          () => Promise.resolve(false),
          () => undefined,
        ),
    });
    expect((await finished(second)).failed).toBe(OWNER_MESSAGES.signedOut);
    expect(await readdir(folder)).toEqual([]);
  });
});
