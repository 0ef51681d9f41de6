/** A site's address: the street number once, whether or not the source repeats it, and blank parts left out. */
import { describe, expect, it } from 'vitest';
import { canonicalDetail } from '../../server/src/repositories/detail-repository.ts';
import { postalAddress, streetLine, type AddressParts } from '../../shared/address.ts';

describe('streetLine', () => {
  it.each([
    ['400', 'Refinery Way', '400 Refinery Way'],
    ['123', '123 VA TEST GEN 2021 WAY', '123 VA TEST GEN 2021 WAY'],
    ['12a', '12A Harbor Rd', '12A Harbor Rd'],
    ['12', '12', '12'],
    ['1', '12 Harbor Rd', '1 12 Harbor Rd'],
    ['12', '1200 Harbor Rd', '12 1200 Harbor Rd'],
    ['', 'PO Box 77', 'PO Box 77'],
    ['400', '', '400'],
    [' 400 ', ' Refinery Way ', '400 Refinery Way'],
    ['', '', ''],
  ])('number %j and street %j read %j', (number, street, expected) => {
    expect(streetLine(number, street)).toBe(expected);
  });
});

describe('postalAddress', () => {
  const HARBOR: AddressParts = {
    number: '12',
    street: 'Harbor Rd',
    street2: 'Suite 5',
    city: 'Houston',
    state: 'TX',
    zip: '77001',
  };
  it.each<[string, Partial<AddressParts>, string]>([
    ['every part', {}, '12 Harbor Rd, Suite 5, Houston, TX 77001'],
    ['no second street line', { street2: '' }, '12 Harbor Rd, Houston, TX 77001'],
    ['no state', { state: '' }, '12 Harbor Rd, Suite 5, Houston, 77001'],
    ['no ZIP', { zip: '' }, '12 Harbor Rd, Suite 5, Houston, TX'],
    ['no city', { city: '' }, '12 Harbor Rd, Suite 5, TX 77001'],
    ['no state and no ZIP', { state: '', zip: '' }, '12 Harbor Rd, Suite 5, Houston'],
    [
      'a street line repeating the number',
      { street: '12 Harbor Rd' },
      '12 Harbor Rd, Suite 5, Houston, TX 77001',
    ],
    ['blank parts', { street2: '  ', state: ' ', city: ' Houston ' }, '12 Harbor Rd, Houston, 77001'],
    ['no street', { number: '', street: '', street2: '' }, 'Houston, TX 77001'],
    ['nothing', { number: '', street: '', street2: '', city: '', state: '', zip: '' }, ''],
  ])('%s: %j reads %j', (_, change, expected) => {
    expect(postalAddress({ ...HARBOR, ...change })).toBe(expected);
  });
});

describe("the server's profile addresses", () => {
  it('read a street number the street line repeats once, in the location and the mailing address', () => {
    const row = {
      id: 1,
      location_street_number: '123',
      location_street_1: '123 VA TEST GEN 2021 WAY',
      location_city: 'ARLINGTON',
      location_state: 'VA',
      location_zip: '22202',
      mail_street_number: '9',
      mail_street_1: 'PO Box 4',
      mail_city: 'ARLINGTON',
      mail_state: 'VA',
      mail_zip: '22202',
    };
    const { generator_data } = canonicalDetail({
      row,
      shippedInReportYear: 0,
      wasteCodes: [],
      methods: [],
      naics: [],
      sic: [],
    });
    expect(generator_data.full_address).toBe('123 VA TEST GEN 2021 WAY, ARLINGTON, VA 22202');
    expect(generator_data.mailing_address).toBe('9 PO Box 4, ARLINGTON, VA 22202');
  });
});
