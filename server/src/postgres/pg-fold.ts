/**
 * tracker_fold(text), PostgreSQL's copy of the one case-folding rule of shared/query/search.ts, built from
 * its table of folding code points (shared/query/fold-table.ts): the search text columns (pg-schema.ts) and
 * the lookup lists (pg-lookup-lists.ts) are generated with it.
 */
import { FOLD_RUNS } from '../../../shared/query/fold-table.ts';

/** Every code point that folds, and what it folds to, as the two strings translate() takes. */
function foldStrings(): { from: string; to: string } {
  let from = '';
  let to = '';
  for (let index = 0; index + 3 < FOLD_RUNS.length; index += 4) {
    const [first = 0, count = 0, step = 0, delta = 0] = FOLD_RUNS.slice(index, index + 4);
    for (let point = first, left = count; left > 0; point += step, left -= 1) {
      from += String.fromCodePoint(point);
      to += String.fromCodePoint(point + delta);
    }
  }
  return { from, to };
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * tracker_fold(text): foldCase of shared/query/search.ts, one code point to one code point. ASCII text (nearly
 * all of it) folds by lower() under the C collation, A–Z only; translate() looks each character up in a list
 * of every folding code point, which costs far more, so only text with other characters takes it.
 *
 * Written first in SQL (schema version 1), then in PL/pgSQL (version 5): a SQL function is inlined into each
 * statement that computes a generated column with it, once per execution, and inlining this one (its two
 * lists of ~1,400 code points) cost ~0.5 ms per INSERT, so that the importer's one-row INSERTs into
 * generators ran at ~650 rows/s. PL/pgSQL compiles it once per session: 500 one-row INSERTs into generators,
 * every index present, 99 ms against 275.
 */
export function foldFunctionSql(language: 'sql' | 'plpgsql'): string {
  const { from, to } = foldStrings();
  const fold = `CASE WHEN $1 ~ '[^\\x01-\\x7f]' THEN translate($1, ${quote(from)}, ${quote(to)})
              ELSE lower($1 COLLATE "C") END`;
  return language === 'sql'
    ? `CREATE OR REPLACE FUNCTION tracker_fold(text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN ${fold};`
    : `CREATE OR REPLACE FUNCTION tracker_fold(text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  AS $fold$ BEGIN RETURN ${fold}; END $fold$;`;
}
