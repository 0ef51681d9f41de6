/**
 * Every field of the generator detail (spec 2.3) appears in the profile under its label, in its format:
 * tons with two decimals, counts grouped, flags as Yes/No, lists spaced. The table below is written from
 * the spec, not from the profile's code, so a field that is dropped, mislabelled or misformatted fails.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GeneratorDetail } from '../../shared/api/index.ts';
import { GeneratorProfile } from '../../renderer/src/profile/generator-profile.tsx';

type Wire = Record<string, unknown>;

/** A full detail as the sample dialect sends it; each case may override parts of it. */
function wire(): { generator_data: Wire; type_data: Wire; site_activities: Wire } & Wire {
  return {
    generator_data: {
      epa_handler_id: 'TXD000000001',
      generator_name: 'Gulf Coast Chemical Works',
      mail_street_number: '12',
      mail_street_1: 'Harbor Rd',
      mail_street_2: 'Suite 5',
      mail_city: 'Houston',
      mail_zip: '77001',
      mail_state: 'TX',
      physical_address: '400 Refinery Way',
      location_street_number: '400',
      location_street_1: 'Refinery Way',
      location_street_2: 'Gate 3',
      location_city: 'Pasadena',
      location_zip: '77506',
      location_state: 'TX',
      contact_name: 'Ada Ruiz',
      contact_email: 'ada@example.com',
      contact_phone_number: '713-555-0100',
      primary_naics_code: '325199',
      primary_naics_desc: 'All Other Basic Organic Chemical Manufacturing',
      total_generated_waste: ' 1,234.5',
      total_container: '2,001',
      total_mmc: '3',
      total_shipped: '57',
      shipped_years: '2023,2024',
      federal_generator_status_universe: 'Large Quantity Generator',
      federal_generator_status_universe_code: 'LQG',
      land_type: 'Private',
      short_term_generator_activity: 'N',
      mixed_waste_generator: 'N',
      transporter_activity: 'Y',
      transfer_facility_activity: 'N',
      importer_activity: 'Y',
      federal_waste_codes: 'D001,F003',
      management_method_code: 'H061',
      full_address: '400 Refinery Way, Gate 3, Pasadena, TX 77506',
      mailing_address: '12 Harbor Rd, Suite 5, Houston, TX 77001',
      location_lattitude: '29.6912347',
      location_longitude: '-95.2',
      public_notes: 'Inspected 2024; no findings.',
      managed_waste: '10',
      shipped_waste: '1,200.25',
      recieved_waste: '0.5',
      registration_status: 'Active',
      is_industry: 'Yes',
      state_handler_id: 'TX-44172',
    },
    type_data: {
      short_term_generator_activity: '',
      mixed_waste_generator: '',
      transporter_activity: '',
      transporter_facility_activity: 'Y',
      importer_activity: '',
    },
    site_activities: {
      report_year: '2024',
      generated_waste: '1,234.50',
      managed_waste: '10',
      shipped_waste: '1,200.25',
      recieved_waste: '0.5',
    },
    waste_code_data: { D001: 'Ignitable waste' },
    mmc_codes: [{ management_method: 'H061', management_method_description: 'Fuel blending' }],
    naics_codes: [{ naics_code: '325199', naics_desc: 'Basic organic chemicals', is_active: 'N' }],
    sic_codes: [{ sic_code: '2869', sic_desc: 'Industrial organic chemicals' }],
    gen_map: '<iframe src="https://maps.example.gov/?q=29.69,-95.2"></iframe>',
    is_network: true,
    is_tracker_enable: false,
  };
}

type Where =
  { fact: string } | { cell: { table: string; column: string } } | { heading: true } | { button: string };

interface Case {
  field: string;
  where: Where;
  expected: string;
  /** Changes to the wire detail that make this field the one shown (a fallback, a second spelling). */
  change?: (detail: ReturnType<typeof wire>) => void;
}

const LOCATION = '400 Refinery Way, Gate 3, Pasadena, TX 77506';
const MAILING = '12 Harbor Rd, Suite 5, Houston, TX 77001';
const clearParts = (record: Wire, prefix: string) => {
  for (const part of ['street_number', 'street_1', 'street_2', 'city', 'zip', 'state'])
    record[`${prefix}_${part}`] = '';
};

