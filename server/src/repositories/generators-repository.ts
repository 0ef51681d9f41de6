/** Generator rows, totals and lookups (spec 4.1–4.3) over the generators table and its per-generator sets. */
import type { Database } from 'better-sqlite3';
import type {
  GeneratorField,
  GeneratorFilterFields,
  GeneratorLookupField,
} from '../../../shared/api/index.ts';
import { GENERATOR_QUERY, type GeneratorTotal } from '../../../shared/query/definition.ts';
import { withStatusGroups, type LookupPage } from '../../../shared/query/lookup.ts';
import type { ListQuery } from '../../../shared/query/parse.ts';
import { GENERATOR_QUANTITY_COLUMNS } from '../db/fact-storage.ts';
import { GENERATOR_LOOKUP_LISTS } from '../db/lookup-lists.ts';
import { generatorWhere, totalsSelect, type SearchClause, type Where } from '../db/sqlite-query.ts';
import { StatementCache } from '../db/statements.ts';
import { tallyTotals } from '../db/tallies.ts';
import { GeneratorMatches, type MatchesSnapshot } from './generator-matches.ts';
import type { IndexedLookup } from './lookups.ts';
import { indexedLookups } from './lookups.ts';
import { PagedList } from './paged-list.ts';
import { TrigramSearch } from './trigram-search.ts';

export type GeneratorTotalsRow = Record<GeneratorTotal, number>;

export type GeneratorListQuery = ListQuery<GeneratorField, GeneratorFilterFields>;

/** The totals over the rows of `generators t`, as SQL. */
const TOTALS_SELECT = totalsSelect(
  GENERATOR_QUERY.totals,
  (quantity) => `t.${GENERATOR_QUANTITY_COLUMNS[quantity]}`,
);

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
  /** Every generator's registration status, read as a status lookup first needs it, until the data changes. */
  private registrations: ReadonlySet<string> | undefined;

  /** `searchListLimit`: see TrigramSearch; tests lower it to drive the many-matches path on small data. */
  constructor(db: Database, options: { searchListLimit?: number } = {}) {
    this.statements = new StatementCache(db);
    this.list = new PagedList(this.statements, 'generators', GENERATOR_QUERY.key);
    this.matches = new GeneratorMatches(this.statements);
    this.search = new TrigramSearch(
      db,
      this.statements,
      'generators',
      GENERATOR_QUERY.searchFields,
      options.searchListLimit,
    );
    this.lookups = indexedLookups(this.statements, 'generators', GENERATOR_LOOKUP_LISTS, {
      epa_handler_id: 'epa_handler_id',
    });
  }

  /** Reads the in-memory matches and statuses now, so the first user does not wait for them. */
  warm(): void {
    this.registrationStatuses();
    this.matches.warm();
  }

  /**
   * Another connection has committed (an import): what was read from the rows before is dropped, and the
   * matches are not used until `swapMatches` brings ones read after the change.
   */
  dataChanged(): void {
    this.list.dataChanged();
    this.registrations = undefined;
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
      query: JSON.stringify([query.filterFields, query.searchKey]),
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
    return this.matches.count(filterFields, search?.ids);
  }

  totals(filterFields: GeneratorFilterFields, searchKey: string): GeneratorTotalsRow {
    const search = this.search.clause(searchKey, 'totals');
    if (!search && generatorWhere(filterFields).unfiltered) {
      // The whole dataset's boxes are tallies kept current by every commit (db/tallies.ts).
      return tallyTotals(this.statements, 'generators');
    }
    if ((search && !search.ids) || this.matchesStale) {
      return this.sqlTotals(generatorWhere(filterFields, search, 'list'));
    }
    return this.matches.totals(filterFields, search?.ids);
  }

  private sqlTotals(where: Where): GeneratorTotalsRow {
    return this.statements
      .get(`SELECT ${TOTALS_SELECT} FROM generators t ${where.sql}`)
      .get(...where.params) as GeneratorTotalsRow;
  }

  lookup(field: GeneratorLookupField, search: string, page: number): LookupPage {
    return this.grouped(field, this.lookups[field].page(search, page));
  }

  /**
   * This lookup page when it needs no scan of a whole table (which a short key over the EPA handler ids
   * may), else undefined: lookups.ts `pageWithoutScan`.
   */
  lookupWithoutScan(field: GeneratorLookupField, search: string, page: number): LookupPage | undefined {
    const found = this.lookups[field].pageWithoutScan(search, page);
    return found && this.grouped(field, found);
  }

  /** The status lookup says which field each value is of (docs/api.md "Lookups"). */
  private grouped(field: GeneratorLookupField, page: LookupPage): LookupPage {
    return field === 'status' ? withStatusGroups(page, this.registrationStatuses()) : page;
  }

  private registrationStatuses(): ReadonlySet<string> {
    this.registrations ??= new Set(
      this.statements.get('SELECT DISTINCT registration_status FROM generators').pluck().all() as string[],
    );
    return this.registrations;
  }

  /** True when a page or the totals for this searchKey scan the table rather than read an index. */
  scans(searchKey: string): boolean {
    return this.search.scans(searchKey);
  }
}
