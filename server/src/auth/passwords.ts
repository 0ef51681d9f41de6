/**
 * Password hashing with scrypt (node:crypto). Stored as `scrypt$N$r$p$salt$hash` (base64), so the cost can be
 * raised without breaking stored hashes: a hash below the current cost still verifies, and sign-in re-hashes
 * it at the current cost (needsRehash).
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/** OWASP's scrypt minimum (Password Storage Cheat Sheet): N=2^17, r=8, p=1; about 1 s a hash on 2 busy cores. */
export const OWASP_MINIMUM_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

/** The environment variable that sets N as a power of two (r and p stay 8 and 1), like bcrypt's rounds. */
export const PASSWORD_COST_VARIABLE = 'TRACKER_PASSWORD_COST';
const LOWEST_LOG_N = 10;
/** 2^19 with r=8 takes 512 MiB a hash; 2^20 would pass MAX_MEMORY, and its hashes would never verify. */
const HIGHEST_LOG_N = 19;

/** The cost TRACKER_PASSWORD_COST names, or what is wrong with it. */
function readCost(environment: NodeJS.ProcessEnv): { cost: ScryptCost } | { problem: string } {
  const text = environment[PASSWORD_COST_VARIABLE];
  if (text === undefined || text === '') return { cost: OWASP_MINIMUM_COST };
  const logN = Number(text);
  if (!Number.isInteger(logN) || logN < LOWEST_LOG_N || logN > HIGHEST_LOG_N) {
    return {
      problem:
        `${PASSWORD_COST_VARIABLE} is the scrypt cost as a power of two, ${LOWEST_LOG_N}–${HIGHEST_LOG_N} ` +
        `(${Math.log2(OWASP_MINIMUM_COST.N)} by default); got "${text}"`,
    };
  }
  return { cost: { ...OWASP_MINIMUM_COST, N: 2 ** logN } };
}

/**
 * The cost new hashes are made at: OWASP's minimum unless TRACKER_PASSWORD_COST names another power of two,
 * 10–19. An organisation with faster machines raises it; the test suites lower it (every sign-in they make
 * would otherwise spend a second in scrypt) and test the stored cost with it unset.
 */
export function passwordCost(environment: NodeJS.ProcessEnv = process.env): ScryptCost {
  const read = readCost(environment);
  if ('problem' in read) throw new Error(read.problem);
  return read.cost;
}

/** What is wrong with TRACKER_PASSWORD_COST, if anything: the commands check it before they start. */
export function passwordCostProblem(environment: NodeJS.ProcessEnv = process.env): string | undefined {
  const read = readCost(environment);
  return 'problem' in read ? read.problem : undefined;
}

const KEY_LENGTH = 32;
/** Above this a stored hash is refused rather than let one sign-in take gigabytes (2^20 with r=8 is 1 GiB). */
const MAX_MEMORY = 1024 * 1024 * 1024;

/** scrypt's working memory, 128·N·r bytes, plus room for its own bookkeeping: node's 32 MiB default is 2^15. */
function memoryFor(cost: ScryptCost): number {
  return 128 * cost.N * cost.r + 1024 * 1024;
}

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...cost, maxmem: memoryFor(cost) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptCost = passwordCost()): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface StoredHash {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

function parseStored(stored: string): StoredHash | undefined {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every((value) => Number.isSafeInteger(value) && value > 0)) return undefined;
  if (memoryFor(cost) > MAX_MEMORY) return undefined;
  return { cost, salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/** True when `password` matches `stored`; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.cost);
  return parsed.hash.length === actual.length && timingSafeEqual(parsed.hash, actual);
}

/** True when `stored` was made at another cost than `cost`: sign-in then stores a new hash at `cost`. */
export function needsRehash(stored: string, cost: ScryptCost = passwordCost()): boolean {
  const parsed = parseStored(stored);
  return !parsed || parsed.cost.N !== cost.N || parsed.cost.r !== cost.r || parsed.cost.p !== cost.p;
}
