/**
 * The two wire dialects (docs/api.md, "Wire dialect"). `sample` writes what the spec's samples show:
 * aggregate totals as comma-grouped strings with a leading space (tons with two decimals),
 * location_lattitude / recieved_waste, and waste_code_data as a code → description object. `typed` writes
 * the declared types and names. Repositories produce the canonical (typed) shape; only this file reshapes.
 */
import { sampleNumberText, type Dialect } from '../../../shared/api/index.ts';
import type { CanonicalDetail } from '../repositories/detail-repository.ts';
import type { GeneratorTotalsRow } from '../repositories/generators-repository.ts';
import type { ManifestTotalsRow } from '../repositories/manifests-repository.ts';

export function generatorTotals(totals: GeneratorTotalsRow, dialect: Dialect) {
  if (dialect === 'typed') return totals;
  return {
    epa_total: sampleNumberText(totals.epa_total, 2),
    shipped_count: sampleNumberText(totals.shipped_count, 0),
    container_count: sampleNumberText(totals.container_count, 0),
    mmc_count: sampleNumberText(totals.mmc_count, 0),
  };
}

export function manifestTotals(totals: ManifestTotalsRow, dialect: Dialect) {
  if (dialect === 'typed') return totals;
  return {
    total_waste: sampleNumberText(totals.total_waste, 2),
    shipped_count: sampleNumberText(totals.shipped_count, 0),
    container_count: sampleNumberText(totals.container_count, 0),
    waste_streams: sampleNumberText(totals.waste_streams, 0),
  };
}

/** Renames keys, keeping their order. */
function renamed(record: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [names[key] ?? key, value]));
}

const SAMPLE_SPELLINGS = { location_latitude: 'location_lattitude', received_waste: 'recieved_waste' };

export function generatorDetail(detail: CanonicalDetail, dialect: Dialect) {
  if (dialect === 'typed') return detail;
  return {
    ...detail,
    generator_data: renamed(detail.generator_data, SAMPLE_SPELLINGS),
    site_activities: renamed(detail.site_activities, SAMPLE_SPELLINGS),
    waste_code_data: Object.fromEntries(
      detail.waste_code_data.map((entry) => [entry.code, entry.description]),
    ),
  };
}
