/**
 * A site's address as one line, the way the server serves it (full_address, mailing_address) and the app's
 * profile shows it: written once here so the two never read one site two ways.
 */

/** An address's parts as a handler record gives them. */
export interface AddressParts {
  number: string;
  street: string;
  street2: string;
  city: string;
  state: string;
  zip: string;
}

/** Parts joined by a separator, blank ones left out. */
function joined(parts: readonly string[], separator: string): string {
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join(separator);
}

/**
 * A site's street line: its street number, then its first street line, as the generators' physical address
 * and the profile's addresses show it. Handler records often carry the number in the street line as well
 * (haztrak's example handler: streetNumber "123", address1 "123 VA TEST GEN 2021 WAY"), which joined
 * would read "123 123 VA TEST GEN 2021 WAY": a line that already starts with its number keeps it once. (A
 * house numbered as its street's own leading number, 10 on "10 Mile Rd", then reads "10 Mile Rd": rarer
 * than the repeat, and its number is still served on its own, location_street_number.)
 */
export function streetLine(number: string, street: string): string {
  const digits = number.trim();
  const line = street.trim();
  if (digits === '') return line;
  if (line === '') return digits;
  const upper = line.toUpperCase();
  const start = digits.toUpperCase();
  if (upper === start || upper.startsWith(`${start} `)) return line;
  return `${digits} ${line}`;
}

/** The two sites a generator record names an address of, each in six fields `<site>_street_number` … `<site>_zip`. */
export type Site = 'location' | 'mail';

/** The six fields of a site's address, each after its site's name. */
type SitePart = 'street_number' | 'street_1' | 'street_2' | 'city' | 'state' | 'zip';

/**
 * A record holding a site's address fields, as the server's generator rows and the API's detail do (a row
 * typed only by its index signature, `[column: string]: …`, is one too).
 */
export type SiteFields<S extends Site> = Readonly<Partial<Record<`${S}_${SitePart}`, string | number>>> & {
  readonly [field: string]: unknown;
};

/** The one line of `site`'s address in `record` (postalAddress); a missing field reads as empty. */
export function siteAddress<S extends Site>(record: SiteFields<S>, site: S): string {
  const field = (part: SitePart) => String(record[`${site}_${part}`] ?? '');
  return postalAddress({
    number: field('street_number'),
    street: field('street_1'),
    street2: field('street_2'),
    city: field('city'),
    state: field('state'),
    zip: field('zip'),
  });
}

/**
 * "12 Harbor Rd, Suite 5, Houston, TX 77001": the street line, the second street line, the city, then the
 * state and ZIP, each part left out where blank ("Houston, 77001" without a state); empty when all are.
 */
export function postalAddress(parts: AddressParts): string {
  return joined(
    [
      streetLine(parts.number, parts.street),
      parts.street2,
      parts.city,
      joined([parts.state, parts.zip], ' '),
    ],
    ', ',
  );
}
