/**
 * Waste quantities to tons, only where the source says how (docs/import.md "Units"): a mass unit by its
 * factor, a volume unit through the line's own density. The factors are the product's code lists
 * (server/data/reference/quantity_units_of_measure.csv, density_units_of_measure.csv).
 */
import { REFERENCE_DIR, readTable } from '../data/reference.ts';

export interface UnitTables {
  /** Short tons per unit of each mass unit code. */
  tonsPerUnit: Map<string, number>;
  /** US gallons per unit of each volume unit code. */
  gallonsPerUnit: Map<string, number>;
  /** Pounds per US gallon per unit of each density unit code. */
  poundsPerGallon: Map<string, number>;
}

export function loadUnits(dir: string = REFERENCE_DIR): UnitTables {
  const quantity = readTable(dir, 'quantity_units_of_measure.csv', [
    'code',
    'kind',
    'short_tons_per_unit',
    'us_gallons_per_unit',
  ] as const);
  const density = readTable(dir, 'density_units_of_measure.csv', [
    'code',
    'pounds_per_us_gallon_per_unit',
  ] as const);
  const factors = (rows: { code: string; factor: string }[]) =>
    new Map(rows.filter((row) => row.factor !== '').map((row) => [row.code, Number(row.factor)]));
  return {
    tonsPerUnit: factors(
      quantity
        .filter((row) => row.kind === 'mass')
        .map((row) => ({ code: row.code, factor: row.short_tons_per_unit })),
    ),
    gallonsPerUnit: factors(
      quantity
        .filter((row) => row.kind === 'volume')
        .map((row) => ({ code: row.code, factor: row.us_gallons_per_unit })),
    ),
    poundsPerGallon: factors(
      density.map((row) => ({ code: row.code, factor: row.pounds_per_us_gallon_per_unit })),
    ),
  };
}

const round6 = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * Tons of `quantity` in `unit`, or undefined when the unit is unknown, or a volume without a usable
 * density (a density of 0 says nothing).
 */
export function toTons(
  units: UnitTables,
  quantity: number,
  unit: string,
  density?: { value: number; unit: string },
): number | undefined {
  const code = unit.trim().toUpperCase();
  const mass = units.tonsPerUnit.get(code);
  if (mass !== undefined) return round6(quantity * mass);
  const gallons = units.gallonsPerUnit.get(code);
  if (gallons === undefined || !density || !(density.value > 0)) return undefined;
  const perGallon = units.poundsPerGallon.get(density.unit.trim());
  if (perGallon === undefined) return undefined;
  return round6((quantity * gallons * density.value * perGallon) / 2000);
}
