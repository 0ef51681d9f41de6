import { z } from 'zod';
import { FieldText, FilterValues, PageInfo, SearchKey, lookupQuery } from './common.ts';
import { tolerantNumber } from './wire.ts';

/** spec 2.2: the fields of a generator row, in the order the spec lists them. */
export const GENERATOR_FIELDS = [
  'epa_handler_id',
  'generator_name',
  'physical_address',
  'location_street_number',
  'location_street_1',
  'location_city',
  'location_state',
  'location_zip',
  'contact_name',
  'contact_phone_number',
  'contact_email',
  'primary_naics_code',
  'primary_naics_desc',
  'registration_status',
  'state_handler_id',
  'total_waste',
] as const;
export type GeneratorField = (typeof GENERATOR_FIELDS)[number];

/** spec 4.2: filterFields members of the generators endpoints. Values OR within a member, members AND. */
export const GeneratorFilterFields = z.strictObject({
  shippedYears: FilterValues.optional(),
  cities: FilterValues.optional(),
  naics: FilterValues.optional(),
  ids: FilterValues.optional(),
  states: FilterValues.optional(),
  wasteCodes: FilterValues.optional(),
  names: FilterValues.optional(),
  statuses: FilterValues.optional(),
  handlingCodes: FilterValues.optional(),
});
export type GeneratorFilterFields = z.infer<typeof GeneratorFilterFields>;

/** spec 4.1 */
export const GeneratorAggregateRequest = z.strictObject({
  filterFields: GeneratorFilterFields.default({}),
  searchKey: SearchKey.default(''),
});
export type GeneratorAggregateRequest = z.input<typeof GeneratorAggregateRequest>;

/** spec 4.2 */
export const GeneratorListRequest = z.strictObject({
  pageInfo: PageInfo,
  filterFields: GeneratorFilterFields.default({}),
  searchKey: SearchKey.default(''),
});
export type GeneratorListRequest = z.input<typeof GeneratorListRequest>;

/** spec 4.3: the lookups every tracker API answers. */
export const SPEC_GENERATOR_LOOKUP_FIELDS = [
  'generator_city',
  'naics',
  'epa_handler_id',
  'generator_state',
  'epa_waste_code',
  'generator_name',
  'mmc',
] as const;

/**
 * Lookups this server adds (docs/api.md): the spec's filterFields have shippedYears and statuses members but
 * no lookup to fill their boxes from. A server that implements only the spec refuses them (400), so a
 * client must not count on them.
 */
export const GENERATOR_LOOKUP_EXTENSIONS = ['shipped_year', 'status'] as const;

export const GENERATOR_LOOKUP_FIELDS = [
  ...SPEC_GENERATOR_LOOKUP_FIELDS,
  ...GENERATOR_LOOKUP_EXTENSIONS,
] as const;
export type GeneratorLookupField = (typeof GENERATOR_LOOKUP_FIELDS)[number];
export const GeneratorLookupQuery = lookupQuery(GENERATOR_LOOKUP_FIELDS);
/** The lookup query as a server that implements only the spec reads it. */
export const SpecGeneratorLookupQuery = lookupQuery(SPEC_GENERATOR_LOOKUP_FIELDS);
export type GeneratorLookupQuery = z.input<typeof GeneratorLookupQuery>;

/** spec 2.1, read tolerantly: the sample sends " 1,234.56" strings where numbers are declared. */
export const GeneratorTotals = z.object({
  epa_total: tolerantNumber,
  shipped_count: tolerantNumber,
  container_count: tolerantNumber,
  mmc_count: tolerantNumber,
});
export type GeneratorTotals = z.infer<typeof GeneratorTotals>;

const text = z.string();

/**
 * spec 2.2, read tolerantly. Every field is optional because selectedFields (docs/api.md) returns only
 * the fields asked for.
 */
export const GeneratorRecord = z
  .object({
    epa_handler_id: FieldText,
    generator_name: FieldText,
    physical_address: FieldText,
    location_street_number: FieldText,
    location_street_1: FieldText,
    location_city: FieldText,
    location_state: FieldText,
    location_zip: FieldText,
    contact_name: FieldText,
    contact_phone_number: FieldText,
    contact_email: FieldText,
    primary_naics_code: FieldText,
    primary_naics_desc: FieldText,
    registration_status: FieldText,
    state_handler_id: FieldText,
    total_waste: tolerantNumber,
  })
  .partial();
export type GeneratorRecord = z.infer<typeof GeneratorRecord>;

export const GeneratorList = z.object({
  totalElements: tolerantNumber,
  content: z.array(GeneratorRecord),
});
export type GeneratorList = z.infer<typeof GeneratorList>;

/** spec 4.4 */
export const GeneratorDetailQuery = z.strictObject({
  handler_id: z.string().trim().min(1, 'handler_id is required').max(40),
});
export type GeneratorDetailQuery = z.infer<typeof GeneratorDetailQuery>;

/**
 * Renames the sample's misspellings (location_lattitude, recieved_waste) to the described names.
 * When both spellings are present the described one wins.
 */
