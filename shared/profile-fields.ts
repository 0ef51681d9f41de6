/**
 * Every fact of a generator's detail (spec 2.3) with its label, section and kind, and the detail's tables
 * with their headers: what a profile workbook writes, in the order and words the profile screen uses.
 * Values are typed as the column catalogue types cells: tons and counts as numbers, Y/N flags as flags.
 */
import type { GeneratorDetail } from './api/generators.ts';
import type { ColumnKind } from './columns.ts';

type Value = string | number | undefined;

export interface ProfileFact {
  section: string;
  label: string;
  kind: ColumnKind;
  value: (detail: GeneratorDetail) => Value;
}

const TEXT = { type: 'text' } as const;
const TONS = { type: 'number', decimals: 2, unit: 'tons' } as const;
const COUNT = { type: 'count' } as const;
const FLAG = { type: 'flag' } as const;
const CODES = { type: 'codes' } as const;

/** Parts joined by a separator, empty ones left out. */
export function joinParts(parts: readonly (string | undefined)[], separator: string): string {
  return parts
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(separator);
}

const flag = (value: boolean): string => (value ? 'Y' : 'N');

export const PROFILE_FACTS: readonly ProfileFact[] = [
  { section: 'Identity', label: 'EPA handler ID', kind: TEXT, value: (d) => d.generator_data.epa_handler_id },
  { section: 'Identity', label: 'Generator name', kind: TEXT, value: (d) => d.generator_data.generator_name },
  {
    section: 'Identity',
    label: 'State handler ID',
    kind: TEXT,
    value: (d) => d.generator_data.state_handler_id,
  },
  {
    section: 'Identity',
    label: 'Registration status',
    kind: TEXT,
    value: (d) => d.generator_data.registration_status,
  },
  {
    section: 'Identity',
    label: 'Federal generator status',
    kind: TEXT,
    value: ({ generator_data: g }) =>
      joinParts(
        [
          g.federal_generator_status_universe,
          g.federal_generator_status_universe_code && `(${g.federal_generator_status_universe_code})`,
        ],
        ' ',
      ),
  },
  { section: 'Identity', label: 'Land type', kind: TEXT, value: (d) => d.generator_data.land_type },
  {
    section: 'Identity',
    label: 'Industrial facility',
    kind: FLAG,
    value: (d) => d.generator_data.is_industry,
  },
  {
    section: 'Identity',
    label: 'Primary NAICS',
    kind: TEXT,
    value: ({ generator_data: g }) => joinParts([g.primary_naics_code, g.primary_naics_desc], ' – '),
  },
  { section: 'Identity', label: 'Part of a network', kind: FLAG, value: (d) => flag(d.is_network) },
  { section: 'Identity', label: 'Tracker enabled', kind: FLAG, value: (d) => flag(d.is_tracker_enable) },
  { section: 'Identity', label: 'Public notes', kind: TEXT, value: (d) => d.generator_data.public_notes },
  {
    section: 'Addresses',
    label: 'Location address',
    kind: TEXT,
    value: ({ generator_data: g }) =>
      g.full_address ||
      joinParts(
        [
          joinParts([g.location_street_number, g.location_street_1, g.location_street_2], ' '),
          g.location_city,
          joinParts([g.location_state, g.location_zip], ' '),
        ],
        ', ',
      ),
  },
  {
    section: 'Addresses',
    label: 'Physical address',
    kind: TEXT,
    value: (d) => d.generator_data.physical_address,
  },
  {
    section: 'Addresses',
    label: 'Mailing address',
    kind: TEXT,
    value: ({ generator_data: g }) =>
      g.mailing_address ||
      joinParts(
        [
          joinParts([g.mail_street_number, g.mail_street_1, g.mail_street_2], ' '),
          g.mail_city,
          joinParts([g.mail_state, g.mail_zip], ' '),
        ],
        ', ',
      ),
  },
  { section: 'Contact', label: 'Name', kind: TEXT, value: (d) => d.generator_data.contact_name },
  { section: 'Contact', label: 'Email', kind: TEXT, value: (d) => d.generator_data.contact_email },
  { section: 'Contact', label: 'Phone', kind: TEXT, value: (d) => d.generator_data.contact_phone_number },
  {
    section: 'Activity indicators',
    label: 'Short-term generator',
    kind: FLAG,
    value: (d) => d.generator_data.short_term_generator_activity || d.type_data.short_term_generator_activity,
  },
  {
    section: 'Activity indicators',
    label: 'Mixed waste generator',
    kind: FLAG,
    value: (d) => d.generator_data.mixed_waste_generator || d.type_data.mixed_waste_generator,
  },
  {
    section: 'Activity indicators',
    label: 'Transporter',
    kind: FLAG,
    value: (d) => d.generator_data.transporter_activity || d.type_data.transporter_activity,
  },
  {
    section: 'Activity indicators',
    label: 'Transfer facility',
    kind: FLAG,
    value: (d) => d.generator_data.transfer_facility_activity || d.type_data.transporter_facility_activity,
  },
  {
    section: 'Activity indicators',
    label: 'Importer',
    kind: FLAG,
    value: (d) => d.generator_data.importer_activity || d.type_data.importer_activity,
  },
  {
    section: 'Totals',
    label: 'Generated waste (tons)',
    kind: TONS,
    value: (d) => d.generator_data.total_generated_waste,
  },
  // spec 2.3: total_shipped is tons shipped off-site, not a count of manifests.
  {
    section: 'Totals',
    label: 'Shipped off-site (tons)',
    kind: TONS,
    value: (d) => d.generator_data.total_shipped,
  },
  {
    section: 'Totals',
    label: 'Annual shipped waste (tons)',
    kind: TONS,
    value: (d) => d.generator_data.shipped_waste,
  },
  {
    section: 'Totals',
    label: 'Annual managed waste (tons)',
    kind: TONS,
    value: (d) => d.generator_data.managed_waste,
  },
  {
    section: 'Totals',
    label: 'Annual received waste (tons)',
    kind: TONS,
    value: (d) => d.generator_data.received_waste,
  },
  { section: 'Totals', label: 'Containers', kind: COUNT, value: (d) => d.generator_data.total_container },
  {
    section: 'Totals',
    label: 'Management methods used',
    kind: COUNT,
    value: (d) => d.generator_data.total_mmc,
  },
  { section: 'Totals', label: 'Shipped years', kind: CODES, value: (d) => d.generator_data.shipped_years },
  {
    section: 'Waste handling',
    label: 'Federal waste codes',
    kind: CODES,
    value: (d) => d.generator_data.federal_waste_codes,
  },
  {
    section: 'Waste handling',
    label: 'Primary management method',
    kind: TEXT,
    value: ({ generator_data: g, mmc_codes }) =>
      joinParts(
        [
          g.management_method_code,
          mmc_codes.find((entry) => entry.management_method === g.management_method_code)
            ?.management_method_description,
        ],
        ' – ',
      ),
  },
  { section: 'Location', label: 'Latitude', kind: TEXT, value: (d) => d.generator_data.location_latitude },
  { section: 'Location', label: 'Longitude', kind: TEXT, value: (d) => d.generator_data.location_longitude },
];

