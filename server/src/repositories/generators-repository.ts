/** Generator rows, totals and lookups (spec 4.1–4.3) over the generators table and its per-generator sets. */
import type { Database } from 'better-sqlite3';
import type {
  GeneratorField,
  GeneratorFilterFields,
  GeneratorLookupField,
} from '../../../shared/api/index.ts';
import { GENERATOR_SEARCH_FIELDS, type Sort } from '../../../shared/query/index.ts';
import { withStatusGroups, type LookupPage } from '../../../shared/query/lookup.ts';
import { GENERATOR_KEY } from '../../../shared/query/sort.ts';
import { GENERATOR_LOOKUP_LISTS } from '../db/lookup-lists.ts';
import { StatementCache } from '../db/statements.ts';
import { GeneratorMatches } from './generator-matches.ts';
import type { IndexedLookup } from './lookups.ts';
import { indexedLookups } from './lookups.ts';
import { PagedList } from './paged-list.ts';
import { TrigramSearch, type SearchClause } from './trigram-search.ts';
import { GENERATOR_COLUMN_FILTERS, generatorWhere, type Where } from './where.ts';

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
  private readonly matches: GeneratorMatches;
  private unfilteredTotals: GeneratorTotalsRow | undefined;
  private registrations: ReadonlySet<string> | undefined;

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
    this.lookups = indexedLookups(db, this.statements, 'generators', GENERATOR_LOOKUP_LISTS, {
      epa_handler_id: 'epa_handler_id',
    });
  }

  /** Reads the in-memory lookup lists now, so the first user does not wait for them. */
  warm(): void {
    for (const lookup of Object.values(this.lookups)) lookup.warm();
    this.registrationStatuses();
    for (const [column] of GENERATOR_COLUMN_FILTERS) this.list.valueCounts(column);
    this.matches.warm();
    this.totals({}, '');
    this.list.count(generatorWhere({}));
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
    if (known || (search && !search.ids)) return this.list.count(where);
    return this.matches.summarize(filterFields, search?.ids).count;
  }

  totals(filterFields: GeneratorFilterFields, searchKey: string): GeneratorTotalsRow {
    const search = this.search.clause(searchKey, 'totals');
    if (search && !search.ids) return this.sqlTotals(generatorWhere(filterFields, search, 'list'));
    const unfiltered = !search && generatorWhere(filterFields).unfiltered;
    if (unfiltered && this.unfilteredTotals) return this.unfilteredTotals;
    const sums = this.matches.summarize(filterFields, search?.ids);
    const totals = {
      // As SQL's round(sum, 4): the boxes show two decimals, the typed dialect up to four.
      epa_total: Math.round(sums.shippedTons * 10_000) / 10_000,
      shipped_count: sums.shippedCount,
      container_count: sums.containerCount,
      mmc_count: sums.shippers,
    };
    if (unfiltered) this.unfilteredTotals = totals;
    return totals;
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