const CASES: Case[] = [
  { field: 'epa_handler_id', where: { fact: 'EPA handler ID' }, expected: 'TXD000000001' },
  { field: 'generator_name', where: { heading: true }, expected: 'Gulf Coast Chemical Works TXD000000001' },
  ...['mail_street_number', 'mail_street_1', 'mail_street_2', 'mail_city', 'mail_zip', 'mail_state'].map(
    (field): Case => ({ field, where: { fact: 'Mailing address' }, expected: MAILING }),
  ),
  { field: 'physical_address', where: { fact: 'Physical address' }, expected: '400 Refinery Way' },
  ...[
    'location_street_number',
    'location_street_1',
    'location_street_2',
    'location_city',
    'location_zip',
    'location_state',
  ].map((field): Case => ({ field, where: { fact: 'Location address' }, expected: LOCATION })),
  { field: 'contact_name', where: { fact: 'Name' }, expected: 'Ada Ruiz' },
  { field: 'contact_email', where: { fact: 'Email' }, expected: 'ada@example.com' },
  { field: 'contact_phone_number', where: { fact: 'Phone' }, expected: '713-555-0100' },
  {
    field: 'primary_naics_code / primary_naics_desc',
    where: { fact: 'Primary NAICS' },
    expected: '325199 – All Other Basic Organic Chemical Manufacturing',
  },
  { field: 'total_generated_waste', where: { fact: 'Generated waste (tons)' }, expected: '1,234.50' },
  { field: 'total_container', where: { fact: 'Containers' }, expected: '2,001' },
  { field: 'total_mmc', where: { fact: 'Management methods used' }, expected: '3' },
  { field: 'total_shipped', where: { fact: 'Shipped off-site (tons)' }, expected: '57.00' },
  { field: 'shipped_years', where: { fact: 'Shipped years' }, expected: '2023, 2024' },
  {
    field: 'federal_generator_status_universe / federal_generator_status_universe_code',
    where: { fact: 'Federal generator status' },
    expected: 'Large Quantity Generator (LQG)',
  },
  { field: 'land_type', where: { fact: 'Land type' }, expected: 'Private' },
  { field: 'short_term_generator_activity', where: { fact: 'Short-term generator' }, expected: 'No' },
  { field: 'mixed_waste_generator', where: { fact: 'Mixed waste generator' }, expected: 'No' },
  { field: 'transporter_activity', where: { fact: 'Transporter' }, expected: 'Yes' },
  { field: 'transfer_facility_activity', where: { fact: 'Transfer facility' }, expected: 'No' },
  { field: 'importer_activity', where: { fact: 'Importer' }, expected: 'Yes' },
  { field: 'federal_waste_codes', where: { fact: 'Federal waste codes' }, expected: 'D001, F003' },
  {
    field: 'management_method_code',
    where: { fact: 'Primary management method' },
    expected: 'H061 – Fuel blending',
  },
  {
    field: 'full_address',
    where: { fact: 'Location address' },
    expected: '400 Refinery Way, Gate 3, Pasadena, TX 77506',
    change: (detail) => clearParts(detail.generator_data, 'location'),
  },
  {
    field: 'mailing_address',
    where: { fact: 'Mailing address' },
    expected: '12 Harbor Rd, Suite 5, Houston, TX 77001',
    change: (detail) => clearParts(detail.generator_data, 'mail'),
  },
  // An address without a state reads as the server serves it (shared/address.ts): the ZIP after a comma.
  {
    field: 'location_state (empty)',
    where: { fact: 'Location address' },
    expected: '400 Refinery Way, Gate 3, Pasadena, 77506',
    change: (detail) => {
      detail.generator_data.location_state = '';
    },
  },
  // Handler records often repeat the street number in the street line: the address reads it once.
  {
    field: 'location_street_1 (starting with location_street_number)',
    where: { fact: 'Location address' },
    expected: LOCATION,
    change: (detail) => {
      detail.generator_data.location_street_1 = '400 Refinery Way';
    },
  },
  {
    field: 'mail_street_1 (starting with mail_street_number)',
    where: { fact: 'Mailing address' },
    expected: MAILING,
    change: (detail) => {
      detail.generator_data.mail_street_1 = '12 Harbor Rd';
    },
  },
  {
    field: 'location_latitude (sent as location_lattitude)',
    where: { fact: 'Latitude' },
    // As sent: not rounded, not padded.
    expected: '29.6912347',
  },
  {
    field: 'location_latitude',
    where: { fact: 'Latitude' },
    expected: 'Not Available',
    change: (detail) => {
      delete detail.generator_data.location_lattitude;
      detail.generator_data.location_latitude = 'Not Available';
    },
  },
  { field: 'location_longitude', where: { fact: 'Longitude' }, expected: '-95.2' },
  { field: 'public_notes', where: { fact: 'Public notes' }, expected: 'Inspected 2024; no findings.' },
  { field: 'managed_waste', where: { fact: 'Annual managed waste (tons)' }, expected: '10.00' },
  { field: 'shipped_waste', where: { fact: 'Annual shipped waste (tons)' }, expected: '1,200.25' },
  {
    field: 'received_waste (sent as recieved_waste)',
    where: { fact: 'Annual received waste (tons)' },
    expected: '0.50',
  },
  { field: 'registration_status', where: { fact: 'Registration status' }, expected: 'Active' },
  { field: 'is_industry', where: { fact: 'Industrial facility' }, expected: 'Yes' },
  { field: 'state_handler_id', where: { fact: 'State handler ID' }, expected: 'TX-44172' },
  {
    field: 'type_data.short_term_generator_activity',
    where: { fact: 'Short-term generator' },
    expected: 'Yes',
    change: (detail) => {
      detail.generator_data.short_term_generator_activity = '';
      detail.type_data.short_term_generator_activity = 'Y';
    },
  },
  {
    field: 'type_data.mixed_waste_generator',
    where: { fact: 'Mixed waste generator' },
    expected: 'Yes',
    change: (detail) => {
      detail.generator_data.mixed_waste_generator = '';
      detail.type_data.mixed_waste_generator = 'Y';
    },
  },
  {
    field: 'type_data.transporter_activity',
    where: { fact: 'Transporter' },
    expected: 'No',
    change: (detail) => {
      detail.generator_data.transporter_activity = '';
      detail.type_data.transporter_activity = 'N';
    },
  },
  {
    field: 'type_data.transporter_facility_activity',
    where: { fact: 'Transfer facility' },
    expected: 'Yes',
    change: (detail) => {
      detail.generator_data.transfer_facility_activity = '';
    },
  },
  {
    field: 'type_data.importer_activity',
    where: { fact: 'Importer' },
    expected: 'No',
    change: (detail) => {
      detail.generator_data.importer_activity = '';
      detail.type_data.importer_activity = 'N';
    },
  },
  {
    field: 'site_activities.report_year',
    where: { fact: 'Report year' },
    expected: '2024',
  },
  {
    field: 'site_activities.generated_waste',
    where: { fact: 'Generated (tons)' },
    expected: '1,234.50',
  },
  {
    field: 'site_activities.managed_waste',
    where: { fact: 'Managed (tons)' },
    expected: '10.00',
  },
  {
    field: 'site_activities.shipped_waste',
    where: { fact: 'Shipped (tons)' },
    expected: '1,200.25',
  },
  {
    field: 'site_activities.received_waste',
    where: { fact: 'Received (tons)' },
    expected: '0.50',
  },
  {
    field: 'waste_code_data (code)',
    where: { cell: { table: 'Waste codes', column: 'Code' } },
    expected: 'D001',
  },
  {
    field: 'waste_code_data (description)',
    where: { cell: { table: 'Waste codes', column: 'Description' } },
    expected: 'Ignitable waste',
  },
  {
    field: 'mmc_codes.management_method',
    where: { cell: { table: 'Management methods', column: 'Code' } },
    expected: 'H061',
  },
  {
    field: 'mmc_codes.management_method_description',
    where: { cell: { table: 'Management methods', column: 'Description' } },
    expected: 'Fuel blending',
  },
  {
    field: 'naics_codes.naics_code',
    where: { cell: { table: 'NAICS codes', column: 'Code' } },
    expected: '325199',
  },
  {
    field: 'naics_codes.naics_desc',
    where: { cell: { table: 'NAICS codes', column: 'Description' } },
    expected: 'Basic organic chemicals',
  },
  {
    field: 'naics_codes.is_active',
    where: { cell: { table: 'NAICS codes', column: 'Active' } },
    expected: 'No',
  },
  { field: 'sic_codes.sic_code', where: { cell: { table: 'SIC codes', column: 'Code' } }, expected: '2869' },
  {
    field: 'sic_codes.sic_desc',
    where: { cell: { table: 'SIC codes', column: 'Description' } },
    expected: 'Industrial organic chemicals',
  },
  // A report year's amount of 0 with no report year is no report (a generator imported from the handler
  // files alone): shown empty, not as a measured zero. Any other amount shows as sent.
  ...(
    [
      ['total_generated_waste', 'Generated waste (tons)'],
      ['shipped_waste', 'Annual shipped waste (tons)'],
      ['managed_waste', 'Annual managed waste (tons)'],
      ['recieved_waste', 'Annual received waste (tons)'],
    ] as const
  ).flatMap(([member, label]): Case[] => [
    {
      field: `${member} (0 with no report year)`,
      where: { fact: label },
      expected: '—',
      change: (detail) => {
        detail.site_activities.report_year = '';
        detail.generator_data[member] = 0;
      },
    },
    {
      field: `${member} (sent with no report year)`,
      where: { fact: label },
      expected: '3.25',
      change: (detail) => {
        detail.site_activities.report_year = '';
        detail.generator_data[member] = 3.25;
      },
    },
  ]),
  ...(
    [
      ['generated_waste', 'Generated (tons)'],
      ['managed_waste', 'Managed (tons)'],
      ['shipped_waste', 'Shipped (tons)'],
      ['recieved_waste', 'Received (tons)'],
    ] as const
  ).flatMap(([member, label]): Case[] => [
    {
      field: `site_activities.${member} (0 with no report year)`,
      where: { fact: label },
      expected: '—',
      change: (detail) => {
        detail.site_activities.report_year = '';
        detail.site_activities[member] = '0.00';
      },
    },
    {
      field: `site_activities.${member} (0 in a report year)`,
      where: { fact: label },
      expected: '0.00',
      change: (detail) => {
        detail.site_activities[member] = 0;
      },
    },
  ]),
  { field: 'gen_map', where: { button: 'Open map in browser' }, expected: '(maps.example.gov)' },
  { field: 'is_network', where: { fact: 'Part of a network' }, expected: 'Yes' },
  { field: 'is_tracker_enable', where: { fact: 'Tracker enabled' }, expected: 'No' },
];

