/**
 * What every command of the server does with its arguments: node:util's parseArgs, strict, where `--help`
 * (`-h`) prints the usage, and an argument the command does not know, or a value it refuses, ends it with
 * the message and the usage (exit status 2, a usage error). Arguments that are well formed but name what
 * refuses (a database that cannot be opened, or another writer holds) end it with the message alone, as
 * the usage would not help (refuse).
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Ends the process with `message` and the usage, exit status 2. */
export function usageError(usage: string): (message: string) => never {
  return (message) => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
}

/** Ends the process with `message` alone, exit status 2: what the arguments name refused. */
export function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const;

type Options = NonNullable<ParseArgsConfig['options']>;

/** The command's arguments as parseArgs reads them, `help` among its options. */
type Parsed<O extends Options, P extends boolean> = ReturnType<
  typeof parseArgs<{ options: O & typeof HELP; strict: true; allowPositionals: P }>
>;

/**
 * The command's options and, with `allowPositionals`, its other arguments; undefined when they ask for
 * `--help`, whose usage is printed then. A bad argument ends the process (usageError).
 */
export function readArguments<const O extends Options, const P extends boolean = false>(
  usage: string,
  options: O,
  allowPositionals?: P,
): Parsed<O, P> | undefined {
  let parsed: Parsed<O, P>;
  try {
    parsed = parseArgs({
      options: { ...options, ...HELP },
      strict: true,
      allowPositionals: allowPositionals ?? false,
    }) as Parsed<O, P>;
  } catch (error) {
    return usageError(usage)(error instanceof Error ? error.message : String(error));
  }
  if ('help' in parsed.values && parsed.values.help === true) {
    console.log(usage);
    return undefined;
  }
  return parsed;
}

/** Whether `path` names a folder: a command refuses one, up front, where it writes a file. */
export const isFolder = (path: string): boolean => existsSync(path) && statSync(path).isDirectory();
