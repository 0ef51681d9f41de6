/**
 * A page of a lookup list of one value per row on PostgreSQL, read from the list's own table
 * (pg-lookup-lists.ts): its entries at positions 1 … `ordered_through` in lookup order, those an import has
 * added since after them in no order.
 *
 * The ordered entries that hold the key are read one of two ways, whichever reads fewer rows:
 * - walking the positions until the page is full: few rows when the key is common early in the order
 *   ("123": 7,085 of a million tracking numbers, the page full after ~7,300 positions, 3 ms);
 * - reading every match through the trigram index and sorting them: few rows when the key is rare ("zzq",
 *   "8266": 618 matches, 2 ms, where the walk reads 82,000 positions) or its matches lie late in the order
 *   ("txd", the Texas handler ids, at 90 % of the list). A key holding a run of one character ("000000")
 *   is read through the index of the entries holding such a run (pg-lookup-lists.ts `holdsRun`).
 * PostgreSQL's planner cannot tell these apart (it takes matches to be spread evenly, and its histogram
 * does not tell 0.1 % from 0.7 %), so the choice is made here, from a sample of the list held in memory
 * (`Sample`): where in the order the key's matches start and how many there are. The sample only chooses
 * how a page is read, never what it holds.
 *
 * A page with no search is read from the rows' own unique index on the value instead, in the same order.
 *
 * The entries added since the list was last written in order are read and sorted whole (an import's new
 * rows, until the run's finish writes the list again) and merged in: the first `offset + PAGE + 1` matches
 * in lookup order are among the first as many of each part, so neither part reads more.
 */
import type { Sql } from 'postgres';
import { LIMITS } from '../../../shared/api/index.ts';
import type { LookupPage } from '../../../shared/query/lookup.ts';
import { foldCase } from '../../../shared/query/search.ts';
import { compareCodePoints } from '../../../shared/query/sort.ts';
import { TRIGRAM_MIN_LENGTH } from '../db/search-index.ts';
import { holdsRun, type OnePerRowList } from './pg-lookup-lists.ts';
import { containsPattern } from './pg-query.ts';
import { values } from './pg-run.ts';

const PAGE = LIMITS.lookupPageSize;

/**
 * Entries of the sample: one every `ordered / SAMPLE_SIZE` positions, ~0.2 MB per list in memory. Read once
 * per build of the list (its positions in order do not move until it is written again), by as many
 * primary-key reads: 4,000 took 45 ms over a million tracking numbers, 10,000 took 80 (a busy machine).
 */
const SAMPLE_SIZE = 4000;

/**
 * A match read through the trigram index costs about as much as this many positions walked (measured on a
 * million tracking numbers: 5,493 candidates read and checked in 9.5 ms, 7,300 positions walked in 3 ms).
 */
const INDEXED_MATCH_COST = 4;

/** The folded text of every `every`-th ordered entry, in lookup order. */
interface Sample {
  every: number;
  folded: string[];
}

/** The list's state as a page reads it first. */
interface ListState {
  orderedThrough: number;
  last: number;
  /** The list table's object id: a new one each time the list is written in order. */
  build: string;
}

export class ListPages {
  private readonly sql: Sql;
  private readonly entry: OnePerRowList;
  /** The sample of one build of the list, up to one ordered position. */
  private kept: { of: string; sample: Promise<Sample> } | undefined;

  constructor(sql: Sql, entry: OnePerRowList) {
    this.sql = sql;
    this.entry = entry;
  }

  /**
   * `ordered_through` and the last position are read first, on their own: a list written again in order
   * in between keeps at least as many entries in order, so a page read with the older bound is still right.
   */
  async page(search: string, page: number, signal?: AbortSignal): Promise<LookupPage> {
    const key = foldCase(search);
    if (key === '') return await this.unsearched(page, signal);
    const state = await this.state();
    const needed = (page - 1) * PAGE + PAGE + 1;
    const [ordered, added] = await Promise.all([
      this.ordered(key, state, needed, signal),
      state.last > state.orderedThrough ? this.added(key, state.orderedThrough, needed, signal) : [],
    ]);
    const found = added.length === 0 ? ordered : [...ordered, ...added].sort(compareCodePoints);
    const results = found.slice((page - 1) * PAGE, page * PAGE).map((value) => ({ value, text: value }));
    return { results, pagination: { more: found.length >= needed } };
  }

