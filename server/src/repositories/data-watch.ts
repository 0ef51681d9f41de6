/**
 * Keeps the repositories current while another connection writes the database they read (an import into
 * the served file, docs/api.md "The data while serving"). Before each request the data version is asked;
 * after a change the repositories drop what they had read from the rows (value counts, bookmarks) and stop
 * using the generator matches, answering those counts and boxes with SQL, and once the data has been
 * quiet for QUIET_MS new matches are read off the main thread (`rebuild`, the read pool) and swapped in.
 * No request waits for a rebuild, and none is answered from data older than the last commit.
 */
import type { Database } from 'better-sqlite3';
import { DataVersion } from '../db/data-version.ts';
import type { MatchesSnapshot } from './generator-matches.ts';
import type { GeneratorsRepository } from './generators-repository.ts';
import type { ManifestsRepository } from './manifests-repository.ts';

/**
 * How long the data must stay unchanged before the matches are read again: an import commits every second
 * or so, and reading them (~1 s for 100,000 generators) between two of its commits would be thrown away.
 */
export const QUIET_MS = 1500;

export class DataWatch {
  private readonly version: DataVersion;
  private readonly generators: GeneratorsRepository;
  private readonly manifests: ManifestsRepository;
  private readonly rebuild: () => Promise<MatchesSnapshot>;
  private readonly onError: (error: unknown) => void;
  private changes = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(options: {
    db: Database;
    generators: GeneratorsRepository;
    manifests: ManifestsRepository;
    rebuild: () => Promise<MatchesSnapshot>;
    onError: (error: unknown) => void;
  }) {
    this.version = new DataVersion(options.db);
    this.generators = options.generators;
    this.manifests = options.manifests;
    this.rebuild = options.rebuild;
    this.onError = options.onError;
  }

  /** Before a request: takes in a change committed since the last one. */
  check(): void {
    if (this.closed || !this.version.changed()) return;
    this.changes += 1;
    this.generators.dataChanged();
    this.manifests.dataChanged();
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.quiet(), QUIET_MS).unref();
  }

  private quiet(): void {
    this.timer = undefined;
    const at = this.changes;
    this.rebuild().then(
      (snapshot) => {
        // A change while it was read makes it stale at once: the next quiet moment reads again.
        if (!this.closed && at === this.changes) this.generators.swapMatches(snapshot);
      },
      (error: unknown) => {
        if (!this.closed) this.onError(error);
      },
    );
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }
}
