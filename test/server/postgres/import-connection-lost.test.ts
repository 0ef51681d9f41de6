/**
 * An import into PostgreSQL whose connection the server ends in the middle (an administrator's
 * pg_terminate_backend, as a restart of the server does) stops saying so in a sentence, every batch before
 * kept; the same files then resume it to the database one uninterrupted import gives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importFiles } from '../../../server/src/import/import-files.ts';
import { runImport } from '../../../server/src/import/run.ts';
import { discoverSources } from '../../../server/src/import/sources.ts';
import { connect } from '../../../server/src/postgres/pg-store.ts';
import {
  FIXTURES,
  contentOf,
  newTarget,
  openSink,
  wrapSink,
  type ImportTarget,
} from '../import/import-support.ts';

let dir = '';
const targets: ImportTarget[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'import-connection-lost-'));
});

afterAll(async () => {
  await Promise.all(targets.map((target) => target.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function target(name: string): Promise<ImportTarget> {
  const made = await newTarget(dir, name);
  targets.push(made);
  return made;
}

it('says a connection the server ended in a sentence, and the same files resume the import', async () => {
  const week1 = join(FIXTURES, 'week1');
  const whole = await target('whole');
  await importFiles({ db: whole.db, paths: [week1], report: join(dir, 'whole.csv') });

  const cut = await target('cut');
  const admin = await connect(cut.db, { max: 1 });
  const sink = await openSink(cut);
  let cutYet = false;
  const cutting = wrapSink(sink, {
    write: async (batch) => {
      const counts = await sink.write(batch);
      // After the first batch, the server ends the import's connection (and every other to the database).
      if (!cutYet) {
        cutYet = true;
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      }
      return counts;
    },
  });
  try {
    await expect(
      runImport({ sink: cutting, sources: await discoverSources([week1]), batchRows: 2 }),
    ).rejects.toThrow(
      /^postgres:\/\/.+ did not take the import's last step: .+\. Every batch before is kept: once the database answers \(with room to write\), run the same command again to resume\.$/,
    );
  } finally {
    await sink.close();
    await admin.end();
  }

  const resumed = await importFiles({ db: cut.db, paths: [week1], report: join(dir, 'cut.csv') });
  expect(resumed.resumed).toBe(true);
  expect(await contentOf(cut)).toEqual(await contentOf(whole));
});
