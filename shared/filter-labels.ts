/**
 * What each filterFields member is called on screen, and a query put into words: the filter panel's boxes,
 * the active-filter chips and an export's Query sheet all name a filter the same way.
 */
import type { GeneratorFilterFields } from './api/generators.ts';
import type { ManifestFilterFields } from './api/manifests.ts';

export const GENERATOR_FILTER_LABELS: { [Member in keyof GeneratorFilterFields]-?: string } = {
  shippedYears: 'Shipped year',
  states: 'State',
  cities: 'City',
  names: 'Generator name',
  ids: 'EPA ID',
  naics: 'NAICS',
  statuses: 'Status',
  wasteCodes: 'Waste code',
  handlingCodes: 'Handling code',
};

export const MANIFEST_FILTER_LABELS: { [Member in keyof ManifestFilterFields]-?: string } = {
  generator_names: 'Generator',
  transporter_names: 'Transporter',
  designated_facility_names: 'Designated facility',
  dot_id_nos: 'DOT ID',
  container_types: 'Container type',
  handling_codes: 'Handling code',
  shipped_date_start: 'Shipped from',
  shipped_date_end: 'Shipped to',
  received_date_start: 'Received from',
  received_date_end: 'Received to',
};

/** One line per active member, in the labels' order: "State: CA, TX"; a lone "" value reads "(empty)". */
export function describeFilters<Filters extends object>(
  filters: Filters,
  labels: { [Member in keyof Filters]-?: string },
): string[] {
  const lines: string[] = [];
  for (const member of Object.keys(labels) as (keyof Filters & string)[]) {
    const value: unknown = filters[member];
    const values = Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
    if (values.length === 0 || (typeof value === 'string' && value === '')) continue;
    lines.push(`${labels[member]}: ${values.map((text) => (text === '' ? '(empty)' : text)).join(', ')}`);
  }
  return lines;
}
