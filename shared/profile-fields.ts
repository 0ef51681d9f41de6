/**
 * Every fact of a generator's detail (spec 2.3) with its label, section and kind, and the detail's tables
 * with their headers: what a profile workbook writes, in the order and words the profile screen uses.
 * Values are typed as the column catalogue types cells: tons and counts as numbers, Y/N flags as flags.
 */
import type { GeneratorDetail } from './api/generators.ts';
import type { ColumnKind } from './columns.ts';
import { siteAddress } from './address.ts';

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
export function joinParts(parts: readonly (string | undefined)[], separator = ' '): string {
  return parts.filter((part) => part !== undefined && part.trim() !== '').join(separator);
}

type Data = GeneratorDetail['generator_data'];

/** A site's address from its parts (address.ts, as the server joins them), else the server's own line. */
const mailing = (d: Data) => siteAddress(d, 'mail') || d.mailing_address;
const physical = (d: Data) => siteAddress(d, 'location') || d.full_address;

const flag = (value: boolean): string => (value ? 'Y' : 'N');

/**
 * An amount of the generator's report year (spec 2.3: tons generated, managed, shipped and received that
 * year). A 0 with no report year is no report, not a measured zero: a generator the server holds no report
 * for (one imported from RCRAInfo's handler files or made from manifests, docs/import.md) shows it empty.
 * Any other amount shows as sent.
 */
function ofReportYear(detail: GeneratorDetail, tons: number): number | undefined {
  return tons === 0 && detail.site_activities.report_year.trim() === '' ? undefined : tons;
}

function fact(
  section: string,
  label: string,
  kind: ColumnKind,
  value: (detail: GeneratorDetail) => Value,
): ProfileFact {
  return { section, label, kind, value };
}

/** The facts in the profile's order; the generator's name heads the screen and the workbook's first row. */
export const PROFILE_FACTS: readonly ProfileFact[] = [
  fact('Identity', 'EPA handler ID', TEXT, (d) => d.generator_data.epa_handler_id),
  fact('Identity', 'State handler ID', TEXT, (d) => d.generator_data.state_handler_id),
  fact('Identity', 'Registration status', TEXT, (d) => d.generator_data.registration_status),
  fact('Identity', 'Federal generator status', TEXT, ({ generator_data: g }) =>
    joinParts([
      g.federal_generator_status_universe,
      g.federal_generator_status_universe_code && `(${g.federal_generator_status_universe_code})`,
    ]),
  ),
  fact('Identity', 'Land type', TEXT, (d) => d.generator_data.land_type),
  fact('Identity', 'Industrial facility', FLAG, (d) => d.generator_data.is_industry),
  fact('Identity', 'Primary NAICS', TEXT, ({ generator_data: g }) =>
    joinParts([g.primary_naics_code, g.primary_naics_desc], ' – '),
  ),
  fact('Identity', 'Part of a network', FLAG, (d) => flag(d.is_network)),
  fact('Identity', 'Tracker enabled', FLAG, (d) => flag(d.is_tracker_enable)),
  fact('Identity', 'Public notes', TEXT, (d) => d.generator_data.public_notes),
  fact('Addresses', 'Location address', TEXT, (d) => physical(d.generator_data)),
  fact('Addresses', 'Physical address', TEXT, (d) => d.generator_data.physical_address),
  fact('Addresses', 'Mailing address', TEXT, (d) => mailing(d.generator_data)),
  fact('Contact', 'Name', TEXT, (d) => d.generator_data.contact_name),
  fact('Contact', 'Email', TEXT, (d) => d.generator_data.contact_email),
  fact('Contact', 'Phone', TEXT, (d) => d.generator_data.contact_phone_number),
  fact(
    'Activity indicators',
    'Short-term generator',
    FLAG,
    (d) => d.generator_data.short_term_generator_activity || d.type_data.short_term_generator_activity,
  ),
  fact(
    'Activity indicators',
    'Mixed waste generator',
    FLAG,
    (d) => d.generator_data.mixed_waste_generator || d.type_data.mixed_waste_generator,
  ),
  fact(
    'Activity indicators',
    'Transporter',
    FLAG,
    (d) => d.generator_data.transporter_activity || d.type_data.transporter_activity,
  ),
  fact(
    'Activity indicators',
    'Transfer facility',
    FLAG,
    (d) => d.generator_data.transfer_facility_activity || d.type_data.transporter_facility_activity,
  ),
  fact(
    'Activity indicators',
    'Importer',
    FLAG,
    (d) => d.generator_data.importer_activity || d.type_data.importer_activity,
  ),
  fact('Totals', 'Generated waste (tons)', TONS, (d) =>
    ofReportYear(d, d.generator_data.total_generated_waste),
  ),
  // spec 2.3: total_shipped is tons shipped off-site, not a count of manifests.
  fact('Totals', 'Shipped off-site (tons)', TONS, (d) => d.generator_data.total_shipped),
  fact('Totals', 'Annual shipped waste (tons)', TONS, (d) => ofReportYear(d, d.generator_data.shipped_waste)),
  fact('Totals', 'Annual managed waste (tons)', TONS, (d) => ofReportYear(d, d.generator_data.managed_waste)),
  fact('Totals', 'Annual received waste (tons)', TONS, (d) =>
    ofReportYear(d, d.generator_data.received_waste),
  ),
  fact('Totals', 'Containers', COUNT, (d) => d.generator_data.total_container),
  fact('Totals', 'Management methods used', COUNT, (d) => d.generator_data.total_mmc),
  fact('Totals', 'Shipped years', CODES, (d) => d.generator_data.shipped_years),
  fact('Waste handling', 'Federal waste codes', CODES, (d) => d.generator_data.federal_waste_codes),
  fact('Waste handling', 'Primary management method', TEXT, ({ generator_data: g, mmc_codes }) =>
    joinParts(
      [
        g.management_method_code,
        mmc_codes.find((entry) => entry.management_method === g.management_method_code)
          ?.management_method_description,
      ],
      ' – ',
    ),
  ),
  // As the server sent them: rounding would move the point (5 decimals is about a metre), and a text such
  // as "Not Available" is what it is.
  fact('Location', 'Latitude', TEXT, (d) => d.generator_data.location_latitude),
  fact('Location', 'Longitude', TEXT, (d) => d.generator_data.location_longitude),
];

