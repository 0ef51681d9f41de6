/** Runs a server command where loading a database client fails it (no-database-client.ts). */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const HOOK = join(ROOT, 'test/helpers/no-database-client.ts');

/** `cli` run with `args` from the repository's root: a refusal of its arguments loads no database client. */
export function commandRefusal(cli: string, args: readonly string[]) {
  return spawnSync(process.execPath, ['--import', HOOK, cli, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}
