import { describe, expect, it } from 'vitest';
import {
  GeneratorDetail,
  GeneratorListRequest,
  GeneratorTotals,
  ManifestFilterFields,
  ManifestList,
  ManifestTotals,
  PageInfo,
  WasteCodeData,
  sampleNumberText,
  tolerantNumber,
} from '../../shared/api/index.ts';

describe('tolerantNumber', () => {
  it.each([
    [' 1,234.56', 1234.56],
    ['1234', 1234],
    [' 12,345,678', 12345678],
    ['-3.5', -3.5],
    [42, 42],
    ['0.00', 0],
  ])('reads %j as %d', (input, expected) => {
    expect(tolerantNumber.parse(input)).toBe(expected);
  });

  it.each([['12,34'], ['abc'], [''], ['1.2.3'], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [true]])(
    'rejects %j',
    (input) => {
      expect(tolerantNumber.safeParse(input).success).toBe(false);
    },
  );

  it('round-trips the sample dialect text', () => {
    expect(sampleNumberText(1234567.891, 2)).toBe(' 1,234,567.89');
    expect(tolerantNumber.parse(sampleNumberText(1234567.891, 2))).toBe(1234567.89);
  });
});

describe('totals', () => {
  it('accepts the sample strings and the declared numbers alike', () => {
    const fromSample = GeneratorTotals.parse({
      epa_total: ' 10,361,402.36',
      shipped_count: ' 1,000,000',
      container_count: ' 3,702,051',
      mmc_count: ' 98,211',
    });
    const fromTyped = GeneratorTotals.parse({
      epa_total: 10361402.36,
      shipped_count: 1000000,
      container_count: 3702051,
      mmc_count: 98211,
    });
    expect(fromSample).toEqual(fromTyped);
    expect(
      ManifestTotals.parse({
        total_waste: ' 1.00',
        shipped_count: 1,
        container_count: '2',
        waste_streams: 3,
      }),
    ).toEqual({ total_waste: 1, shipped_count: 1, container_count: 2, waste_streams: 3 });
  });

  it('rejects a missing total', () => {
    expect(GeneratorTotals.safeParse({ epa_total: 1, shipped_count: 1, container_count: 1 }).success).toBe(
      false,
    );
  });
});

const generatorData = {
  epa_handler_id: 'TXD000000001',
  generator_name: 'Gulf Chemical',
  total_generated_waste: ' 12.50',
  total_container: 3,
  total_mmc: '2',
  total_shipped: 10.25,
  managed_waste: 0,
  shipped_waste: 10.25,
};

function detail(overrides: Record<string, unknown>) {
  return {
    generator_data: { ...generatorData, received_waste: 1 },
    type_data: {},
    site_activities: {
      report_year: '2024',
      generated_waste: '12.50',
      managed_waste: 0,
      shipped_waste: 10.25,
      received_waste: 1,
    },
    waste_code_data: [],
    mmc_codes: [],
    naics_codes: [{ naics_code: '325110', naics_desc: 'Petrochemical Manufacturing', is_active: 'Y' }],
    sic_codes: [{ sic_code: '2869', sic_desc: 'Industrial Organic Chemicals' }],
    gen_map: '',
    is_network: false,
    is_tracker_enable: true,
    ...overrides,
  };
}

