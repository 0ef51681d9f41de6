/**
 * Loaded before a command (`node --import`): resolving a database client (better-sqlite3, postgres) throws,
 * so a test sees that the command refused its arguments before it loaded one, or fails where it loads one.
 */
import { registerHooks } from 'node:module';

const CLIENTS = new Set(['better-sqlite3', 'postgres']);

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (CLIENTS.has(specifier)) throw new Error(`${specifier} was loaded before the arguments were refused`);
    return nextResolve(specifier, context);
  },
});
