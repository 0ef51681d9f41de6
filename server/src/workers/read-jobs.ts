/**
 * The requests the read pool runs (read-pool.ts): those that scan a whole table because no index can answer
 * them (a searchKey or lookup search of one or two characters), and reading the generator matches again
 * after an import. Each is a repository call, the same one the
 * main thread would make, so its answer is the same; only the thread differs.
 */
import type { GeneratorLookupField, ManifestLookupField } from '../../../shared/api/index.ts';
import type { GeneratorFilterFields, ManifestFilterFields } from '../../../shared/api/index.ts';
import type { GeneratorListQuery, GeneratorsRepository } from '../repositories/generators-repository.ts';
import type { ManifestListQuery, ManifestsRepository } from '../repositories/manifests-repository.ts';

export interface Repositories {
  generators: GeneratorsRepository;
  manifests: ManifestsRepository;
}

/** Every job by name: what it takes and how it runs. */
export const READ_JOBS = {
  generatorsPage: (repositories: Repositories, query: GeneratorListQuery) =>
    repositories.generators.page(query),
  generatorsTotals: (repositories: Repositories, filters: GeneratorFilterFields, searchKey: string) =>
    repositories.generators.totals(filters, searchKey),
  generatorsLookup: (repositories: Repositories, field: GeneratorLookupField, search: string, page: number) =>
    repositories.generators.lookup(field, search, page),
  /** A Buffer here; the main thread receives its bytes as a Uint8Array (structured clone). */
  manifestsPageBytes: (repositories: Repositories, query: ManifestListQuery): Uint8Array =>
    repositories.manifests.pageBytes(query),
  manifestsTotals: (repositories: Repositories, filters: ManifestFilterFields, searchKey: string) =>
    repositories.manifests.totals(filters, searchKey),
  manifestsLookup: (repositories: Repositories, field: ManifestLookupField, search: string, page: number) =>
    repositories.manifests.lookup(field, search, page),
  /** The generator matches read from the data as it is now, for the main thread to swap in (data-watch.ts). */
  generatorMatches: (repositories: Repositories) => repositories.generators.matchesSnapshot(),
};

export type ReadJobs = typeof READ_JOBS;
export type ReadJobName = keyof ReadJobs;
/** A job's arguments after the repositories. */
export type ReadJobArgs<Name extends ReadJobName> =
  Parameters<ReadJobs[Name]> extends [Repositories, ...infer Rest] ? Rest : never;
export type ReadJobResult<Name extends ReadJobName> = ReturnType<ReadJobs[Name]>;

/** Main thread → worker. */
export interface ReadJobMessage {
  id: number;
  name: ReadJobName;
  args: unknown[];
}

/** Worker → main thread: the job's result, or the message of what it threw. */
export type ReadJobReply =
  { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** What a worker is started with. */
export interface ReadWorkerData {
  dbPath: string;
  /** See ReadPoolOptions.gate. */
  gate: Int32Array | undefined;
}
