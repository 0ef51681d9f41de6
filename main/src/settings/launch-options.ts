/**
 * What the launcher tells the app on its command line or in its environment. `npm start` runs the embedded
 * demo server and passes its address, which becomes the default server address until the user picks one.
 */
import { ApiBaseUrl, type Settings } from '../../../shared/ipc/contract.ts';

export const API_BASE_URL_OPTION = '--api-base-url';
export const API_BASE_URL_ENV = 'WASTE_TRACKER_API_BASE_URL';
export const FALLBACK_API_BASE_URL = 'http://127.0.0.1:4010';

export interface LaunchDefaults {
  defaults: Settings;
  /** Set when the launcher gave an address that is not usable; the fallback is used instead. */
  problem?: string;
}

function optionValue(argv: readonly string[], name: string): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument.startsWith(`${name}=`)) return argument.slice(name.length + 1);
    if (argument === name) return argv[index + 1];
  }
  return undefined;
}

/** The command-line option wins over the environment, which wins over the fallback. */
export function launchDefaults(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): LaunchDefaults {
  const given = optionValue(argv, API_BASE_URL_OPTION) ?? env[API_BASE_URL_ENV];
  const base: Settings = {
    apiBaseUrl: FALLBACK_API_BASE_URL,
    pageSize: 100,
    requestTimeoutMs: 20_000,
    theme: 'system',
    plainHttpServers: [],
    removeDataOnSignOut: false,
  };
  if (given === undefined || given.trim() === '') return { defaults: base };
  const parsed = ApiBaseUrl.safeParse(given);
  if (parsed.success) return { defaults: { ...base, apiBaseUrl: parsed.data } };
  return {
    defaults: base,
    problem: `The launcher's server address ${JSON.stringify(given)} is not an http(s) URL; using ${FALLBACK_API_BASE_URL}.`,
  };
}
