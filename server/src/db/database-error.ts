/**
 * A database that cannot be used as asked (none at the path, a folder, another schema version, a writer
 * already at work), said in a sentence: a command prints its message alone. Kept apart from both
 * backends' clients so that a command can tell it without loading them.
 */
export class DatabaseError extends Error {}
