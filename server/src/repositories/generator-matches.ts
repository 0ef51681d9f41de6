/**
 * How many generators a request matches and their totals, worked out in memory from per-value id lists and
 * per-generator quantities read at once, for the data as it was then: when an import changes the data the
 * repository stops using them and has new ones built off the main thread (`snapshot`, the read pool), then
 * swaps them in (docs/api.md "The data while serving"). Both are built from shared/query's definition: a
 * member's id lists by db/sqlite-query.ts, the totals by shared/query/totals.ts.
 *
 * SQL has to probe an index per candidate for these: counting states CA + shippedYears 2024 cost 3–4 ms,
 * and summing the boxes for wasteCodes D001 35–45 ms. Here each filter member marks the generators it
 * matches, one pass over its values' id lists, and the boxes are a pass per total over the marked ids:
 * well under a millisecond for any combination. Memory: ~1.3M ids and three quantities per generator
 * (~20 MB for 100k generators). The page's rows are still read from SQLite, in order, by its indexes.
 */
import type { GeneratorFilterFields } from '../../../shared/api/index.ts';
import {
  GENERATOR_QUERY,
  type GeneratorMember,
  type GeneratorQuantity,
  type GeneratorTotal,
} from '../../../shared/query/definition.ts';
import { reduceTotals } from '../../../shared/query/totals.ts';
import { generatorQuantitiesSql, memberIdsSql } from '../db/sqlite-query.ts';
import type { StatementCache } from '../db/statements.ts';

const MEMBERS = Object.keys(GENERATOR_QUERY.members) as GeneratorMember[];
const QUANTITIES = Object.keys(GENERATOR_QUERY.quantities) as GeneratorQuantity[];

export interface PerGenerator {
  /** exists[id] === 1 for every generator's id: ids need not be dense. */
  exists: Uint8Array;
  quantities: Record<GeneratorQuantity, Float64Array>;
}

/** Generator ids, as read (number[]) or as received from a worker (a view of one Int32Array). */
type Ids = readonly number[] | Int32Array;

/**
 * Everything the matches hold, as typed arrays and value lists that cross to another thread as they are:
 * per member, its values and each value's ids (ids[offsets[i]] up to ids[offsets[i + 1]]).
 */
export interface MatchesSnapshot {
  members: { member: GeneratorMember; values: string[]; offsets: Int32Array; ids: Int32Array }[];
  generators: PerGenerator;
}

export class GeneratorMatches {
  private readonly statements: StatementCache | undefined;
  private readonly members = new Map<GeneratorMember, Map<string, Ids>>();
  private perGenerator: PerGenerator | undefined;
  /** The matching ids of the last request; requests run one at a time on this connection. */
  private matched = new Int32Array(0);

  /**
   * `statements` reads what a snapshot did not bring; without it (the PostgreSQL store, postgres/pg-matches.ts)
   * the snapshot brings everything.
   */
  constructor(statements: StatementCache | undefined, snapshot?: MatchesSnapshot) {
    this.statements = statements;
    if (snapshot) {
      for (const { member, values, offsets, ids } of snapshot.members) {
        this.members.set(
          member,
          new Map(values.map((value, index) => [value, ids.subarray(offsets[index], offsets[index + 1])])),
        );
      }
      this.perGenerator = snapshot.generators;
    }
  }

  /** Reads every list and quantity (in a read pool worker) for a repository on another thread to swap in. */
  snapshot(): MatchesSnapshot {
    const members = MEMBERS.map((member) => {
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
    return { members, generators: this.generators() };
  }

  warm(): void {
    for (const member of MEMBERS) this.idsByValue(member);
    this.generators();
  }

  /**
   * The ids of the generators matching every non-empty member of `filters` (any one of its values) and,
   * when given, the ids a search matched, in id order. Valid until the next call.
   */
  private matching(filters: GeneratorFilterFields, searchIds?: readonly number[]): Int32Array {
    const { exists } = this.generators();
    const size = exists.length;
    const lists: Ids[][] = [];
    for (const member of MEMBERS) {
      const values = filters[member];
      if (!values || values.length === 0) continue;
      const byValue = this.idsByValue(member);
      lists.push(values.map((value) => byValue.get(value) ?? []));
    }
    if (searchIds) lists.push([searchIds]);

    // marks[id] = how many members in a row, from the first, the generator matched so far.
    const marks = new Uint8Array(size);
    lists.forEach((member, index) => {
      for (const ids of member) {
        for (const id of ids) if (marks[id] === index) marks[id] = index + 1;
      }
    });
    const all = lists.length;
    if (this.matched.length < size) this.matched = new Int32Array(size);
    let count = 0;
    for (let id = 0; id < size; id += 1) {
      if (marks[id] !== all || exists[id] !== 1) continue;
      this.matched[count] = id;
      count += 1;
    }
    return this.matched.subarray(0, count);
  }

  count(filters: GeneratorFilterFields, searchIds?: readonly number[]): number {
    return this.matching(filters, searchIds).length;
  }

  totals(filters: GeneratorFilterFields, searchIds?: readonly number[]): Record<GeneratorTotal, number> {
    const { quantities } = this.generators();
    return reduceTotals(GENERATOR_QUERY.totals, quantities, this.matching(filters, searchIds));
  }

  private reader(): StatementCache {
    if (!this.statements) throw new Error('matches built from a snapshot hold every list and quantity');
    return this.statements;
  }

  private idsByValue(member: GeneratorMember): Map<string, Ids> {
    let byValue = this.members.get(member);
    if (!byValue) {
      const rows = this.reader().get(memberIdsSql(member)).raw().all() as [string, string][];
      byValue = new Map(rows.map(([value, ids]): [string, Ids] => [value, JSON.parse(ids) as number[]]));
      this.members.set(member, byValue);
    }
    return byValue;
  }

  /** Which ids are generators', and each one's quantities by id (one slot per id up to the largest). */
  private generators(): PerGenerator {
    if (!this.perGenerator) {
      const size =
        (this.reader().get('SELECT coalesce(max(id), 0) FROM generators').pluck().get() as number) + 1;
      const exists = new Uint8Array(size);
      const quantities = Object.fromEntries(
        QUANTITIES.map((quantity) => [quantity, new Float64Array(size)]),
      ) as PerGenerator['quantities'];
      const rows = this.reader().get(generatorQuantitiesSql()).raw().iterate() as IterableIterator<number[]>;
      for (const [id = 0, ...values] of rows) {
        exists[id] = 1;
        QUANTITIES.forEach((quantity, index) => {
          quantities[quantity][id] = values[index] ?? 0;
        });
      }
      this.perGenerator = { exists, quantities };
    }
    return this.perGenerator;
  }
}
