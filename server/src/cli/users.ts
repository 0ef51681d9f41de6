/**
 * The accounts of a tracker database, SQLite file or PostgreSQL (--db postgres://…, or TRACKER_DATABASE_URL
 * when --db is not given):
 * npm run users -- --db FILE add NAME --scopes generators,manifests   (password from TRACKER_PASSWORD or stdin)
 * npm run users -- --db FILE passwd NAME   (new password from TRACKER_PASSWORD or stdin; revokes the tokens)
 * npm run users -- --db FILE list
 * npm run users -- --db FILE remove NAME     (revokes the tokens)
 */
import { text } from 'node:stream/consumers';
import type { Scope } from '../../../shared/api/index.ts';
import { passwordCostProblem } from '../auth/passwords.ts';
import {
  UserError,
  addUser,
  changePassword,
  listUsers,
  parseScopes,
  removeUser,
  type User,
} from '../auth/users.ts';
import { isPostgresUrl } from '../postgres/pg-url.ts';
import { DatabaseError } from '../db/database-error.ts';
import { readArguments, refuse, usageError } from './arguments.ts';

/** The four commands over one database, whichever backend holds it. */
interface UserAdmin {
  add(name: string, password: string, scopes: Scope[]): Promise<User>;
  passwd(name: string, password: string): Promise<boolean>;
  list(): Promise<User[]>;
  remove(name: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The accounts of the database `target` names, its backend's client loaded only now: the arguments are
 * checked first, so that a mistyped one is told at once, without loading either client.
 */
async function openAdmin(target: string): Promise<UserAdmin> {
  if (isPostgresUrl(target)) {
    const [{ pgUsers }, { connect, migrateOrRefuse }] = await Promise.all([
      import('../postgres/pg-accounts.ts'),
      import('../postgres/pg-store.ts'),
    ]);
    const sql = await connect(target, { max: 1 });
    try {
      await migrateOrRefuse(sql, target);
    } catch (error) {
      await sql.end();
      throw error;
    }
    return {
      add: (name, password, scopes) => pgUsers.add(sql, name, password, scopes),
      passwd: (name, password) => pgUsers.changePassword(sql, name, password),
      list: () => pgUsers.list(sql),
      remove: (name) => pgUsers.remove(sql, name),
      close: () => sql.end(),
    };
  }
  const { openDatabase } = await import('../db/open.ts');
  const db = openDatabase(target);
  return {
    add: (name, password, scopes) => addUser(db, name, password, scopes),
    passwd: (name, password) => changePassword(db, name, password),
    list: () => Promise.resolve(listUsers(db)),
    remove: (name) => Promise.resolve(removeUser(db, name)),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

const USAGE = `usage:
  (FILE: a SQLite file or postgres://user:password@host:port/name; TRACKER_DATABASE_URL when --db is not given)
  npm run users -- --db FILE add NAME --scopes generators,manifests   (password from TRACKER_PASSWORD or standard input)
  npm run users -- --db FILE passwd NAME   (new password from TRACKER_PASSWORD or standard input)
  npm run users -- --db FILE list
  npm run users -- --db FILE remove NAME`;

const fail: (message: string) => never = usageError(USAGE);

async function readPassword(): Promise<string> {
  const fromEnvironment = process.env.TRACKER_PASSWORD;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  if (process.stdin.isTTY) console.error('Password (then Enter, Ctrl-D):');
  const input = await text(process.stdin);
  return input.replace(/\r?\n$/, '');
}

/** A command with what it acts on, checked before any database is opened. */
type Command =
  | { kind: 'add'; name: string; scopes: Scope[] }
  | { kind: 'passwd' | 'remove'; name: string }
  | { kind: 'list' };

function command(positionals: readonly string[], scopes: string | undefined): Command {
  const [kind, ...rest] = positionals;
  const named = kind === 'add' || kind === 'passwd' || kind === 'remove';
  const unexpected = rest.slice(named ? 1 : 0);
  if (kind === undefined) fail('give a command: add, passwd, list or remove');
  if (!named && kind !== 'list') fail(`unknown command "${kind}"`);
  if (unexpected.length > 0) fail(`unexpected arguments: ${unexpected.join(' ')}`);
  if (kind === 'list') return { kind };
  const name = rest[0];
  if (!name) fail(`${kind} needs a user name`);
  if (kind !== 'add') return { kind, name };
  if (!scopes) fail('add needs --scopes, e.g. --scopes generators,manifests');
  return { kind, name, scopes: parseScopes(scopes) };
}

async function main(): Promise<void> {
  const parsed = readArguments(USAGE, { db: { type: 'string' }, scopes: { type: 'string' } }, true);
  if (!parsed) return;
  const costProblem = passwordCostProblem();
  if (costProblem !== undefined) fail(costProblem);
  const { values, positionals } = parsed;
  const target = values.db ?? (process.env.TRACKER_DATABASE_URL || undefined);
  if (!target) fail('--db FILE is required');
  const asked = command(positionals, values.scopes);
  const db = await openAdmin(target);
  try {
    switch (asked.kind) {
      case 'add': {
        const user = await db.add(asked.name, await readPassword(), asked.scopes);
        console.log(`added ${user.username} (${user.scopes.join(', ')})`);
        break;
      }
      case 'passwd':
        if (!(await db.passwd(asked.name, await readPassword()))) fail(`no user "${asked.name}"`);
        console.log(`changed the password of ${asked.name}; its sign-ins were ended`);
        break;
      case 'list':
        for (const user of await db.list()) {
          console.log(`${user.username}\t${user.scopes.join(',')}\t${user.createdAt}`);
        }
        break;
      case 'remove':
        if (!(await db.remove(asked.name))) fail(`no user "${asked.name}"`);
        console.log(`removed ${asked.name}`);
        break;
    }
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseError) refuse(error.message);
  if (error instanceof UserError) fail(error.message);
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
