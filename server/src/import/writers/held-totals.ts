/**
 * A new manifest's transporter and totals as its waste lines and transporters will make them, worked out
 * from the rows before they are stored, so that the manifest is inserted with them (writers.ts). Into a
 * served database a manifest's rows are held until it arrives (ledger.ts), and one inserted without its
 * totals had every index on them written twice: its insert, then the derived data's update once its rows
 * were applied. Into the 1M bench database those updates were ~30 % of an append's derived-data time.
 *
 * A guess that the database decides: the derived data work the totals out from the stored rows and write
 * them only where they differ (a row refused as a conflict, a sum rounded otherwise), so a wrong guess costs
 * the update it would have saved, never a wrong total.
 */
import {
  MANIFEST_FROM_LINES,
  MANIFEST_QUANTITIES,
  type ManifestQuantity,
} from '../../../../shared/query/definition.ts';
import { reduceTotals } from '../../../../shared/query/totals.ts';
import type { ImportRecord, ManifestRecord, TransporterRecord, WasteLineRecord } from '../model/records.ts';
import { MANIFEST_SOURCE_COLUMNS, transporterName } from './manifest-totals.ts';

/** A manifest's transporter and its quantities (manifest-totals.ts). */
export type ManifestTotals = { transporter: string } & Record<ManifestQuantity, number>;

/** A line's tons as it is stored: to the millionth, 0 where the source does not say. */
export const storedTons = (line: WasteLineRecord): number =>
  line.tons === undefined ? 0 : Math.round(line.tons * 1e6) / 1e6;

/**
 * The totals of these lines and transporters as the derived data reduce them: the first line of each number
 * (a later one is refused or kept out), in line-number order; the first transporter numbered 1.
 */
export function totalsOf(
  lines: readonly WasteLineRecord[],
  transporters: readonly TransporterRecord[],
): ManifestTotals {
  const first = new Map<number, WasteLineRecord>();
  for (const line of lines) if (!first.has(line.lineNumber)) first.set(line.lineNumber, line);
  const stored = [...first.values()].sort((a, b) => a.lineNumber - b.lineNumber);
  const quantities = reduceTotals(
    MANIFEST_FROM_LINES,
    {
      waste_quantity_tons: stored.map(storedTons),
      container_count: stored.map((line) => line.containerCount),
    },
    stored.map((_, position) => position),
  );
  const transporter = transporters.find((entry) => entry.order === 1);
  return {
    transporter: transporter ? transporterName({ name: transporter.name, epa_id: transporter.epaId }) : '',
    ...quantities,
  };
}

/** The totals of a manifest with no lines or transporters (yet). */
const NO_ROWS = totalsOf([], []);

/** The totals of the lines and transporters held for each tracking number, in the order they were held. */
export function heldTotals(held: readonly ImportRecord[]): Map<string, ManifestTotals> {
  const rows = new Map<string, { lines: WasteLineRecord[]; transporters: TransporterRecord[] }>();
  const of = (tracking: string) => {
    let entry = rows.get(tracking);
    if (!entry) rows.set(tracking, (entry = { lines: [], transporters: [] }));
    return entry;
  };
  for (const entry of held) {
    if (entry.kind === 'wasteLine') of(entry.record.trackingNumber).lines.push(entry.record);
    else if (entry.kind === 'transporter') of(entry.record.trackingNumber).transporters.push(entry.record);
  }
  return new Map(
    [...rows].map(([tracking, { lines, transporters }]) => [tracking, totalsOf(lines, transporters)]),
  );
}

/**
 * What a new manifest is stored with (SQL.insertManifest): its transporter, then its quantities in
 * MANIFEST_QUANTITIES' order, from the rows held for it, else from its own (a JSON manifest's); the source's
 * own values (`source`, by MANIFEST_SOURCE_COLUMNS' column) before its lines'.
 */
export function newManifestTotals(
  held: ReadonlyMap<string, ManifestTotals>,
  record: ManifestRecord,
  source: (column: string) => unknown,
): unknown[] {
  const totals =
    held.get(record.trackingNumber) ??
    (record.lines || record.transporters ? totalsOf(record.lines ?? [], record.transporters ?? []) : NO_ROWS);
  return [
    totals.transporter,
    ...MANIFEST_QUANTITIES.map((quantity) => {
      const column = MANIFEST_SOURCE_COLUMNS[quantity];
      return (column === undefined ? undefined : source(column)) ?? totals[quantity];
    }),
  ];
}
