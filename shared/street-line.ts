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
