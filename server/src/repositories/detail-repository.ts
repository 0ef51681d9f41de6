/**
 * The generator profile (spec 2.3, 4.4) in canonical form: described names, numbers as numbers and
 * waste_code_data as an array. The wire dialect (server/src/http/dialect.ts) reshapes it for the sample.
 */
import type { Database } from 'better-sqlite3';
import { GENERATOR_FROM_MANIFESTS } from '../../../shared/query/definition.ts';
import { totalsSelect } from '../db/sqlite-query.ts';
import { StatementCache } from '../db/statements.ts';
import { siteAddress } from '../../../shared/address.ts';

export interface GeneratorRow {
  id: number;
  [column: string]: string | number;
}

export interface CanonicalDetail {
  generator_data: Record<string, string | number>;
  type_data: Record<string, string>;
  site_activities: {
    report_year: string;
    generated_waste: string;
    managed_waste: number;
    shipped_waste: number;
    received_waste: number;
  };
  waste_code_data: { code: string; description: string }[];
  mmc_codes: { management_method: string; management_method_description: string }[];
  naics_codes: { naics_code: string; naics_desc: string; is_active: string }[];
  sic_codes: { sic_code: number; sic_desc: string }[];
  gen_map: string;
  is_network: boolean;
  is_tracker_enable: boolean;
}

const text = (row: GeneratorRow, column: string): string => String(row[column] ?? '');

/** An embedded map of the location; empty when the coordinates are not numbers. */
function mapHtml(latitude: string, longitude: string): string {
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (latitude === '' || longitude === '' || !Number.isFinite(lat) || !Number.isFinite(lon)) return '';
  const box = [lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01].map((value) => value.toFixed(5)).join('%2C');
  return (
    `<iframe width="425" height="350" src="https://www.openstreetmap.org/export/embed.html?bbox=${box}` +
    `&amp;layer=mapnik&amp;marker=${lat.toFixed(5)}%2C${lon.toFixed(5)}"></iframe>`
  );
}

/** The profile's lists, each of one generator (its id bound once as `?`), in the order the profile shows. */
export const DETAIL_SQL = {
  wasteCodes: `SELECT c.code, coalesce(w.description, '') AS description
    FROM generator_waste_codes c LEFT JOIN waste_codes w ON w.code = c.code
    WHERE c.generator_id = ? ORDER BY c.code`,
  methods: `SELECT c.code AS management_method, coalesce(m.description, '') AS management_method_description
    FROM generator_handling_codes c LEFT JOIN management_methods m ON m.code = c.code
    WHERE c.generator_id = ? ORDER BY c.code`,
  naics: `SELECT naics_code, naics_desc, is_active FROM generator_naics
    WHERE generator_id = ? ORDER BY is_active DESC, naics_code`,
  sic: 'SELECT sic_code, sic_desc FROM generator_sic WHERE generator_id = ? ORDER BY sic_code',
};

/** What a profile is built from: the generator's row and what its sets and manifests hold. */
export interface DetailParts {
  row: GeneratorRow;
  /** Tons shipped in its report year, rounded to 4 places. */
  shippedInReportYear: number;
  wasteCodes: CanonicalDetail['waste_code_data'];
  methods: CanonicalDetail['mmc_codes'];
  naics: CanonicalDetail['naics_codes'];
  sic: CanonicalDetail['sic_codes'];
}

/** The report year's first and last day, which bound the tons shipped in it. */
export function reportYearRange(row: GeneratorRow): [string, string] {
  const year = text(row, 'report_year');
  return [`${year}-01-01`, `${year}-12-31`];
}