function renameVariants(aliases: Record<string, string>) {
  return (value: unknown) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = { ...(value as Record<string, unknown>) };
    for (const [variant, described] of Object.entries(aliases)) {
      if (variant in record) {
        if (!(described in record)) record[described] = record[variant];
        delete record[variant];
      }
    }
    return record;
  };
}

const SPELLING_VARIANTS = { location_lattitude: 'location_latitude', recieved_waste: 'received_waste' };

/** spec 2.3 generator_data */
export const GeneratorData = z.preprocess(
  renameVariants(SPELLING_VARIANTS),
  z.object({
    epa_handler_id: text,
    generator_name: text,
    mail_street_number: text.default(''),
    mail_street_1: text.default(''),
    mail_street_2: text.default(''),
    mail_city: text.default(''),
    mail_zip: text.default(''),
    mail_state: text.default(''),
    physical_address: text.default(''),
    location_street_number: text.default(''),
    location_street_1: text.default(''),
    location_street_2: text.default(''),
    location_city: text.default(''),
    location_zip: text.default(''),
    location_state: text.default(''),
    contact_name: text.default(''),
    contact_email: text.default(''),
    contact_phone_number: text.default(''),
    primary_naics_code: text.default(''),
    primary_naics_desc: text.default(''),
    total_generated_waste: tolerantNumber,
    total_container: tolerantNumber,
    total_mmc: tolerantNumber,
    total_shipped: tolerantNumber,
    shipped_years: text.default(''),
    federal_generator_status_universe: text.default(''),
    federal_generator_status_universe_code: text.default(''),
    land_type: text.default(''),
    short_term_generator_activity: text.default(''),
    mixed_waste_generator: text.default(''),
    transporter_activity: text.default(''),
    transfer_facility_activity: text.default(''),
    importer_activity: text.default(''),
    federal_waste_codes: text.default(''),
    management_method_code: text.default(''),
    full_address: text.default(''),
    mailing_address: text.default(''),
    location_latitude: text.default(''),
    location_longitude: text.default(''),
    public_notes: text.default(''),
    managed_waste: tolerantNumber,
    shipped_waste: tolerantNumber,
    received_waste: tolerantNumber,
    registration_status: text.default(''),
    is_industry: text.default(''),
    state_handler_id: text.default(''),
  }),
);
export type GeneratorData = z.infer<typeof GeneratorData>;

export const TypeData = z.object({
  short_term_generator_activity: text.default(''),
  mixed_waste_generator: text.default(''),
  transporter_activity: text.default(''),
  transporter_facility_activity: text.default(''),
  importer_activity: text.default(''),
});

export const SiteActivities = z.preprocess(
  renameVariants(SPELLING_VARIANTS),
  z.object({
    report_year: z.union([text, z.number().transform(String)]),
    generated_waste: tolerantNumber,
    managed_waste: tolerantNumber,
    shipped_waste: tolerantNumber,
    received_waste: tolerantNumber,
  }),
);

/** One waste code with its description: the canonical item of waste_code_data. */
export const WasteCodeEntry = z.object({ code: z.string(), description: z.string() });
export type WasteCodeEntry = z.infer<typeof WasteCodeEntry>;

/**
 * spec 2.3 types waste_code_data as an array, its sample is an object mapping code → description.
 * Both become one array of {code, description}; array items may also be spelled
 * {waste_code, description} or {code, desc}.
 */
export const WasteCodeData = z
  .union([
    z.record(z.string(), z.string()),
    z.array(
      z.union([
        WasteCodeEntry,
        z.object({ waste_code: z.string(), description: z.string() }),
        z.object({ code: z.string(), desc: z.string() }),
      ]),
    ),
  ])
  .transform((value): WasteCodeEntry[] =>
    Array.isArray(value)
      ? value.map((item) =>
          'waste_code' in item
            ? { code: item.waste_code, description: item.description }
            : 'desc' in item
              ? { code: item.code, description: item.desc }
              : { code: item.code, description: item.description },
        )
      : Object.entries(value).map(([code, description]) => ({ code, description })),
  );

export const MmcCode = z.object({ management_method: text, management_method_description: text });
export const NaicsCode = z.object({ naics_code: text, naics_desc: text, is_active: z.enum(['Y', 'N']) });
export const SicCode = z.object({ sic_code: tolerantNumber, sic_desc: text });

/** spec 2.3, normalised to the described names and one shape of waste_code_data. */
export const GeneratorDetail = z.object({
  generator_data: GeneratorData,
  type_data: TypeData,
  site_activities: SiteActivities,
  waste_code_data: WasteCodeData,
  mmc_codes: z.array(MmcCode),
  naics_codes: z.array(NaicsCode),
  sic_codes: z.array(SicCode),
  gen_map: z.string().default(''),
  is_network: z.boolean(),
  is_tracker_enable: z.boolean(),
});
export type GeneratorDetail = z.infer<typeof GeneratorDetail>;
