/**
 * The server-postgres project's run: named for its workers (TEST_RUN_VARIABLE, which they inherit), so
 * that the test databases loaded from the same file are copies of the first (test/helpers/postgres-database.ts);
 * its templates are dropped when the run ends.
 */
import { randomBytes } from 'node:crypto';
import { TEST_RUN_VARIABLE, dropTemplates } from '../../../helpers/postgres-database.ts';

export default function setup(): () => Promise<void> {
  const run = randomBytes(4).toString('hex');
  process.env[TEST_RUN_VARIABLE] = run;
  return () => dropTemplates(run);
}
