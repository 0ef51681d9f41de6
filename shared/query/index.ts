/**
 * What a list request means, written once (docs/api.md "Query semantics"). The server implements it in
 * SQL; an offline engine over cached rows runs the same definitions: this file reads sort and
 * selectedFields, filters.ts matches filterFields, search.ts searchKey, sort.ts orders rows, lookup.ts pages
 * lookups, canonical.ts keys requests.
 */
import { GENERATOR_FIELDS, type GeneratorField } from '../api/generators.ts';
import { MANIFEST_FIELDS, type ManifestField } from '../api/manifests.ts';

export type SortDirection = 'asc' | 'desc';
export interface Sort<Field extends string> {
  field: Field;
  direction: SortDirection;
}

/** Outcome of reading one request parameter: the value, or a message for a 400 answer. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** Fields a generator row can be sorted by: every field of the row. */
export const GENERATOR_SORT_FIELDS: readonly GeneratorField[] = GENERATOR_FIELDS;
/** Fields a manifest row can be sorted by: every scalar field (waste_lines is a list). */
export const MANIFEST_SORT_FIELDS: readonly ManifestField[] = MANIFEST_FIELDS.filter(
  (field) => field !== 'waste_lines',
);

export const DEFAULT_GENERATOR_SORT: Sort<GeneratorField> = { field: 'generator_name', direction: 'asc' };
export const DEFAULT_MANIFEST_SORT: Sort<ManifestField> = { field: 'shipped_date', direction: 'desc' };

/** The text identity fields searchKey matches (case-insensitive substring, any one field). */
export const GENERATOR_SEARCH_FIELDS = [
  'epa_handler_id',
  'generator_name',
  'physical_address',
  'location_city',
  'location_state',
  'location_zip',
  'contact_name',
  'primary_naics_code',
  'primary_naics_desc',
] as const satisfies readonly GeneratorField[];
export const MANIFEST_SEARCH_FIELDS = [
  'manifest_tracking_number',
  'generator_name',
  'generator_epa_id',
  'transporter',
  'designated_facility_name',
] as const satisfies readonly ManifestField[];

/**
 * Reads `sort`: "<field> asc|desc"; empty means the default. Ties are always broken by the row's public
 * unique key in the same direction (sort.ts), so paging is stable.
 */
export function parseSort<Field extends string>(
  text: string | undefined,
  fields: readonly Field[],
  fallback: Sort<Field>,
): Parsed<Sort<Field>> {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return { ok: true, value: fallback };
  const [field, direction = 'asc', ...rest] = trimmed.split(/\s+/);
  if (rest.length > 0) return { ok: false, message: `sort must be "<field> asc|desc", got "${trimmed}"` };
  if (!fields.includes(field as Field)) {
    return { ok: false, message: `cannot sort by unknown field "${field}"; sortable: ${fields.join(', ')}` };
  }
  const lower = direction.toLowerCase();
  if (lower !== 'asc' && lower !== 'desc') {
    return { ok: false, message: `sort direction must be asc or desc, got "${direction}"` };
  }
  return { ok: true, value: { field: field as Field, direction: lower } };
}

/**
 * Reads `selectedFields`: comma-separated row fields; spaces, empty items and a trailing comma are ignored;
 * empty means every field; duplicates collapse; an unknown field is refused by name.
 */
export function parseSelectedFields<Field extends string>(
  text: string | undefined,
  fields: readonly Field[],
): Parsed<Field[]> {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) return { ok: true, value: [...fields] };
  const unknown = names.filter((name) => !fields.includes(name as Field));
  if (unknown.length > 0) {
    return {
      ok: false,
      message: `unknown field${unknown.length > 1 ? 's' : ''} in selectedFields: ${unknown.join(', ')}`,
    };
  }
  return { ok: true, value: fields.filter((field) => names.includes(field)) };
}

export { compareCodePoints } from './sort.ts';