async function shown(where: Where): Promise<string> {
  await screen.findByRole('heading', { level: 2, name: /Gulf Coast/ });
  if ('heading' in where) return screen.getByRole('heading', { level: 2 }).textContent ?? '';
  if ('button' in where) {
    const button = screen.getByRole('button', { name: where.button });
    return button.parentElement?.querySelector('.profile-host')?.textContent ?? '';
  }
  if ('fact' in where) {
    const terms = screen.getAllByText(where.fact, { selector: 'dt' });
    expect(terms, `one "${where.fact}" label`).toHaveLength(1);
    return terms[0]!.nextElementSibling?.textContent ?? '';
  }
  const table = screen.getByRole('table', { name: where.cell.table });
  const headers = within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent);
  const column = headers.indexOf(where.cell.column);
  expect(column, `column "${where.cell.column}"`).toBeGreaterThanOrEqual(0);
  const firstRow = within(table).getAllByRole('row')[1]!;
  return firstRow.children[column]?.textContent ?? '';
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the generator profile shows every field of the detail (spec 2.3)', () => {
  it.each(CASES)('$field', async ({ where, expected, change }) => {
    const detail = wire();
    change?.(detail);
    const parsed = GeneratorDetail.parse(detail);
    vi.stubGlobal('tracker', {
      generators: { detail: vi.fn(() => Promise.resolve({ ok: true as const, data: parsed })) },
    });
    render(<GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />);
    expect(await shown(where)).toBe(expected);
  });

  it('has a case for every member of the fixture, which holds every field spec 2.3 names', () => {
    const covered = new Set(CASES.flatMap((entry) => entry.field.split(' (')[0]!.split(' / ')));
    const described = (name: string) =>
      name.replace('location_lattitude', 'location_latitude').replace('recieved_waste', 'received_waste');
    const { generator_data, type_data, site_activities, ...top } = wire();
    const members = [
      ...Object.keys(generator_data).map(described),
      ...Object.keys(type_data).map((name) => `type_data.${name}`),
      ...Object.keys(site_activities).map((name) => `site_activities.${described(name)}`),
      ...Object.keys(top),
    ];
    const tables = ['waste_code_data', 'mmc_codes', 'naics_codes', 'sic_codes'];
    const missing = members.filter(
      (member) =>
        !covered.has(member) && !(tables.includes(member) && [...covered].some((c) => c.startsWith(member))),
    );
    expect(missing).toEqual([]);
  });
});
