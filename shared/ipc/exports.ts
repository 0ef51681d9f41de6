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
  ManifestFilterFields,
  SearchKey,
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

export const ExportProfileInput = GeneratorDetailQuery;

/** Main's name for a running export. */
export const ExportId = z.string().uuid();

/** The export's id, or null when the user closed the save dialog without choosing a file. */
export const ExportStarted = z.object({ id: ExportId }).nullable();

export const exportEvents = {
  'export.progress': z.object({
    id: ExportId,
    rowsWritten: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** Set while the export waits for the user to sign in again (a 401 midway). */
    waiting: z.literal('sign-in').optional(),
  }),
  'export.done': z.object({ id: ExportId, fileName: z.string(), rows: z.number().int().nonnegative() }),
  'export.failed': z.object({ id: ExportId, message: z.string() }),
} as const;
