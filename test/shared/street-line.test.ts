/** A site's street line: the number once, whether or not the source repeats it in the street. */
import { describe, expect, it } from 'vitest';
import { canonicalDetail } from '../../server/src/repositories/detail-repository.ts';
import { streetLine } from '../../shared/street-line.ts';

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
