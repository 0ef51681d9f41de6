import { describe, expect, it } from 'vitest';
import { canonicalRequest, requestKey } from '../../shared/query/canonical.ts';

const page = { page: 2, pageSize: 50 };

describe('requestKey', () => {
  it.each([
    [
      'members in another order',
      { pageInfo: page, filterFields: { states: ['CA'], cities: ['Fresno'] }, searchKey: '' },
      { pageInfo: page, filterFields: { cities: ['Fresno'], states: ['CA'] }, searchKey: '' },
    ],
    [
      'values in another order and repeated',
      { pageInfo: page, filterFields: { states: ['TX', 'CA', 'TX'] } },
      { pageInfo: page, filterFields: { states: ['CA', 'TX'] }, searchKey: '' },
    ],
    [
      'empty members',
      { pageInfo: page, filterFields: { states: [], names: [] }, searchKey: '' },
      { pageInfo: page, filterFields: {}, searchKey: '' },
    ],
    [
      'the default sort spelled out, in capitals',
      { pageInfo: { ...page, sort: 'generator_name ASC' } },
      { pageInfo: { ...page, sort: '' } },
    ],
    [
      'a direction left to its default',
      { pageInfo: { ...page, sort: 'location_city' } },
      { pageInfo: { ...page, sort: 'location_city asc' } },
    ],
    [
      'selectedFields in another order, repeated, with spaces',
      { pageInfo: { ...page, selectedFields: 'generator_name, epa_handler_id,generator_name,' } },
      { pageInfo: { ...page, selectedFields: 'epa_handler_id,generator_name' } },
    ],
    ['filters "all="', { pageInfo: { ...page, filters: 'all=' } }, { pageInfo: page }],
  ])('is the same for %s', (_, a, b) => {
    expect(requestKey('generators.list', a)).toBe(requestKey('generators.list', b));
  });

  it('treats every field named as no selection', () => {
    const all =
      'epa_handler_id,generator_name,physical_address,location_street_number,location_street_1,location_city,' +
      'location_state,location_zip,contact_name,contact_phone_number,contact_email,primary_naics_code,' +
      'primary_naics_desc,registration_status,state_handler_id,total_waste';
    expect(requestKey('generators.list', { pageInfo: { ...page, selectedFields: all } })).toBe(
      requestKey('generators.list', { pageInfo: page }),
    );
  });

  it.each([
    ['another page', { pageInfo: { ...page, page: 3 } }],
    ['another page size', { pageInfo: { ...page, pageSize: 100 } }],
    ['another sort', { pageInfo: { ...page, sort: 'generator_name desc' } }],
    ['another filter value', { pageInfo: page, filterFields: { states: ['ca'] } }],
    ['an empty value, which matches empty cells', { pageInfo: page, filterFields: { cities: [''] } }],
    ['a search', { pageInfo: page, searchKey: 'acme' }],
    ['a field selection', { pageInfo: { ...page, selectedFields: 'generator_name' } }],
  ])('differs for %s', (_, other) => {
    expect(requestKey('generators.list', other)).not.toBe(requestKey('generators.list', { pageInfo: page }));
  });

  it('keeps an unreadable sort as sent, so it still gets its 400', () => {
    const bad = requestKey('manifests.list', { pageInfo: { ...page, sort: 'waste_lines asc' } });
    expect(bad).not.toBe(requestKey('manifests.list', { pageInfo: page }));
    expect(bad).toContain('waste_lines asc');
  });

  it('drops empty date bounds and orders manifest members', () => {
    expect(
      canonicalRequest('manifests.aggregate', {
        filterFields: {
          shipped_date_end: '2024-12-31',
          dot_id_nos: ['UN1993', 'NA3077'],
          shipped_date_start: '',
        },
      }),
    ).toEqual({
      filterFields: { dot_id_nos: ['NA3077', 'UN1993'], shipped_date_end: '2024-12-31' },
      searchKey: '',
    });
  });

  it('names the endpoint, so equal inputs of two endpoints differ', () => {
    expect(requestKey('generators.lookup', { field: 'naics', page: 1 })).not.toBe(
      requestKey('manifests.lookup', { field: 'naics', page: 1 }),
    );
    expect(requestKey('generators.lookup', { field: 'naics', page: 1, search: '' })).toBe(
      requestKey('generators.lookup', { field: 'naics', page: 1 }),
    );
  });
});