  /**
   * A page with no search, read from the rows' own unique index on the value, whose order (code point) is
   * the list's: the entries an import has added since the list was last written in order are then no
   * dearer than the others, where reading and sorting them cost ~8 ms per 20,000 added.
   */
  private async unsearched(page: number, signal?: AbortSignal): Promise<LookupPage> {
    const { column, from } = this.entry.list;
    const rows = await values(
      this.sql,
      `SELECT ${column} FROM ${from} WHERE ${column} <> '' ORDER BY ${column} LIMIT $1 OFFSET $2`,
      [PAGE + 1, (page - 1) * PAGE],
      signal,
    );
    const results = rows.slice(0, PAGE).map(([value]) => ({ value: String(value), text: String(value) }));
    return { results, pagination: { more: rows.length > PAGE } };
  }

  private async state(): Promise<ListState> {
    const { name, table } = this.entry;
    const [state] = await values(
      this.sql,
      `SELECT ordered_through, (SELECT coalesce(max(pos), 0) FROM ${table}), to_regclass($2)::oid::text
       FROM lookup_lists WHERE list = $1`,
      [name, table],
    );
    return {
      orderedThrough: Number(state?.[0] ?? 0),
      last: Number(state?.[1] ?? 0),
      build: String(state?.[2]),
    };
  }

  /** The first `needed` ordered entries holding `key`, in order. */
  private async ordered(
    key: string,
    state: ListState,
    needed: number,
    signal?: AbortSignal,
  ): Promise<string[]> {
    const { table } = this.entry;
    const through = state.orderedThrough;
    if ([...key].length < TRIGRAM_MIN_LENGTH || walks(await this.sample(state), key, needed)) {
      // strpos, not LIKE: the trigram index cannot answer it, so the plan is the walk whatever the key.
      const rows = await values(
        this.sql,
        `SELECT value FROM ${table} WHERE pos <= $1 AND strpos(folded, $3) > 0 ORDER BY pos LIMIT $2`,
        [through, needed, key],
        signal,
      );
      return rows.map(([value]) => String(value));
    }
    // No index holds the order by value: every match is read, through a trigram index, and sorted. Planned
    // for its key, as a generic plan may scan the table for an unknown pattern.
    const rows = await values(
      this.sql,
      indexedSearchSql(table, '<=', key),
      [through, needed, containsPattern(key)],
      signal,
      false,
    );
    return rows.map(([value]) => String(value));
  }

  /** The first `needed` entries added after the ordered ones holding `key`, in lookup order. */
  private async added(key: string, after: number, needed: number, signal?: AbortSignal): Promise<string[]> {
    const rows = await values(
      this.sql,
      indexedSearchSql(this.entry.table, '>', key),
      [after, needed, containsPattern(key)],
      signal,
      false,
    );
    return rows.map(([value]) => String(value));
  }

  /** The sample of the ordered entries, kept until the list is written again or more of it is in order. */
  private sample({ build, orderedThrough }: ListState): Promise<Sample> {
    const of = `${build} ${orderedThrough}`;
    if (this.kept?.of !== of) {
      const sample = this.readSample(orderedThrough);
      this.kept = { of, sample };
      sample.catch(() => {
        if (this.kept?.sample === sample) this.kept = undefined;
      });
    }
    return this.kept.sample;
  }

  private async readSample(through: number): Promise<Sample> {
    const every = Math.max(1, Math.floor(through / SAMPLE_SIZE));
    const rows = await values(
      this.sql,
      `SELECT folded FROM ${this.entry.table}
       WHERE pos = ANY(ARRAY(SELECT generate_series($1::int, $2::int, $1::int))) ORDER BY pos`,
      [every, through],
    );
    return { every, folded: rows.map(([folded]) => String(folded)) };
  }
}

/**
 * The first $2 entries of `table` on the `side` of position $1 whose folded text is LIKE $3, `key`'s
 * pattern, in lookup order: through the trigram index of the entries holding a run of one character when
 * the key holds one (pg-lookup-lists.ts `holdsRun`), else through the index of them all.
 */
export function indexedSearchSql(table: string, side: '<=' | '>', key: string): string {
  const runs = holdsRun(key) ? ' AND has_run' : '';
  return `SELECT value FROM ${table} WHERE pos ${side} $1 AND folded LIKE $3${runs} ORDER BY value LIMIT $2`;
}

/**
 * True when walking the positions reads fewer rows than the trigram index would, as the sample tells:
 * the walk reads up to the first sampled match and then as many positions as `needed` matches take at the
 * key's share of the sample; the index reads every match, each costing INDEXED_MATCH_COST positions.
 */
export function walks({ every, folded }: Sample, key: string, needed: number): boolean {
  const first = folded.findIndex((text) => text.includes(key));
  if (first < 0) return false;
  let hits = 0;
  for (let index = first; index < folded.length; index += 1) if (folded[index]?.includes(key)) hits += 1;
  const share = hits / folded.length;
  const walked = first * every + needed / share;
  return walked < hits * every * INDEXED_MATCH_COST;
}
