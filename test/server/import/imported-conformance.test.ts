/**
 * The imported data answers the conformance suite (../conformance.ts): the demo dataset written as EPA files
 * and imported into a new database is served as the shared query definitions say, filters, searches,
 * sorts and pages alike.
 */
import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemoAccounts } from '../../../server/src/auth/demo-accounts.ts';
import { buildDemoDatabase } from '../../../server/src/data/demo/build-demo.ts';
import { importFiles } from '../../../server/src/import/import-files.ts';
import { writeEpaFiles } from '../../helpers/epa-files.ts';
import { queryConformance } from '../conformance.ts';

let dir = '';

queryConformance({
  runs: 12,
  setup: async () => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-imported-'));
    await buildDemoDatabase(join(dir, 'demo.db'), { manifests: 1500, seed: 17 });
    const demo = new BetterSqlite3(join(dir, 'demo.db'), { readonly: true });
    mkdirSync(join(dir, 'files'));
    await writeEpaFiles(demo, join(dir, 'files'), { linesPerPart: 2000 });
    demo.close();
    const db = join(dir, 'imported.db');
    await importFiles({ db, paths: [join(dir, 'files')] });
    const accounts = new BetterSqlite3(db);
    await createDemoAccounts(accounts);
    accounts.close();
    return db;
  },
  cleanup: () => rmSync(dir, { recursive: true, force: true }),
});
