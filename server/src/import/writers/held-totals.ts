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
import type { ImportRecord, ManifestRecord, TransporterRecord, WasteLineRecord } from '../model/records.ts';

export interface ManifestTotals {
  /** Its first transporter's name, else its EPA id. */
  transporter: string;
  /** The sum of its lines' tons, rounded to 4 decimals. */
  tons: number;
  containers: number;
  lines: number;
}

const NO_TOTALS: ManifestTotals = { transporter: '', tons: 0, containers: 0, lines: 0 };

/** A line's tons as it is stored: to the millionth, 0 where the source does not say. */
export const storedTons = (line: WasteLineRecord): number =>
  line.tons === undefined ? 0 : Math.round(line.tons * 1e6) / 1e6;

/**
 * The totals of these lines and transporters as the derived data sum them: the first line of each number
 * (a later one is refused or kept out), summed in line-number order; the first transporter numbered 1.
 */
export function totalsOf(
  lines: readonly WasteLineRecord[],
  transporters: readonly TransporterRecord[],
): ManifestTotals {
  const first = new Map<number, WasteLineRecord>();
  for (const line of lines) if (!first.has(line.lineNumber)) first.set(line.lineNumber, line);
  let tons = 0;
  let containers = 0;
  for (const line of [...first.values()].sort((a, b) => a.lineNumber - b.lineNumber)) {
    tons += storedTons(line);
    containers += line.containerCount;
  }
  const transporter = transporters.find((entry) => entry.order === 1);
  return {
    transporter: transporter ? transporter.name || transporter.epaId : '',
    tons: Number(tons.toFixed(4)),
    containers,
    lines: first.size,
  };
}

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
 * What a new manifest is stored with (SQL.insertManifest): transporter, tons, containers and lines, from the
 * rows held for it, else from its own (a JSON manifest's); its source total, where it has one, before its
 * lines' tons.
 */
export function newManifestTotals(
  held: ReadonlyMap<string, ManifestTotals>,
  record: ManifestRecord,
  sourceTons: unknown,
): [transporter: string, tons: unknown, containers: number, lines: number] {
  const totals =
    held.get(record.trackingNumber) ??
    (record.lines || record.transporters
      ? totalsOf(record.lines ?? [], record.transporters ?? [])
      : NO_TOTALS);
  return [totals.transporter, sourceTons ?? totals.tons, totals.containers, totals.lines];
}