describe('GeneratorDetail', () => {
  it('maps the sample spellings location_lattitude and recieved_waste to the described names', () => {
    const parsed = GeneratorDetail.parse(
      detail({
        generator_data: { ...generatorData, location_lattitude: '29.7', recieved_waste: '1,000.5' },
        site_activities: {
          report_year: 2024,
          generated_waste: '12.50',
          managed_waste: 0,
          shipped_waste: 1,
          recieved_waste: ' 2.00',
        },
      }),
    );
    expect(parsed.generator_data.location_latitude).toBe('29.7');
    expect(parsed.generator_data.received_waste).toBe(1000.5);
    expect(parsed.generator_data).not.toHaveProperty('location_lattitude');
    expect(parsed.site_activities.received_waste).toBe(2);
    expect(parsed.site_activities.report_year).toBe('2024');
    expect(parsed.sic_codes[0]?.sic_code).toBe(2869);
  });

  it('keeps the described spelling when both are sent', () => {
    const parsed = GeneratorDetail.parse(
      detail({ generator_data: { ...generatorData, received_waste: 5, recieved_waste: 7 } }),
    );
    expect(parsed.generator_data.received_waste).toBe(5);
  });

  it.each([
    ['an object', { D001: 'IGNITABLE WASTE', F005: 'SPENT SOLVENTS' }],
    [
      'an array',
      [
        { code: 'D001', description: 'IGNITABLE WASTE' },
        { code: 'F005', description: 'SPENT SOLVENTS' },
      ],
    ],
    [
      'an array of waste_code items',
      [
        { waste_code: 'D001', description: 'IGNITABLE WASTE' },
        { waste_code: 'F005', description: 'SPENT SOLVENTS' },
      ],
    ],
  ])('reads waste_code_data as %s', (_, wasteCodeData) => {
    expect(GeneratorDetail.parse(detail({ waste_code_data: wasteCodeData })).waste_code_data).toEqual([
      { code: 'D001', description: 'IGNITABLE WASTE' },
      { code: 'F005', description: 'SPENT SOLVENTS' },
    ]);
  });

  it.each([
    ['waste_code_data as a string', { waste_code_data: 'D001' }],
    ['a non-boolean is_network', { is_network: 'yes' }],
    ['is_active other than Y/N', { naics_codes: [{ naics_code: '1', naics_desc: 'x', is_active: 'maybe' }] }],
    ['a missing generator_data', { generator_data: undefined }],
  ])('rejects %s', (_, overrides) => {
    expect(GeneratorDetail.safeParse(detail(overrides)).success).toBe(false);
  });

  it('rejects waste_code_data values that are not text', () => {
    expect(WasteCodeData.safeParse({ D001: 1 }).success).toBe(false);
  });
});

describe('requests', () => {
  it.each([
    ['page below 0', { page: -1, pageSize: 10 }],
    ['pageSize 0', { page: 0, pageSize: 0 }],
    ['pageSize over 500', { page: 0, pageSize: 501 }],
    ['fractional page', { page: 1.5, pageSize: 10 }],
    ['an unknown filter grammar', { page: 0, pageSize: 10, filters: 'state=TX' }],
    ['an unknown member', { page: 0, pageSize: 10, limit: 5 }],
  ])('pageInfo rejects %s', (_, pageInfo) => {
    expect(PageInfo.safeParse(pageInfo).success).toBe(false);
  });

  it('fills absent filterFields and searchKey', () => {
    expect(GeneratorListRequest.parse({ pageInfo: { page: 0, pageSize: 10, filters: 'all=' } })).toEqual({
      pageInfo: { page: 0, pageSize: 10, filters: 'all=' },
      filterFields: {},
      searchKey: '',
    });
  });

  it.each([
    ['a non-date', { shipped_date_start: '2024-13-01' }],
    ['a non-existent day', { received_date_end: '2023-02-30' }],
    ['start after end', { shipped_date_start: '2024-05-02', shipped_date_end: '2024-05-01' }],
    ['an unknown member', { states: ['TX'] }],
    ['over 1,000 values', { generator_names: Array.from({ length: 1001 }, (_, i) => `n${i}`) }],
  ])('manifest filterFields rejects %s', (_, filterFields) => {
    expect(ManifestFilterFields.safeParse(filterFields).success).toBe(false);
  });
});

describe('ManifestList', () => {
  it('reads waste line container_count sent as a string', () => {
    const list = ManifestList.parse({
      totalElements: '1',
      content: [
        {
          manifest_tracking_number: '000000001ELC',
          waste_lines: [
            {
              manifest_tracking_number: '000000001ELC',
              waste_line_number: 1,
              usdot_haz_indicator: 'Y',
              usdot_id_number: 'UN1993',
              usdot_desc: 'Flammable liquids, n.o.s.',
              container_count: '4',
              container_type_code: 'DM',
              epa_waste_indicator: 'Y',
              waste_quantity_tons: '0.75',
              transporter: 'TXR000000001',
              federal_waste_codes: 'D001,F005',
              mmc_and_desc: 'H061 - FUEL BLENDING',
            },
          ],
        },
      ],
    });
    expect(list.totalElements).toBe(1);
    expect(list.content[0]?.waste_lines?.[0]?.container_count).toBe(4);
  });
});
