/** Generator rows, totals and lookups (spec 4.1–4.3) over the generators table and its per-generator sets. */
import type { Database } from 'better-sqlite3';
import type {
  GeneratorField,
  GeneratorFilterFields,
  GeneratorLookupField,
} from '../../../shared/api/index.ts';
import { GENERATOR_SEARCH_FIELDS, type Sort } from '../../../shared/query/index.ts';
import { GENERATOR_KEY } from '../../../shared/query/sort.ts';
import { GENERATOR_LOOKUP_LISTS } from '../db/lookup-lists.ts';
import { StatementCache } from '../db/statements.ts';
import { readTallies } from '../db/tallies.ts';
import { GeneratorMatches, type MatchesSnapshot } from './generator-matches.ts';
import type { IndexedLookup } from './lookups.ts';
import { indexedLookups } from './lookups.ts';
import { PagedList } from './paged-list.ts';
import { TrigramSearch, type SearchClause } from './trigram-search.ts';
import { generatorWhere, type Where } from './where.ts';

export interface GeneratorTotalsRow {
  epa_total: number;
  shipped_count: number;
  container_count: number;
  mmc_count: number;
}

export interface GeneratorListQuery {
  filterFields: GeneratorFilterFields;
  searchKey: string;
  sort: Sort<GeneratorField>;
  page: number;
  pageSize: number;
  fields: readonly GeneratorField[];
}

export class GeneratorsRepository {
  private readonly statements: StatementCache;
  private readonly list: PagedList;
  private readonly search: TrigramSearch;
  private readonly lookups: Record<GeneratorLookupField, IndexedLookup>;
  private matches: GeneratorMatches;
  /**
   * True from a data change until new matches are swapped in: meanwhile counts and boxes are read with SQL,
   * slower for some filters but never stale.
   */
  private matchesStale = false;

  /** `searchListLimit`: see TrigramSearch; tests lower it to drive the many-matches path on small data. */
  constructor(db: Database, options: { searchListLimit?: number } = {}) {
    this.statements = new StatementCache(db);
    this.list = new PagedList(this.statements, 'generators', GENERATOR_KEY);
    this.matches = new GeneratorMatches(this.statements);
    this.search = new TrigramSearch(
      db,
      this.statements,
      'generators',
      GENERATOR_SEARCH_FIELDS,
      options.searchListLimit,
    );
    this.lookups = indexedLookups(this.statements, 'generators', GENERATOR_LOOKUP_LISTS, {
      epa_handler_id: 'epa_handler_id',
    });
  }

  /** Reads the in-memory matches now, so the first user does not wait for them. */
  warm(): void {
    this.matches.warm();
  }

  /**
   * Another connection has committed (an import): what was read from the rows before is dropped, and the
   * matches are not used until `swapMatches` brings ones read after the change.
   */
  dataChanged(): void {
    this.list.dataChanged();
    this.matchesStale = true;
  }

  /** Matches read from the data as it is now, for a repository on another thread (the read pool's job). */
  matchesSnapshot(): MatchesSnapshot {
    return new GeneratorMatches(this.statements).snapshot();
  }

  /** Puts in matches read after the last data change. */
  swapMatches(snapshot: MatchesSnapshot | undefined): void {
    this.matches = new GeneratorMatches(this.statements, snapshot);
    this.matchesStale = false;
  }

  page(query: GeneratorListQuery): { totalElements: number; content: Record<string, unknown>[] } {
    const search = this.search.clause(query.searchKey);
    const where = generatorWhere(query.filterFields, search);
    const rows = this.list.page({
      where,
      sort: query.sort,
      page: query.page,
      pageSize: query.pageSize,
      columns: query.fields,
    });
    return {
      totalElements: this.count(query.filterFields, search, where),
      content: rows.map(({ id: _id, ...row }) => row),
    };
  }

  /** From what is already known when that is free, else from the in-memory matches. */
  private count(filterFields: GeneratorFilterFields, search: SearchClause | undefined, where: Where): number {
    const known = where.unfiltered || where.count !== undefined || where.countOf !== undefined;
    // A key too short for the trigram index has no id list: SQLite counts its scan.
    if (known || (search && !search.ids) || this.matchesStale) return this.list.count(where);
    return this.matches.summarize(filterFields, search?.ids).count;
  }

  totals(filterFields: GeneratorFilterFields, searchKey: string): GeneratorTotalsRow {
    const search = this.search.clause(searchKey, 'totals');
    if (!search && generatorWhere(filterFields).unfiltered) {
      // The whole dataset's boxes are tallies kept current by every commit (db/tallies.ts).
      const tallies = readTallies(this.statements);
      return {
        epa_total: Math.round(tallies.generator_tons * 10_000) / 10_000,
        shipped_count: tallies.generator_shipped,
        container_count: tallies.generator_containers,
        mmc_count: tallies.generator_shippers,
      };
    }
    if ((search && !search.ids) || this.matchesStale) {
      return this.sqlTotals(generatorWhere(filterFields, search, 'list'));
    }
    const sums = this.matches.summarize(filterFields, search?.ids);
    return {
      // As SQL's round(sum, 4): the boxes show two decimals, the typed dialect up to four.
      epa_total: Math.round(sums.shippedTons * 10_000) / 10_000,
      shipped_count: sums.shippedCount,
      container_count: sums.containerCount,
      mmc_count: sums.shippers,
    };
  }

  private sqlTotals(where: Where): GeneratorTotalsRow {
    return this.statements
      .get(
        `SELECT round(coalesce(sum(t.shipped_tons), 0), 4) AS epa_total,
                coalesce(sum(t.shipped_count), 0) AS shipped_count,
                coalesce(sum(t.container_count), 0) AS container_count,
                coalesce(sum(t.shipped_count > 0), 0) AS mmc_count
         FROM generators t ${where.sql}`,
      )
      .get(...where.params) as GeneratorTotalsRow;
  }

  lookup(field: GeneratorLookupField, search: string, page: number) {
    return this.lookups[field].page(search, page);
  }

  /**
   * This lookup page when it needs no scan of a whole table (which a short key over the EPA handler ids
   * may), else undefined: lookups.ts `pageWithoutScan`.
   */
  lookupWithoutScan(field: GeneratorLookupField, search: string, page: number) {
    return this.lookups[field].pageWithoutScan(search, page);
  }

  /** True when a page or the totals for this searchKey scan the table rather than read an index. */
  scans(searchKey: string): boolean {
    return this.search.scans(searchKey);
  }
}