export interface ProfileTable {
  /** The sheet's name in a workbook and the section's title on screen. */
  title: string;
  columns: readonly { header: string; kind: ColumnKind }[];
  rows: (detail: GeneratorDetail) => Value[][];
}

export const PROFILE_TABLES: readonly ProfileTable[] = [
  {
    title: 'Site activities',
    columns: [
      { header: 'Report year', kind: TEXT },
      { header: 'Generated (tons)', kind: TONS },
      { header: 'Managed (tons)', kind: TONS },
      { header: 'Shipped (tons)', kind: TONS },
      { header: 'Received (tons)', kind: TONS },
    ],
    rows: ({ site_activities: site }) => [
      [site.report_year, site.generated_waste, site.managed_waste, site.shipped_waste, site.received_waste],
    ],
  },
  {
    title: 'Waste codes',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
    ],
    rows: (d) => d.waste_code_data.map((entry) => [entry.code, entry.description]),
  },
  {
    title: 'Management methods',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
    ],
    rows: (d) => d.mmc_codes.map((entry) => [entry.management_method, entry.management_method_description]),
  },
  {
    title: 'NAICS',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
      { header: 'Active', kind: FLAG },
    ],
    rows: (d) => d.naics_codes.map((entry) => [entry.naics_code, entry.naics_desc, entry.is_active]),
  },
  {
    title: 'SIC',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
    ],
    rows: (d) => d.sic_codes.map((entry) => [String(entry.sic_code), entry.sic_desc]),
  },
];
