/**
 * Turns a grid's export request into what the export runner needs: the columns from the shared catalogue,
 * the pages from the API through the session (the caller's own requests, never shared with or cancelling
 * the grid's), and the Query sheet that says what was exported, from where and when.
 */
import { z } from 'zod';
import { GENERATOR_COLUMNS, MANIFEST_COLUMNS, type Column } from '../../../shared/columns.ts';
import {
  GENERATOR_FILTER_LABELS,
  MANIFEST_FILTER_LABELS,
  describeFilters,
} from '../../../shared/filter-labels.ts';
import { exportPageRequest, type ExportGridInput } from '../../../shared/ipc/exports.ts';
import { GENERATOR_QUERY, MANIFEST_QUERY } from '../../../shared/query/definition.ts';
import { parseSort } from '../../../shared/query/parse.ts';
import type { ApiRequest } from '../api/client.ts';
import { endpoints } from '../api/endpoints.ts';
import type { Session } from '../session/session.ts';
import type { FetchPage } from './api-pages.ts';
import type { ExportOwner } from './export-owner.ts';
import type { GridFile, QueryLine } from './grid-file.ts';
import { safeFileName } from './safe-file-name.ts';

type Input = z.output<typeof ExportGridInput>;

export interface GridExportPlan {
  file: GridFile;
  /** A file name to suggest in the save dialog, e.g. "Manifests 2026-11-23.xlsx". */
  suggestedName: string;
  fetchPage: FetchPage;
}

const JSON_BYTES = z.instanceof(Uint8Array);

/**
 * A list request as an export sends it: its answer kept as bytes, read and checked in the writer's thread
 * with the list's own schema; and never shared with a grid's identical request, whose answer is read here.
 */
function readInWriter<Schema extends z.ZodType>({
  method,
  path,
  body,
  scope,
  limitBytes,
}: ApiRequest<Schema>): ApiRequest<typeof JSON_BYTES> {
  return {
    method,
    path,
    body,
    ...(scope ? { scope } : {}),
    ...(limitBytes === undefined ? {} : { limitBytes }),
    response: JSON_BYTES,
    read: 'bytes',
  };
}

/** The chosen fields' columns, in the order given: the order the user arranged the grid's columns in. */
function chosenColumns<Field extends string>(catalogue: readonly Column<Field>[], fields: readonly string[]) {
  return [...new Set(fields)].flatMap((field) => catalogue.filter((column) => column.field === field));
}

function sortInWords<Field extends string>(
  text: string | undefined,
  catalogue: readonly Column<Field>[],
  sortable: readonly Field[],
  fallback: { field: Field; direction: 'asc' | 'desc' },
): string {
  const sort = parseSort(text, sortable, fallback);
  const { field, direction } = sort.ok ? sort.value : fallback;
  const header = catalogue.find((column) => column.field === field)?.header ?? field;
  return `${header}, ${direction === 'asc' ? 'ascending' : 'descending'}`;
}

/**
 * Where the rows come from, for the Query sheet: the server, or offline data saved at a time (an offline
 * pack's last complete download), whose rows the renderer sends.
 */
export type RowOrigin = { from: 'server' } | { from: 'offline'; savedAt: Date };

function originLines(origin: RowOrigin): QueryLine[] {
  if (origin.from === 'server') return [['Source', 'The server']];
  return [
    ['Source', 'Offline data'],
    ['Offline data saved', origin.savedAt],
  ];
}

export function planGridExport(
  input: Input,
  session: Session,
  owner: ExportOwner,
  now: Date,
  origin: RowOrigin = { from: 'server' },
): GridExportPlan {
  const day = now.toISOString().slice(0, 10);
  const common = (
    title: string,
    filters: string[],
    sort: string,
  ): Omit<GridFile, 'columns' | 'wasteLines'> => ({
    format: input.format,
    sheetName: title,
    describe: (rows: number): QueryLine[] => [
      ['Exported', title],
      ['Filters', filters.length === 0 ? 'None' : filters.join('; ')],
      ['Search', input.searchKey === '' ? 'None' : input.searchKey],
      ['Sort', sort],
      ['Rows', rows],
      ['Server', owner.baseUrl],
      ['User', owner.username],
      ['Exported at', now],
      ...originLines(origin),
    ],
  });
  if (input.list === 'generators') {
    const columns = chosenColumns(GENERATOR_COLUMNS, input.fields);
    return {
      suggestedName: safeFileName(`Generators ${day}`, input.format),
      file: {
        ...common(
          'Generators',
          describeFilters(input.filterFields, GENERATOR_FILTER_LABELS),
          sortInWords(input.sort, GENERATOR_COLUMNS, GENERATOR_QUERY.sortFields, GENERATOR_QUERY.defaultSort),
        ),
        columns,
        wasteLines: false,
      },
      fetchPage: async (page, signal) => {
        const request = endpoints.generatorsList(exportPageRequest(input, page));
        const answer = await session.call(readInWriter(request), signal);
        return answer.ok ? { ok: true, data: { list: 'generators', json: answer.data } } : answer;
      },
    };
  }
  const columns = chosenColumns(MANIFEST_COLUMNS, input.fields);
  // A workbook has a sheet of waste lines; a CSV file has room for one table only.
  const wasteLines = input.format === 'xlsx';
  return {
    suggestedName: safeFileName(`Manifests ${day}`, input.format),
    file: {
      ...common(
        'Manifests',
        describeFilters(input.filterFields, MANIFEST_FILTER_LABELS),
        sortInWords(input.sort, MANIFEST_COLUMNS, MANIFEST_QUERY.sortFields, MANIFEST_QUERY.defaultSort),
      ),
      columns,
      wasteLines,
    },
    fetchPage: async (page, signal) => {
      const request = endpoints.manifestsList(exportPageRequest(input, page));
      const answer = await session.call(readInWriter(request), signal);
      return answer.ok ? { ok: true, data: { list: 'manifests', json: answer.data } } : answer;
    },
  };
}
