/**
 * The offline query engine: `openPack` indexes a pack's rows once (or takes the indexes the pack stored,
 * pack-indexes.ts), and the pack it returns answers the
 * IPC contract's data requests over them as the server would (docs/api.md "Query semantics", run through
 * shared/query): the same validation, filters, search, order, paging, selectedFields, totals and lookups.
 *
 * Pure TypeScript over shared/: no DOM, no storage, so it runs in a Web Worker (../engine.worker.ts) and in
 * plain Node under the differential test. What it cannot answer exactly it refuses with an `offline` error
 * rather than guessing (docs/offline.md); covers.ts says beforehand which requests those are.
 */
import {
  GENERATOR_LOOKUP_FIELDS,
  GeneratorDetailQuery,
  MANIFEST_LOOKUP_FIELDS,
  type GeneratorDetail,
} from '../../../../shared/api/index.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../../shared/query/definition.ts';
import { readRequest } from '../../../../shared/query/parse.ts';
import { answerable, fail } from './answer-support.ts';
import type {
  EngineAnswer,
  EngineRequestName,
  EngineRequests,
  PackIndexes,
  PackList,
  PackRows,
} from './contract.ts';
import { generatorAnswers } from './generator-answers.ts';
import { manifestAnswers } from './manifest-answers.ts';
import { INDEX_FORMAT, usableIndexes } from './pack-indexes.ts';

/** A pack opened for queries. */
export interface OpenedPack {
  readonly list: PackList;
  /** True when it answers from stored indexes: it builds none and needs no warm-up. */
  readonly fromStored: boolean;
  answer<Name extends EngineRequestName>(name: Name, input: EngineRequests[Name]): EngineAnswer<Name>;
  /** Every index, built now where missing, as the pack stores them beside its rows. */
  indexes(): PackIndexes;
}

/**
 * Builds the in-memory indexes over a pack's rows, or takes `stored` ones when they are of this format and
 * were made over exactly these rows in this order (else they are left unread and built again, never answered
 * from); the pack then answers requests.
 */
export function openPack(rows: PackRows, stored?: PackIndexes): OpenedPack {
  const details = new Map(rows.details.map((detail) => [detail.generator_data.epa_handler_id, detail]));
  const usable = usableIndexes(stored, rows.list);
  const generators =
    rows.list === 'generators' ? generatorAnswers(rows.generators, details, rows.totals, usable) : undefined;
  const manifests = rows.list === 'manifests' ? manifestAnswers(rows.manifests, usable) : undefined;
  const answering = generators ?? manifests;
  if (!answering) throw new Error(`a pack holds "generators" or "manifests", not "${String(rows.list)}"`);
  const otherList = (name: string) =>
    fail(
      'offline',
      `This offline pack holds ${rows.list}; it cannot answer ${name.split('.')[0] ?? name} requests.`,
    );

  const answers: { [Name in EngineRequestName]: (input: EngineRequests[Name]) => EngineAnswer<Name> } = {
    'generators.list': (input) => generators?.list(input) ?? otherList('generators.list'),
    'generators.aggregate': (input) => generators?.aggregate(input) ?? otherList('generators.aggregate'),
    'generators.lookup': (input) => generators?.lookup(input) ?? otherList('generators.lookup'),
    'generators.detail': (input) => detailAnswer(details, input),
    'manifests.list': (input) => manifests?.list(input) ?? otherList('manifests.list'),
    'manifests.aggregate': (input) => manifests?.aggregate(input) ?? otherList('manifests.aggregate'),
    'manifests.lookup': (input) => manifests?.lookup(input) ?? otherList('manifests.lookup'),
  };
  return {
    list: rows.list,
    fromStored: answering.fromStored,
    indexes: () => ({ format: INDEX_FORMAT, list: rows.list, ...answering.indexes() }),
    answer: (name, input) => {
      const answer = answers[name] as
        ((input: EngineRequests[typeof name]) => EngineAnswer<typeof name>) | undefined;
      if (!answer)
        return fail('bad-request', `the offline engine answers no request named "${String(name)}"`);
      return answer(input);
    },
  };
}

/**
 * One step per index the engine otherwise builds on first use (pack-table.ts): the rows' folded search texts
 * (a first page searched for any key), each filter box's list with its member's index (its first page), each
 * sort field's order (a first page sorted by it). Each is a pass or a sort over the pack's rows, up to hundreds
 * of milliseconds over 100,000 manifests (bench:offline-engine); the worker runs them one at a time after the
 * pack opens, between requests, so the first page answers sooner and a user's first search, filter box or
 * sort finds its index built.
 */
export function warmUpSteps(pack: OpenedPack): (() => void)[] {
  const filterFields = {};
  const searchKey = '';
  const firstPage = { page: 0, pageSize: 1 };
  if (pack.list === 'manifests') {
    return [
      () => {
        pack.answer('manifests.list', { filterFields, searchKey: 'e', pageInfo: firstPage });
      },
      ...MANIFEST_LOOKUP_FIELDS.map((field) => () => {
        pack.answer('manifests.lookup', { field, page: 1 });
      }),
      ...MANIFEST_QUERY.sortFields.map((field) => () => {
        pack.answer('manifests.list', {
          filterFields,
          searchKey,
          pageInfo: { ...firstPage, sort: `${field} asc` },
        });
      }),
    ];
  }
  return [
    () => {
      pack.answer('generators.list', { filterFields, searchKey: 'e', pageInfo: firstPage });
    },
    ...GENERATOR_LOOKUP_FIELDS.map((field) => () => {
      pack.answer('generators.lookup', { field, page: 1 });
    }),
    ...GENERATOR_QUERY.sortFields.map((field) => () => {
      pack.answer('generators.list', {
        filterFields,
        searchKey,
        pageInfo: { ...firstPage, sort: `${field} asc` },
      });
    }),
  ];
}

function detailAnswer(
  details: ReadonlyMap<string, GeneratorDetail>,
  input: EngineRequests['generators.detail'],
): EngineAnswer<'generators.detail'> {
  const query = answerable(readRequest(GeneratorDetailQuery, input));
  if (!query.ok) return query;
  const detail = details.get(query.value.handler_id);
  if (!detail)
    return fail(
      'not-found',
      `This offline pack holds no generator with EPA handler id "${query.value.handler_id}".`,
    );
  return { ok: true, data: detail };
}
