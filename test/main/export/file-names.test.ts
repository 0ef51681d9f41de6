import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chosenTarget } from '../../../main/src/export/file-names.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'file-names-'));
  await writeFile(join(folder, 'report.xlsx'), 'an export of last week');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the file a save dialog’s answer names', () => {
  it('keeps a name that has the extension, whatever its case', async () => {
    expect(await chosenTarget(join(folder, 'report.xlsx'), 'xlsx')).toEqual({
      path: join(folder, 'report.xlsx'),
    });
    expect(await chosenTarget(join(folder, 'R.XLSX'), 'xlsx')).toEqual({ path: join(folder, 'R.XLSX') });
  });

  it('adds the extension to a name typed without it when no file has that name', async () => {
    expect(await chosenTarget(join(folder, 'new'), 'csv')).toEqual({ path: join(folder, 'new.csv') });
  });

  it('asks again, never overwriting, when the name with the extension is an existing file', async () => {
    expect(await chosenTarget(join(folder, 'report'), 'xlsx')).toEqual({
      askAgain: join(folder, 'report.xlsx'),
    });
  });
});
