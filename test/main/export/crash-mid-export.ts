/**
 * An app process that is killed in the middle of an export (leftovers.test.ts): main's real services over
 * the user-data folder given, signed in to the server given, export every manifest to the target given, and
 * print "writing" once the first page is written, its temporary and scratch files on disk. The pages after
 * the first never come (a server that hangs), so the export is still running when the test kills it.
 *
 *   node test/main/export/crash-mid-export.ts <server origin> <target.xlsx> <user data dir>
 */
import { MANIFEST_COLUMNS } from '../../../shared/columns.ts';
import { createMainServices } from '../../../main/src/ipc/services.ts';
import { API_BASE_URL_OPTION } from '../../../main/src/settings/launch-options.ts';
import { DEMO_USERS } from '../../helpers/demo-users.ts';

const [origin, target, userDataDir] = process.argv.slice(2);
if (!origin || !target || !userDataDir)
  throw new Error('usage: crash-mid-export.ts <origin> <target> <user data>');

const hanging: typeof fetch = async (input, init) => {
  const body =
    typeof init?.body === 'string' ? (JSON.parse(init.body) as { pageInfo?: { page?: number } }) : {};
  if ((body.pageInfo?.page ?? 0) > 0) await new Promise(() => undefined);
  return fetch(input, init);
};

const services = await createMainServices({
  userDataDir,
  argv: [API_BASE_URL_OPTION, origin],
  env: {},
  encryption: { isAvailable: () => false, encrypt: () => Buffer.alloc(0), decrypt: () => '' },
  emit: (event, payload) => {
    if (event === 'export.progress' && (payload as { rowsWritten: number }).rowsWritten > 0)
      console.log('writing');
  },
  openExternal: () => Promise.resolve(),
  chooseSaveTarget: () => Promise.resolve(target),
  client: { fetch: hanging },
});
const signedIn = await services.session.signIn({ ...DEMO_USERS.inspector, remember: false });
if (!signedIn.ok) throw new Error(signedIn.error.message);
const started = await services.exports.grid({
  list: 'manifests',
  format: 'xlsx',
  filterFields: {},
  searchKey: '',
  fields: MANIFEST_COLUMNS.map((column) => column.field),
});
if (!started.ok || !started.data) throw new Error('the export did not start');
