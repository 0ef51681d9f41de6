/**
 * npm run users -- --db FILE add NAME --scopes generators,manifests   (password from TRACKER_PASSWORD or stdin)
 * npm run users -- --db FILE passwd NAME   (new password from TRACKER_PASSWORD or stdin; revokes the tokens)
 * npm run users -- --db FILE list
 * npm run users -- --db FILE remove NAME     (revokes the tokens)
 */
import { text } from 'node:stream/consumers';
import { parseArgs } from 'node:util';
import { DatabaseError, openDatabase } from '../db/open.ts';
import { UserError, addUser, changePassword, listUsers, parseScopes, removeUser } from '../auth/users.ts';

const USAGE = `usage:
  npm run users -- --db FILE add NAME --scopes generators,manifests   (password from TRACKER_PASSWORD or standard input)
  npm run users -- --db FILE passwd NAME   (new password from TRACKER_PASSWORD or standard input)
  npm run users -- --db FILE list
  npm run users -- --db FILE remove NAME`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

async function readPassword(): Promise<string> {
  const fromEnvironment = process.env.TRACKER_PASSWORD;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (process.stdin.isTTY) console.error('Password (then Enter, Ctrl-D):');
  const input = await text(process.stdin);
  return input.replace(/\r?\n$/, '');
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: { db: { type: 'string' }, scopes: { type: 'string' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (!values.db) fail('--db FILE is required');
  const [command, name, ...rest] = positionals;
  if (rest.length > 0) fail(`unexpected arguments: ${rest.join(' ')}`);
  const db = openDatabase(values.db);
  try {
    switch (command) {
      case 'add': {
        if (!name) fail('add needs a user name');
        if (!values.scopes) fail('add needs --scopes, e.g. --scopes generators,manifests');
        const scopes = parseScopes(values.scopes);
        const user = await addUser(db, name, await readPassword(), scopes);
        console.log(`added ${user.username} (${user.scopes.join(', ')})`);
        break;
      }
      case 'passwd':
        if (!name) fail('passwd needs a user name');
        if (!(await changePassword(db, name, await readPassword()))) fail(`no user "${name}"`);
        console.log(`changed the password of ${name}; its sign-ins were ended`);
        break;
      case 'list':
        for (const user of listUsers(db)) {
          console.log(`${user.username}\t${user.scopes.join(',')}\t${user.createdAt}`);
        }
        break;
      case 'remove':
        if (!name) fail('remove needs a user name');
        if (!removeUser(db, name)) fail(`no user "${name}"`);
        console.log(`removed ${name}`);
        break;
      case undefined:
      default:
        fail(command ? `unknown command "${command}"` : 'give a command: add, passwd, list or remove');
    }
  } finally {
    db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UserError || error instanceof DatabaseError) fail(error.message);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