/** The sections of the facts, in order. */
export const PROFILE_SECTIONS: readonly string[] = [...new Set(PROFILE_FACTS.map((entry) => entry.section))];

export interface ProfileTable {
  /** The section's title on screen. */
  title: string;
  /** One record, not a list (spec 2.3 site_activities is an object): the screen lists it as facts. */
  record?: true;
  /** The workbook's sheet. */
  sheet: string;
  columns: readonly { header: string; kind: ColumnKind }[];
  rows: (detail: GeneratorDetail) => Value[][];
}

export const PROFILE_TABLES: readonly ProfileTable[] = [
  {
    title: 'Site activities',
    sheet: 'Site activities',
    record: true,
    columns: [
      { header: 'Report year', kind: TEXT },
      { header: 'Generated (tons)', kind: TONS },
      { header: 'Managed (tons)', kind: TONS },
      { header: 'Shipped (tons)', kind: TONS },
      { header: 'Received (tons)', kind: TONS },
    ],
    rows: (d) => [
      [
        d.site_activities.report_year,
        ...[
          d.site_activities.generated_waste,
          d.site_activities.managed_waste,
          d.site_activities.shipped_waste,
          d.site_activities.received_waste,
        ].map((tons) => ofReportYear(d, tons)),
      ],
    ],
  },
  {
    title: 'Waste codes',
    sheet: 'Waste codes',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
    ],
    rows: (d) => d.waste_code_data.map((entry) => [entry.code, entry.description]),
  },
  {
    title: 'Management methods',
    sheet: 'Management methods',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
    ],
    rows: (d) => d.mmc_codes.map((entry) => [entry.management_method, entry.management_method_description]),
  },
  {
    title: 'NAICS codes',
    sheet: 'NAICS',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
      { header: 'Active', kind: FLAG },
    ],
    rows: (d) => d.naics_codes.map((entry) => [entry.naics_code, entry.naics_desc, entry.is_active]),
  },
  {
    title: 'SIC codes',
    sheet: 'SIC',
    columns: [
      { header: 'Code', kind: TEXT },
      { header: 'Description', kind: TEXT },
    ],
    rows: (d) => d.sic_codes.map((entry) => [String(entry.sic_code), entry.sic_desc]),
  },
];
