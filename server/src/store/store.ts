/**
 * The storage the tracker API reads and its accounts live in, as one interface with two implementations:
 * SQLite (sqlite-store.ts: one file, the embedded default) and PostgreSQL (server/src/postgres/: one
 * database served by any number of server processes). Routes call only this; each backend builds its SQL
 * from shared/query's definition (db/sqlite-query.ts, postgres/pg-query.ts), so both give the same answers
 * (the server test suite runs against both).
 *
 * Every read takes the request's `signal`, which aborts when its client has gone: a backend may drop the
 * work (SQLite's read pool stops a scan, PostgreSQL cancels the statement). Token checks and sign-in
 * reservations may answer synchronously (SQLite, in process) or with a promise (PostgreSQL, over the
 * network): the guard runs a synchronous answer without a promise on every request.
 */
import type {
  GeneratorField,
  GeneratorFilterFields,
  GeneratorLookupField,
  ManifestField,
  ManifestFilterFields,
  ManifestLookupField,
} from '../../../shared/api/index.ts';
import type { GeneratorTotal, ManifestTotal } from '../../../shared/query/definition.ts';
import type { LookupPage } from '../../../shared/query/lookup.ts';
import type { ListQuery } from '../../../shared/query/parse.ts';
import type { Reservation, ThrottleOptions } from '../auth/throttle.ts';
import type { MaybePromise, Tokens } from '../auth/tokens.ts';
import type { CanonicalDetail } from '../repositories/detail-repository.ts';

export type GeneratorListQuery = ListQuery<GeneratorField, GeneratorFilterFields>;
export type ManifestListQuery = ListQuery<ManifestField, ManifestFilterFields>;
export type GeneratorTotalsRow = Record<GeneratorTotal, number>;
export type ManifestTotalsRow = Record<ManifestTotal, number>;
export interface GeneratorPage {
  totalElements: number;
  content: Record<string, unknown>[];
}

export type { MaybePromise, Tokens };

export interface GeneratorReads {
  page(query: GeneratorListQuery, signal?: AbortSignal): Promise<GeneratorPage>;
  totals(
    filters: GeneratorFilterFields,
    searchKey: string,
    signal?: AbortSignal,
  ): Promise<GeneratorTotalsRow>;
  lookup(
    field: GeneratorLookupField,
    search: string,
    page: number,
    signal?: AbortSignal,
  ): Promise<LookupPage>;
}

export interface ManifestReads {
  /** The page as the UTF-8 JSON the wire sends (waste lines spliced in as stored). */
  pageBytes(query: ManifestListQuery, signal?: AbortSignal): Promise<Buffer>;
  totals(filters: ManifestFilterFields, searchKey: string, signal?: AbortSignal): Promise<ManifestTotalsRow>;
  lookup(field: ManifestLookupField, search: string, page: number, signal?: AbortSignal): Promise<LookupPage>;
}

export interface DetailReads {
  find(handlerId: string): Promise<CanonicalDetail | undefined>;
}

/** A stored account as sign-in reads it. */
export interface AccountRow {
  id: number;
  username: string;
  password_hash: string;
  scopes: string;
}

/** The sign-in throttle (auth/throttle.ts says the rule). */
export interface SignInThrottle {
  reserve(username: string, address: string): MaybePromise<Reservation>;
}

export interface Accounts {
  findUser(username: string): Promise<AccountRow | undefined>;
  /** Stores a new hash of the same password, only over `oldHash` (a cost upgrade at sign-in). */
  replacePasswordHash(userId: number, oldHash: string, newHash: string): Promise<void>;
  tokens(options: { ttlMs: number; now?: () => number }): Tokens;
  throttle(options: ThrottleOptions): SignInThrottle;
}

export interface TrackerStore {
  readonly backend: 'sqlite' | 'postgres';
  readonly generators: GeneratorReads;
  readonly manifests: ManifestReads;
  readonly details: DetailReads;
  readonly accounts: Accounts;
  /** Reads what the first requests would otherwise wait for (lookup lists, unfiltered totals). */
  warm(): Promise<void>;
  /**
   * Before each request: takes in a change another connection committed since the last one (an import into
   * the served database). SQLite asks its data version here; PostgreSQL checks its version row wherever it
   * uses what it keeps in memory, so it has nothing to do.
   */
  checkData(): void;
  close(): Promise<void>;
}
