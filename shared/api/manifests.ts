import { z } from 'zod';
import {
  BOUNDS_MESSAGES,
  FieldText,
  FilterValues,
  LIMITS,
  PageInfo,
  SearchKey,
  lookupQuery,
} from './common.ts';
import { isoDate, tolerantNumber } from './wire.ts';

/** spec 2.5: the fields of a manifest row, in the order the spec lists them. */
export const MANIFEST_FIELDS = [
  'manifest_tracking_number',
  'generator_name',
  'transporter',
  'designated_facility_name',
  'shipped_date',
  'received_date',
  'total_waste_quantity_tons',
  'container_count',
  'waste_stream_count',
  'generator_location_state',
  'generator_epa_id',
  'waste_lines',
] as const;
export type ManifestField = (typeof MANIFEST_FIELDS)[number];

/** spec 2.6 */
export const WASTE_LINE_FIELDS = [
  'manifest_tracking_number',
  'waste_line_number',
  'usdot_haz_indicator',
  'usdot_id_number',
  'usdot_desc',
  'container_count',
  'container_type_code',
  'epa_waste_indicator',
  'waste_quantity_tons',
  'transporter',
  'federal_waste_codes',
  'mmc_and_desc',
] as const;

/** spec 4.6: filterFields members of the manifests endpoints; dates are inclusive bounds. */
export const ManifestFilterFields = z
  .strictObject({
    generator_names: FilterValues.optional(),
    transporter_names: FilterValues.optional(),
    designated_facility_names: FilterValues.optional(),
    dot_id_nos: FilterValues.optional(),
    container_types: FilterValues.optional(),
    handling_codes: FilterValues.optional(),
    shipped_date_start: isoDate.optional(),
    shipped_date_end: isoDate.optional(),
    received_date_start: isoDate.optional(),
    received_date_end: isoDate.optional(),
  })
  .superRefine((fields, ctx) => {
    for (const range of ['shipped', 'received'] as const) {
      const start = fields[`${range}_date_start`];
      const end = fields[`${range}_date_end`];
      if (start && end && start > end) {
        ctx.addIssue({
          code: 'custom',
          path: [`${range}_date_start`],
          message: `${range}_date_start ${start} is after ${range}_date_end ${end}`,
        });
      }
    }
  });
export type ManifestFilterFields = z.infer<typeof ManifestFilterFields>;

/** spec 4.5 */
export const ManifestAggregateRequest = z.strictObject({
  filterFields: ManifestFilterFields.default({}),
  searchKey: SearchKey.default(''),
});
export type ManifestAggregateRequest = z.input<typeof ManifestAggregateRequest>;

/** spec 4.6 */
export const ManifestListRequest = z.strictObject({
  pageInfo: PageInfo,
  filterFields: ManifestFilterFields.default({}),
  searchKey: SearchKey.default(''),
});
export type ManifestListRequest = z.input<typeof ManifestListRequest>;

/** spec 4.7 */
export const MANIFEST_LOOKUP_FIELDS = [
  'manifest_number',
  'generator_name',
  'transporter_name',
  'designated_facility_name',
  'dot_id_no',
  'container_type',
  'handling_code',
] as const;
export type ManifestLookupField = (typeof MANIFEST_LOOKUP_FIELDS)[number];
export const ManifestLookupQuery = lookupQuery(MANIFEST_LOOKUP_FIELDS);
export type ManifestLookupQuery = z.input<typeof ManifestLookupQuery>;

/** spec 2.4, read tolerantly (the sample sends comma-grouped strings). */
export const ManifestTotals = z.object({
  total_waste: tolerantNumber,
  shipped_count: tolerantNumber,
  container_count: tolerantNumber,
  waste_streams: tolerantNumber,
});
export type ManifestTotals = z.infer<typeof ManifestTotals>;

const text = FieldText;

/** spec 2.6; container_count is a string on the wire here, read as a number. */
export const WasteLine = z.object({
  manifest_tracking_number: text,
  waste_line_number: tolerantNumber,
  usdot_haz_indicator: text,
  usdot_id_number: text,
  usdot_desc: text,
  container_count: tolerantNumber,
  container_type_code: text,
  epa_waste_indicator: text,
  waste_quantity_tons: tolerantNumber,
  transporter: text,
  federal_waste_codes: text,
  mmc_and_desc: text,
});
export type WasteLine = z.infer<typeof WasteLine>;

/** spec 2.5; every field optional because selectedFields returns only the fields asked for. */
export const ManifestRecord = z
  .object({
    manifest_tracking_number: text,
    generator_name: text,
    transporter: text,
    designated_facility_name: text,
    shipped_date: text,
    received_date: text,
    total_waste_quantity_tons: tolerantNumber,
    container_count: tolerantNumber,
    waste_stream_count: tolerantNumber,
    generator_location_state: text,
    generator_epa_id: text,
    waste_lines: z.array(WasteLine).max(LIMITS.wasteLinesMax, BOUNDS_MESSAGES.wasteLines),
  })
  .partial();
export type ManifestRecord = z.infer<typeof ManifestRecord>;

export const ManifestList = z.object({
  totalElements: tolerantNumber,
  content: z.array(ManifestRecord),
});
export type ManifestList = z.infer<typeof ManifestList>;
