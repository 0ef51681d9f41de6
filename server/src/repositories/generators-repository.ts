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
import {
  GENERATOR_FILTER_COLUMNS,
  generatorWhere,
  totalsSelect,
  type SearchClause,
  type Where,
} from '../db/sqlite-query.ts';
import { StatementCache } from '../db/statements.ts';
import { GeneratorMatches } from './generator-matches.ts';
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
  private readonly matches: GeneratorMatches;
  private unfilteredTotals: GeneratorTotalsRow | undefined;
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
    this.lookups = indexedLookups(db, this.statements, 'generators', GENERATOR_LOOKUP_LISTS, {
      epa_handler_id: 'epa_handler_id',
    });
  }

  /** Reads the in-memory lookup lists now, so the first user does not wait for them. */
  warm(): void {
    for (const lookup of Object.values(this.lookups)) lookup.warm();
    this.registrationStatuses();
    for (const column of GENERATOR_FILTER_COLUMNS) this.list.valueCounts(column);
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
    if (known || (search && !search.ids)) return this.list.count(where);
    return this.matches.count(filterFields, search?.ids);
  }

  totals(filterFields: GeneratorFilterFields, searchKey: string): GeneratorTotalsRow {
    const search = this.search.clause(searchKey, 'totals');
    if (search && !search.ids) return this.sqlTotals(generatorWhere(filterFields, search, 'list'));
    const unfiltered = !search && generatorWhere(filterFields).unfiltered;
    if (unfiltered && this.unfilteredTotals) return this.unfilteredTotals;
    const totals = this.matches.totals(filterFields, search?.ids);
    if (unfiltered) this.unfilteredTotals = totals;
    return totals;
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
