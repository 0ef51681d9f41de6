/**
 * How many generators a filtered request matches and their totals on PostgreSQL, from the same in-memory
 * matches the SQLite store keeps (repositories/generator-matches.ts): per filter value the ids of the
 * generators holding it, and each generator's quantities, read from the database at one data version.
 *
 * SQL has to join a generator set to the generators for these: counting statuses = ["Active"] (80,000 of
 * 100,000 generators) cost 240–330 ms, shippedYears = ["2024"] 260 ms, summing the boxes for wasteCodes D001
 * 250–370 ms. In memory each is well under a millisecond, for any combination of members. Memory: ~1.3M ids
 * and three quantities per generator (~20 MB for 100k generators) in each server process.
 *
 * The matches are read once per data version, in one read-only snapshot that also reads the version they
 * hold; while the data has moved past them (an import committed in any process) they are not used and
 * requests are answered with SQL, never stale, until matches of the new version have been read.
 */
import type { Sql } from 'postgres';
import {
  GENERATOR_QUERY,
  type GeneratorMember,
  type GeneratorQuantity,
} from '../../../shared/query/definition.ts';
import { generatorQuantitiesSql } from '../db/sqlite-query.ts';
import {
  GeneratorMatches,
  type MatchesSnapshot,
  type PerGenerator,
} from '../repositories/generator-matches.ts';
import { memberIdsSql } from './pg-query.ts';
import type { VersionedCache } from './pg-cache.ts';

const MEMBERS = Object.keys(GENERATOR_QUERY.members) as GeneratorMember[];
const QUANTITIES = Object.keys(GENERATOR_QUERY.quantities) as GeneratorQuantity[];

/** Every member's ids by value and every generator's quantities, and the data version they were read at. */
async function readSnapshot(sql: Sql): Promise<{ version: string; snapshot: MatchesSnapshot }> {
  return sql.begin('ISOLATION LEVEL REPEATABLE READ READ ONLY', async (tx) => {
    const [row] = await tx<{ version: string }[]>`SELECT version::text AS version FROM data_version`;
    const members: MatchesSnapshot['members'] = [];
    for (const member of MEMBERS) {
      const rows = (await tx.unsafe(memberIdsSql(member)).values()) as unknown as [string, number[]][];
      const offsets = new Int32Array(rows.length + 1);
      let total = 0;
      rows.forEach(([, ids], index) => {
        offsets[index] = total;
        total += ids.length;
      });
      offsets[rows.length] = total;
      const ids = new Int32Array(total);
      rows.forEach(([, list], index) => ids.set(list, offsets[index]));
      members.push({ member, values: rows.map(([value]) => value), offsets, ids });
    }
    const [largest] = await tx<{ id: number }[]>`SELECT coalesce(max(id), 0)::int4 AS id FROM generators`;
    const size = (largest?.id ?? 0) + 1;
    const exists = new Uint8Array(size);
    const quantities = Object.fromEntries(
      QUANTITIES.map((quantity) => [quantity, new Float64Array(size)]),
    ) as PerGenerator['quantities'];
    for (const [id = 0, ...values] of (await tx.unsafe(generatorQuantitiesSql()).values()) as number[][]) {
      exists[id] = 1;
      QUANTITIES.forEach((quantity, index) => {
        quantities[quantity][id] = values[index] ?? 0;
      });
    }
    return { version: row?.version ?? '', snapshot: { members, generators: { exists, quantities } } };
  });
}

export class PgMatches {
  private readonly sql: Sql;
  private readonly cache: VersionedCache;
  private current: { version: string; matches: GeneratorMatches } | undefined;
  /** The read under way, if any. */
  private reading: Promise<void> | undefined;

  constructor(sql: Sql, cache: VersionedCache) {
    this.sql = sql;
    this.cache = cache;
  }

  /** The matches of the data as it is now, or undefined while they are read (answer with SQL meanwhile). */
  async get(): Promise<GeneratorMatches | undefined> {
    const version = await this.cache.version();
    const current = this.current;
    if (current && current.version === version) return current.matches;
    void this.read();
    return undefined;
  }

  /** Resolves once matches of the data as it is now are in (or their read has failed). */
  async ready(): Promise<void> {
    if (await this.get()) return;
    await this.reading;
  }

  /** Reads the matches of the data as it is now, unless a read is already under way; settles when done. */
  read(): Promise<void> {
    this.reading ??= readSnapshot(this.sql)
      .then(({ version, snapshot }) => {
        this.current = { version, matches: new GeneratorMatches(undefined, snapshot) };
      })
      // A failed read (the database restarting, the store closing) leaves requests answered with SQL; the
      // next request reads again.
      .catch(() => undefined)
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }
}
