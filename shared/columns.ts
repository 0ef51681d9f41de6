/**
 * The column catalogue: every field of the generator, manifest and waste-line rows with its header, its
 * kind and whether a grid shows it by default. The grids and the exported workbooks both read it, so a
 * column is named and typed once. Each catalogue is a mapped type over the spec's fields, so a field added
 * to the spec cannot be left without a column, and an unknown one is refused.
 */
import type { GeneratorField } from './api/generators.ts';
import type { ManifestField, WASTE_LINE_FIELDS } from './api/manifests.ts';

/**
 * What a field holds, and so how it is shown and written: `number` with fixed decimals and a unit (tons),
 * `count` (whole numbers, thousands separators), `date` (an ISO calendar date, no time or zone), `flag`
 * (the spec's "Y"/"N" strings, shown Yes/No), `codes` (codes joined by commas), `text` otherwise. A number
 * a report gives (`reported`: a generator's tons generated in its report year, spec 2.2) is 0 where there
 * is no report, and shows and is written empty then (isUnreported).
 */
export type ColumnKind =
  | { type: 'text' }
  | { type: 'number'; decimals: number; unit: string; reported?: true }
  | { type: 'count' }
  | { type: 'date' }
  | { type: 'flag' }
  | { type: 'codes' };

export interface Column<Field extends string> {
  field: Field;
  header: string;
  kind: ColumnKind;
  /** Shown in a grid until the user chooses columns. */
  visible: boolean;
  /** What the header alone does not say, shown when it is hovered: what the column holds, why it may be blank. */
  about?: string;
}

type Entry = Omit<Column<string>, 'field'>;

const TEXT = { type: 'text' } as const;
const TONS = { type: 'number', decimals: 2, unit: 'tons' } as const;
const REPORTED_TONS = { ...TONS, reported: true } as const;
const COUNT = { type: 'count' } as const;
const DATE = { type: 'date' } as const;
const FLAG = { type: 'flag' } as const;
const CODES = { type: 'codes' } as const;

/** The columns in the order written here, which is the order grids and workbooks show them. */
function catalogue<Field extends string>(entries: { [F in Field]: Entry }): readonly Column<Field>[] {
  return (Object.keys(entries) as Field[]).map((field) => ({ field, ...entries[field] }));
}

/** spec 2.2 */
export const GENERATOR_COLUMNS = catalogue<GeneratorField>({
  epa_handler_id: { header: 'EPA ID', kind: TEXT, visible: true },
  generator_name: { header: 'Name', kind: TEXT, visible: true },
  physical_address: { header: 'Address', kind: TEXT, visible: false },
  location_street_number: { header: 'Street number', kind: TEXT, visible: false },
  location_street_1: { header: 'Street', kind: TEXT, visible: false },
  location_city: { header: 'City', kind: TEXT, visible: true },
  location_state: { header: 'State', kind: TEXT, visible: true },
  location_zip: { header: 'ZIP', kind: TEXT, visible: false },
  contact_name: { header: 'Contact', kind: TEXT, visible: false },
  contact_phone_number: { header: 'Phone', kind: TEXT, visible: false },
  contact_email: { header: 'Email', kind: TEXT, visible: false },
  primary_naics_code: { header: 'NAICS', kind: TEXT, visible: true },
  primary_naics_desc: { header: 'NAICS description', kind: TEXT, visible: false },
  registration_status: { header: 'Registration status', kind: TEXT, visible: true },
  state_handler_id: { header: 'State ID', kind: TEXT, visible: false },
  total_waste: {
    header: 'Total waste (tons)',
    kind: REPORTED_TONS,
    visible: true,
    about: 'Tons generated in the report year, from the Biennial Report; blank where the generator has none',
  },
});

/** The scalar fields of a manifest row (spec 2.5); its waste lines have a catalogue of their own. */
export type ManifestColumnField = Exclude<ManifestField, 'waste_lines'>;

/** In the order a reader scans a manifest: who shipped, who carried, where to, when, how much. */
export const MANIFEST_COLUMNS = catalogue<ManifestColumnField>({
  manifest_tracking_number: { header: 'Tracking number', kind: TEXT, visible: true },
  generator_name: { header: 'Generator', kind: TEXT, visible: true },
  generator_epa_id: { header: 'Generator EPA ID', kind: TEXT, visible: true },
  generator_location_state: { header: 'State', kind: TEXT, visible: false },
  transporter: { header: 'Transporter', kind: TEXT, visible: true },
  designated_facility_name: { header: 'Designated facility', kind: TEXT, visible: true },
  shipped_date: { header: 'Shipped', kind: DATE, visible: true },
  received_date: { header: 'Received', kind: DATE, visible: true },
  total_waste_quantity_tons: { header: 'Waste (tons)', kind: TONS, visible: true },
  container_count: { header: 'Containers', kind: COUNT, visible: true },
  waste_stream_count: { header: 'Waste lines', kind: COUNT, visible: false },
});

export type WasteLineField = (typeof WASTE_LINE_FIELDS)[number];

/** spec 2.6 */
export const WASTE_LINE_COLUMNS = catalogue<WasteLineField>({
  manifest_tracking_number: { header: 'Tracking number', kind: TEXT, visible: false },
  waste_line_number: { header: 'Line', kind: COUNT, visible: true },
  usdot_haz_indicator: { header: 'Hazardous (DOT)', kind: FLAG, visible: true },
  usdot_id_number: { header: 'DOT ID', kind: TEXT, visible: true },
  usdot_desc: { header: 'DOT description', kind: TEXT, visible: true },
  container_count: { header: 'Containers', kind: COUNT, visible: true },
  container_type_code: { header: 'Container type', kind: TEXT, visible: true },
  epa_waste_indicator: { header: 'EPA waste', kind: FLAG, visible: true },
  waste_quantity_tons: { header: 'Quantity (tons)', kind: TONS, visible: true },
  transporter: { header: 'Transporter', kind: TEXT, visible: true },
  federal_waste_codes: { header: 'Federal waste codes', kind: CODES, visible: true },
  mmc_and_desc: { header: 'Management method', kind: TEXT, visible: true },
});

/** The fields a grid shows until the user chooses, in catalogue order. */
export function defaultFields<Field extends string>(columns: readonly Column<Field>[]): Field[] {
  return columns.filter((column) => column.visible).map((column) => column.field);
}

/** A flag's answer: "Y", "YES" or "TRUE" is Yes, "N", "NO" or "FALSE" is No, in any case; else undefined. */
export function flagAnswer(text: string): 'Yes' | 'No' | undefined {
  const normalised = text.trim().toUpperCase();
  if (normalised === 'Y' || normalised === 'YES' || normalised === 'TRUE') return 'Yes';
  if (normalised === 'N' || normalised === 'NO' || normalised === 'FALSE') return 'No';
  return undefined;
}

/**
 * True for a 0 of a number a report gives: no report, not a measured zero. The server sends a generator
 * it holds no Biennial Report for (one imported from RCRAInfo's handler files or made from manifests,
 * docs/import.md) with 0 tons generated, and a generator that files one generated waste; the grid shows
 * the cell empty and a workbook leaves it empty, as the profile shows that generator's report-year amounts.
 */
export function isUnreported(kind: ColumnKind, value: number): boolean {
  return kind.type === 'number' && kind.reported === true && value === 0;
}

/** True for kinds written and aligned as numbers. */
export function isNumeric(kind: ColumnKind): boolean {
  return kind.type === 'number' || kind.type === 'count';
}
