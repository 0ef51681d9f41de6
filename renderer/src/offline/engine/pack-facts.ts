/**
 * The derived facts the filter members read (shared/query/definition.ts `facts`), rebuilt from what the wire
 * carries, exactly as the server derives them from its tables (server/src/db/derive.ts). Typed by the
 * definition's fact names, so a new fact cannot be filtered on offline before it is derived here.
 *
 * - A waste line's management method code: the server stores it as a column and writes only
 *   `mmc_and_desc`, which it builds as "<code> - <description>" (server/src/data/demo/streams.ts; the demo
 *   data test pins the prefix). The code is the text before the first " - "; a text without one is all code.
 * - A generator's shipped years, waste codes, handling codes and statuses: its detail carries them
 *   (generator_data.shipped_years, waste_code_data, mmc_codes, registration_status and
 *   federal_generator_status_universe), each the server's per-generator set written out.
 */
import type { GeneratorDetail, ManifestRecord, WasteLine } from '../../../../shared/api/index.ts';
import type { GeneratorFact, ManifestFact } from '../../../../shared/query/definition.ts';

const METHOD_SEPARATOR = ' - ';

/** The management method code a waste line's `mmc_and_desc` starts with. */
export function handlingCodeOf(mmcAndDesc: string): string {
  const end = mmcAndDesc.indexOf(METHOD_SEPARATOR);
  return end === -1 ? mmcAndDesc : mmcAndDesc.slice(0, end);
}

/** The value each waste line gives each manifest fact. */
export const LINE_FACTS: Record<ManifestFact, (line: WasteLine) => string> = {
  dotIds: (line) => line.usdot_id_number,
  containerTypes: (line) => line.container_type_code,
  handlingCodes: (line) => handlingCodeOf(line.mmc_and_desc),
};

/**
 * The values a manifest's waste lines give one fact, as the server's sets hold them (no ""); a value on
 * several lines comes once per line, and the engine's index lists the manifest once.
 */
export function lineValues(manifest: ManifestRecord, fact: ManifestFact): string[] {
  const values: string[] = [];
  for (const line of manifest.waste_lines ?? []) {
    const value = LINE_FACTS[fact](line);
    if (value !== '') values.push(value);
  }
  return values;
}

export type GeneratorFacts = Record<GeneratorFact, ReadonlySet<string>>;

const nonEmpty = (values: Iterable<string>) => new Set([...values].filter((value) => value !== ''));

/** A generator's facts from its detail. */
export function generatorFactsOf(detail: GeneratorDetail): GeneratorFacts {
  const data = detail.generator_data;
  return {
    // derive.ts joins the distinct years with "," in order; splitting gives the set back.
    shippedYears: nonEmpty(data.shipped_years.split(',').map((year) => year.trim())),
    wasteCodes: nonEmpty(detail.waste_code_data.map((entry) => entry.code)),
    handlingCodes: nonEmpty(detail.mmc_codes.map((code) => code.management_method)),
    statuses: nonEmpty([data.registration_status, data.federal_generator_status_universe]),
  };
}
