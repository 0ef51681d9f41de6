/**
 * The export part of the IPC contract: what the renderer may ask main to export, and the events that follow
 * an export. The renderer names a list, a query and columns; main asks the user where to save (its own
 * dialog) and never takes a path from the renderer.
 */
import { z } from 'zod';
import {
  GENERATOR_FIELDS,
  GeneratorDetailQuery,
  GeneratorFilterFields,
  GeneratorRecord,
  LIMITS,
  ManifestFilterFields,
  ManifestRecord,
  SearchKey,
  type GeneratorListRequest,
  type ManifestListRequest,
} from '../api/index.ts';
import { MANIFEST_COLUMNS } from '../columns.ts';

export const ExportFormat = z.enum(['xlsx', 'csv']);
export type ExportFormat = z.infer<typeof ExportFormat>;

const MANIFEST_EXPORT_FIELDS = MANIFEST_COLUMNS.map((column) => column.field) as [string, ...string[]];

const sort = z.string().max(100).optional();

/** A grid's export: its query, sort and shown columns (at least one), as the grid asks for its pages. */
export const ExportGridInput = z.discriminatedUnion('list', [
  z.strictObject({
    list: z.literal('generators'),
    format: ExportFormat,
    filterFields: GeneratorFilterFields.default({}),
    searchKey: SearchKey.default(''),
    sort,
    fields: z
      .array(z.enum(GENERATOR_FIELDS))
      .min(1, 'choose at least one column')
      .max(GENERATOR_FIELDS.length),
  }),
  z.strictObject({
    list: z.literal('manifests'),
    format: ExportFormat,
    filterFields: ManifestFilterFields.default({}),
    searchKey: SearchKey.default(''),
    sort,
    fields: z
      .array(z.enum(MANIFEST_EXPORT_FIELDS))
      .min(1, 'choose at least one column')
      .max(MANIFEST_EXPORT_FIELDS.length),
  }),
]);
export type ExportGridInput = z.input<typeof ExportGridInput>;

/** One page of an export's rows as the list request that reads it, from the API or an offline pack. */
export type ExportPageRequest<Query extends ExportGridInput> = Query extends { list: 'generators' }
  ? z.output<typeof GeneratorListRequest>
  : z.output<typeof ManifestListRequest>;

/**
 * Page `page` (0-based) of an export's rows: the grid's filters, search and sort, the API's largest page
 * (docs/api.md "Limits"), and the chosen columns once each in the grid's order, with a workbook of
 * manifests also reading their waste lines (a CSV file has room for one table only).
 */
export function exportPageRequest<Query extends ExportGridInput>(
  query: Query,
  page: number,
): ExportPageRequest<Query> {
  const fields = [...new Set<string>(query.fields)];
  const wasteLines = query.list === 'manifests' && query.format === 'xlsx';
  const pageInfo = {
    page,
    pageSize: LIMITS.pageSizeMax,
    selectedFields: (wasteLines ? [...fields, 'waste_lines'] : fields).join(','),
    ...(query.sort ? { sort: query.sort } : {}),
  };
  // Either list's request: the query's own filters, checked by its list's schema where it was read.
  return {
    filterFields: query.filterFields ?? {},
    searchKey: query.searchKey ?? '',
    pageInfo,
  } as ExportPageRequest<Query>;
}

export const ExportProfileInput = GeneratorDetailQuery;

/** Main's name for a running export. */
export const ExportId = z.string().uuid();

/** The export's id, or null when the user closed the save dialog without choosing a file. */
export const ExportStarted = z.object({ id: ExportId }).nullable();

/**
 * An export of offline data: the grid's query, answered from an offline pack in the renderer, and when that
 * data was saved (the pack's last complete download, ms since the epoch) for the Query sheet. Main asks where
 * to save as for any export; the rows follow in chunks.
 */
export const ExportOfflineInput = z.strictObject({
  query: ExportGridInput,
  savedAt: z.number().int().nonnegative(),
});
export type ExportOfflineInput = z.input<typeof ExportOfflineInput>;

/**
 * Rows in one chunk at most. The offline engine answers pages of 500 rows; half a page of manifests with
 * every field and their waste lines is a few hundred kilobytes, well inside one message.
 */
export const OFFLINE_CHUNK_ROWS = 250;

/**
 * Waste lines in one chunk at most, all its manifests together: ten a manifest where the data has about
 * 2.5. With each text field bounded (LIMITS.fieldTextMax) and each manifest's lines (LIMITS.wasteLinesMax),
 * this bounds what one chunk from a compromised renderer can make main parse and write. The renderer ends a
 * chunk early to stay within it.
 */
export const OFFLINE_CHUNK_LINES = 2500;

/**
 * The next rows of an offline export, in the grid's order, with the number of rows matching in all. The
 * answer comes once main has written them: the renderer awaits it before it sends the next chunk.
 */
export const ExportChunkInput = z.strictObject({
  id: ExportId,
  total: z.number().int().nonnegative(),
  rows: z.array(z.unknown()).max(OFFLINE_CHUNK_ROWS),
});

/**
 * The last chunk was sent; or, with `failure`, the renderer could not read the offline data, in words, and
 * the export fails with it.
 */
export const ExportEndInput = z.strictObject({
  id: ExportId,
  failure: z.string().min(1).max(1000).optional(),
});

/**
 * One row of a chunk, by list: the canonical row the offline engine answers, as the API's schema reads it,
 * with no member the list does not have. Main checks every row before it writes any of the chunk.
 */
export const OFFLINE_ROW = {
  generators: GeneratorRecord.strict(),
  manifests: ManifestRecord.strict(),
} as const;

/** Waste lines of the rows of a chunk, all together. */
export function chunkLines(rows: readonly unknown[]): number {
  let lines = 0;
  for (const row of rows) {
    const wasteLines = (row as { waste_lines?: unknown } | null)?.waste_lines;
    if (Array.isArray(wasteLines)) lines += wasteLines.length;
  }
  return lines;
}

/** A chunk's rows of a list: each its list's row, and OFFLINE_CHUNK_LINES waste lines at most in all. */
export function offlineChunkRows(list: keyof typeof OFFLINE_ROW) {
  return z
    .array(OFFLINE_ROW[list])
    .max(OFFLINE_CHUNK_ROWS)
    .refine(
      (rows) => chunkLines(rows) <= OFFLINE_CHUNK_LINES,
      `a chunk holds at most ${OFFLINE_CHUNK_LINES} waste lines in all`,
    );
}

export const exportEvents = {
  'export.progress': z.object({
    id: ExportId,
    rowsWritten: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** Set while the export waits for the user to sign in again (a 401 midway). */
    waiting: z.literal('sign-in').optional(),
    /** Once every row is written: the Waste lines sheet's progress, a phase of its own. */
    wasteLines: z
      .object({ written: z.number().int().nonnegative(), total: z.number().int().nonnegative() })
      .optional(),
  }),
  'export.done': z.object({ id: ExportId, fileName: z.string(), rows: z.number().int().nonnegative() }),
  'export.failed': z.object({
    id: ExportId,
    message: z.string(),
    /** The server could not be reached: an offline pack that covers the query may give the rows instead. */
    cause: z.literal('network').optional(),
  }),
} as const;