/** The profile from its parts: every backend reads the parts and shapes them here. */
export function canonicalDetail(parts: DetailParts): CanonicalDetail {
  const { row, shippedInReportYear } = parts;
  const reportYear = text(row, 'report_year');
  const full_address = siteAddress(row, 'location');
  const mailing_address = siteAddress(row, 'mail');
  const textColumns = [
    'epa_handler_id',
    'generator_name',
    'mail_street_number',
    'mail_street_1',
    'mail_street_2',
    'mail_city',
    'mail_zip',
    'mail_state',
    'physical_address',
    'location_street_number',
    'location_street_1',
    'location_street_2',
    'location_city',
    'location_zip',
    'location_state',
    'contact_name',
    'contact_email',
    'contact_phone_number',
    'primary_naics_code',
    'primary_naics_desc',
  ];
  const generator_data: Record<string, string | number> = {};
  for (const column of textColumns) generator_data[column] = text(row, column);
  Object.assign(generator_data, {
    total_generated_waste: Number(row.total_waste),
    total_container: Number(row.container_count),
    total_mmc: Number(row.mmc_count),
    total_shipped: Number(row.shipped_tons),
    shipped_years: text(row, 'shipped_years'),
    federal_generator_status_universe: text(row, 'federal_generator_status_universe'),
    federal_generator_status_universe_code: text(row, 'federal_generator_status_universe_code'),
    land_type: text(row, 'land_type'),
    short_term_generator_activity: text(row, 'short_term_generator_activity'),
    mixed_waste_generator: text(row, 'mixed_waste_generator'),
    transporter_activity: text(row, 'transporter_activity'),
    transfer_facility_activity: text(row, 'transfer_facility_activity'),
    importer_activity: text(row, 'importer_activity'),
    federal_waste_codes: text(row, 'federal_waste_codes'),
    management_method_code: text(row, 'management_method_code'),
    full_address,
    mailing_address,
    location_latitude: text(row, 'location_latitude'),
    location_longitude: text(row, 'location_longitude'),
    public_notes: text(row, 'public_notes'),
    managed_waste: Number(row.managed_waste),
    shipped_waste: shippedInReportYear,
    received_waste: Number(row.received_waste),
    registration_status: text(row, 'registration_status'),
    is_industry: text(row, 'is_industry'),
    state_handler_id: text(row, 'state_handler_id'),
  });
  return {
    generator_data,
    type_data: {
      short_term_generator_activity: text(row, 'short_term_generator_activity'),
      mixed_waste_generator: text(row, 'mixed_waste_generator'),
      transporter_activity: text(row, 'transporter_activity'),
      transporter_facility_activity: text(row, 'transfer_facility_activity'),
      importer_activity: text(row, 'importer_activity'),
    },
    site_activities: {
      report_year: reportYear,
      generated_waste: Number(row.total_waste).toFixed(2),
      managed_waste: Number(row.managed_waste),
      shipped_waste: shippedInReportYear,
      received_waste: Number(row.received_waste),
    },
    waste_code_data: parts.wasteCodes,
    mmc_codes: parts.methods,
    naics_codes: parts.naics,
    sic_codes: parts.sic,
    gen_map: mapHtml(text(row, 'location_latitude'), text(row, 'location_longitude')),
    is_network: row.is_network === 1,
    is_tracker_enable: row.is_tracker_enable === 1,
  };
}

export class DetailRepository {
  private readonly statements: StatementCache;

  constructor(db: Database) {
    this.statements = new StatementCache(db);
  }

  find(handlerId: string): CanonicalDetail | undefined {
    const row = this.statements.get('SELECT * FROM generators WHERE epa_handler_id = ?').get(handlerId) as
      GeneratorRow | undefined;
    if (!row) return undefined;
    return canonicalDetail({
      row,
      shippedInReportYear: this.statements
        .get(
          `SELECT ${totalsSelect({ shippedTons: GENERATOR_FROM_MANIFESTS.shippedTons }, (quantity) => quantity)}
           FROM manifests WHERE generator_id = ? AND shipped_date BETWEEN ? AND ?`,
        )
        .pluck()
        .get(row.id, ...reportYearRange(row)) as number,
      wasteCodes: this.statements
        .get(DETAIL_SQL.wasteCodes)
        .all(row.id) as CanonicalDetail['waste_code_data'],
      methods: this.statements.get(DETAIL_SQL.methods).all(row.id) as CanonicalDetail['mmc_codes'],
      naics: this.statements.get(DETAIL_SQL.naics).all(row.id) as CanonicalDetail['naics_codes'],
      sic: this.statements.get(DETAIL_SQL.sic).all(row.id) as CanonicalDetail['sic_codes'],
    });
  }
}
