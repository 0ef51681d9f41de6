/**
 * How many generators a request matches and what they shipped, worked out in memory from per-value id lists
 * and per-generator sums read at once, for the data as it was then: when an import changes the data the
 * repository stops using them and has new ones built off the main thread (`snapshot`, the read pool), then
 * swaps them in (docs/api.md "The data while serving").
 *
 * SQL has to probe an index per candidate for these: counting states CA + shippedYears 2024 cost 3–4 ms,
 * and summing the boxes for wasteCodes D001 35–45 ms. Here each filter member marks the generators it
 * matches, one pass over its values' id lists, and the boxes are one pass over the marks: well under a
 * millisecond for any combination. Memory: ~1.3M ids and three sums per generator (~20 MB for 100k
 * generators). The page's rows are still read from SQLite, in order, by its indexes.
 */
import type { GeneratorFilterFields } from '../../../shared/api/index.ts';
import type { StatementCache } from '../db/statements.ts';

/** The members of filterFields answered here, each with the query listing every value's generators. */
const MEMBER_SOURCES = {
  states: 'SELECT location_state, json_group_array(id) FROM generators GROUP BY 1',
  cities: 'SELECT location_city, json_group_array(id) FROM generators GROUP BY 1',
  naics: 'SELECT primary_naics_code, json_group_array(id) FROM generators GROUP BY 1',
  ids: 'SELECT epa_handler_id, json_group_array(id) FROM generators GROUP BY 1',
  names: 'SELECT generator_name, json_group_array(id) FROM generators GROUP BY 1',
  statuses: 'SELECT status, json_group_array(generator_id) FROM generator_statuses GROUP BY 1',
  shippedYears: 'SELECT year, json_group_array(generator_id) FROM generator_shipped_years GROUP BY 1',
  wasteCodes: 'SELECT code, json_group_array(generator_id) FROM generator_waste_codes GROUP BY 1',
  handlingCodes: 'SELECT code, json_group_array(generator_id) FROM generator_handling_codes GROUP BY 1',
} as const satisfies Record<keyof GeneratorFilterFields, string>;

export type Member = keyof typeof MEMBER_SOURCES;

export interface GeneratorSums {
  count: number;
  shippedTons: number;
  shippedCount: number;
  containerCount: number;
  /** Generators with at least one manifest. */
  shippers: number;
}

interface PerGenerator {
  shippedTons: Float64Array;
  shippedCount: Float64Array;
  containerCount: Float64Array;
}

/** Generator ids, as read (number[]) or as received from a worker (a view of one Int32Array). */
type Ids = readonly number[] | Int32Array;

/**
 * Everything the matches hold, as typed arrays and value lists that cross to another thread as they are:
 * per member, its values and each value's ids (ids[offsets[i]] up to ids[offsets[i + 1]]).
 */
export interface MatchesSnapshot {
  members: { member: Member; values: string[]; offsets: Int32Array; ids: Int32Array }[];
  sums: PerGenerator;
}

export class GeneratorMatches {
  private readonly statements: StatementCache;
  private readonly members = new Map<Member, Map<string, Ids>>();
  private perGenerator: PerGenerator | undefined;

  /** `statements` reads what a snapshot did not bring. */
  constructor(statements: StatementCache, snapshot?: MatchesSnapshot) {
    this.statements = statements;
    if (snapshot) {
      for (const { member, values, offsets, ids } of snapshot.members) {
        this.members.set(
          member,
          new Map(values.map((value, index) => [value, ids.subarray(offsets[index], offsets[index + 1])])),
        );
      }
      this.perGenerator = snapshot.sums;
    }
  }

  /** Reads every list and sum (in a read pool worker) for a repository on another thread to swap in. */
  snapshot(): MatchesSnapshot {
    const members = (Object.keys(MEMBER_SOURCES) as Member[]).map((member) => {
      const byValue = this.idsByValue(member);
      const values = [...byValue.keys()];
      const offsets = new Int32Array(values.length + 1);
      let total = 0;
      values.forEach((value, index) => {
        offsets[index] = total;
        total += byValue.get(value)?.length ?? 0;
      });
      offsets[values.length] = total;
      const ids = new Int32Array(total);
      values.forEach((value, index) => ids.set(byValue.get(value) ?? [], offsets[index]));
      return { member, values, offsets, ids };
    });
    return { members, sums: this.sums() };
  }

  warm(): void {
    for (const member of Object.keys(MEMBER_SOURCES) as Member[]) this.idsByValue(member);
    this.sums();
  }

  /**
   * The generators matching every non-empty member of `filters` (any one of its values) and, when given,
   * the ids a search matched: their number and their sums.
   */
  summarize(filters: GeneratorFilterFields, searchIds?: readonly number[]): GeneratorSums {
    const sums = this.sums();
    const lists: Ids[][] = [];
    for (const member of Object.keys(MEMBER_SOURCES) as Member[]) {
      const values = filters[member];
      if (!values || values.length === 0) continue;
      const byValue = this.idsByValue(member);
      lists.push(values.map((value) => byValue.get(value) ?? []));
    }
    if (searchIds) lists.push([searchIds]);

    // marks[id] = how many members in a row, from the first, the generator matched so far.
    const marks = new Uint8Array(sums.shippedTons.length);
    lists.forEach((member, index) => {
      for (const ids of member) {
        for (const id of ids) if (marks[id] === index) marks[id] = index + 1;
      }
    });
    const all = lists.length;
    const result: GeneratorSums = {
      count: 0,
      shippedTons: 0,
      shippedCount: 0,
      containerCount: 0,
      shippers: 0,
    };
    // Neumaier's compensated sum, as SQLite's sum() does, so the tons agree with SQL to the last digit shown.
    let compensation = 0;
    for (let id = 0; id < marks.length; id += 1) {
      if (marks[id] !== all) continue;
      const tons = sums.shippedTons[id] ?? 0;
      const shipped = sums.shippedCount[id] ?? 0;
      result.count += 1;
      const total = result.shippedTons + tons;
      compensation +=
        Math.abs(result.shippedTons) >= Math.abs(tons)
          ? result.shippedTons - total + tons
          : tons - total + result.shippedTons;
      result.shippedTons = total;
      result.shippedCount += shipped;
      result.containerCount += sums.containerCount[id] ?? 0;
      if (shipped > 0) result.shippers += 1;
    }
    result.shippedTons += compensation;
    return result;
  }

  private idsByValue(member: Member): Map<string, Ids> {
    let byValue = this.members.get(member);
    if (!byValue) {
      const rows = this.statements.get(MEMBER_SOURCES[member]).raw().all() as [string, string][];
      byValue = new Map(rows.map(([value, ids]): [string, Ids] => [value, JSON.parse(ids) as number[]]));
      this.members.set(member, byValue);
    }
    return byValue;
  }

  private sums(): PerGenerator {
    if (!this.perGenerator) {
      const size =
        (this.statements.get('SELECT coalesce(max(id), 0) FROM generators').pluck().get() as number) + 1;
      const perGenerator: PerGenerator = {
        shippedTons: new Float64Array(size),
        shippedCount: new Float64Array(size),
        containerCount: new Float64Array(size),
      };
      const rows = this.statements
        .get('SELECT id, shipped_tons, shipped_count, container_count FROM generators')
        .raw()
        .iterate() as IterableIterator<[number, number, number, number]>;
      for (const [id, tons, shipped, containers] of rows) {
        perGenerator.shippedTons[id] = tons;
        perGenerator.shippedCount[id] = shipped;
        perGenerator.containerCount[id] = containers;
      }
      this.perGenerator = perGenerator;
    }
    return this.perGenerator;
  }
}
