/**
 * One export through main's real services, in a process of its own so its peak memory is the export's:
 * signs in to the server given on the command line, exports every manifest (all columns, waste lines sheet)
 * to the file given, and prints one JSON line: seconds, rows, peak RSS.
 *
 *   node bench/export/export-in-main.ts <server origin> <output.xlsx> <user data dir>
 */
import { readFileSync } from 'node:fs';
import { dirname, basename } from 'node:path';
import { MANIFEST_COLUMNS } from '../../shared/columns.ts';
import type { EventPayload } from '../../shared/ipc/contract.ts';
import { createMainServices } from '../../main/src/ipc/services.ts';
import { API_BASE_URL_OPTION } from '../../main/src/settings/launch-options.ts';
import { DEMO_ACCOUNTS } from '../../server/src/auth/demo-accounts.ts';

/**
 * This process's own peak RSS (VmHWM), both threads together. Not `process.resourceUsage().maxRSS`: on
 * Linux a process started by fork and exec keeps the high-water mark of its forked copy of the parent, so
 * it reports at least the benchmark's own RSS at the spawn (measured: 406 MB for a 41 MB child of a
 * 450 MB parent). Systems without /proc fall back to maxRSS.
 */
function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // No /proc here: maxRSS below.
  }
  return process.resourceUsage().maxRSS * 1024;
}

const [origin, output, userDataDir] = process.argv.slice(2);
if (!origin || !output || !userDataDir)
  throw new Error('usage: export-in-main.ts <origin> <output> <user data>');
const inspector = DEMO_ACCOUNTS.find((account) => account.username === 'inspector');
if (!inspector) throw new Error('no inspector demo account');

let finished: (outcome: EventPayload<'export.done'> | EventPayload<'export.failed'>) => void = () =>
  undefined;
const outcome = new Promise<EventPayload<'export.done'> | EventPayload<'export.failed'>>((resolve) => {
  finished = resolve;
});
const services = await createMainServices({
  userDataDir,
  argv: [API_BASE_URL_OPTION, origin],
  env: {},
  encryption: { isAvailable: () => false, encrypt: () => Buffer.alloc(0), decrypt: () => '' },
  emit: (event, payload) => {
    if (event === 'export.done' || event === 'export.failed') {
      finished(payload as EventPayload<'export.done'> | EventPayload<'export.failed'>);
    }
  },
  openExternal: () => Promise.resolve(),
  chooseSaveTarget: () => Promise.resolve(`${dirname(output)}/${basename(output)}`),
});
const signedIn = await services.session.signIn({
  username: inspector.username,
  password: inspector.password,
  remember: false,
});
if (!signedIn.ok) throw new Error(signedIn.error.message);

const start = performance.now();
const started = await services.exports.grid({
  list: 'manifests',
  format: 'xlsx',
  filterFields: {},
  searchKey: '',
  fields: MANIFEST_COLUMNS.map((column) => column.field),
});
if (!started.ok || !started.data) throw new Error('the export did not start');
const result = await outcome;
const seconds = (performance.now() - start) / 1000;
if ('message' in result) throw new Error(result.message);
console.log(JSON.stringify({ seconds, rows: result.rows, maxRssBytes: peakRssBytes() }));
