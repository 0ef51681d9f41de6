/**
 * Each manifest's waste lines stored as the JSON the wire sends (spec 2.6), written once by finalize. The
 * manifests page the app asks for carries every row's lines: building 125 line objects and serialising them
 * per request was half of that request's cost, so the stored text is spliced into the answer instead
 * (ManifestsRepository.pageBytes; docs/benchmarks/server.md).
 */
import type { Database } from 'better-sqlite3';
import { WASTE_LINE_FIELDS } from '../../../shared/api/index.ts';

/** Waste line fields as stored; the tracking number comes from the manifest. */
export const WASTE_LINE_COLUMNS = WASTE_LINE_FIELDS.filter((field) => field !== 'manifest_tracking_number');

/** One waste line as the wire has it, from its row's WASTE_LINE_COLUMNS values in that order. */
export function wasteLine(trackingNumber: unknown, values: readonly unknown[]): Record<string, unknown> {
  const line: Record<string, unknown> = { manifest_tracking_number: trackingNumber };
  for (const [index, column] of WASTE_LINE_COLUMNS.entries()) {
    const value = values[index];
    // spec 2.6 declares a waste line's container_count a string (unlike the manifest's number).
    line[column] = column === 'container_count' ? String(value) : value;
  }
  return line;
}

/** Manifests read per batch: bounds the memory a build holds at once. */
const BATCH = 20_000;

export function createWasteLinesJson(db: Database): void {
  const read = db
    .prepare(
      `SELECT w.manifest_id, m.manifest_tracking_number, ${WASTE_LINE_COLUMNS.map((column) => `w.${column}`).join(', ')}
       FROM waste_lines w JOIN manifests m ON m.id = w.manifest_id
       WHERE w.manifest_id BETWEEN ? AND ?
       ORDER BY w.manifest_id, w.waste_line_number`,
    )
    .raw();
  const insert = db.prepare('INSERT INTO manifest_waste_lines_json (manifest_id, json) VALUES (?, ?)');
  const last = (db.prepare('SELECT coalesce(max(id), 0) FROM manifests').pluck().get() as number) ?? 0;
  db.transaction(() => {
    db.exec('DELETE FROM manifest_waste_lines_json');
    for (let start = 1; start <= last; start += BATCH) {
      const byManifest = new Map<number, Record<string, unknown>[]>();
      for (const [id, number, ...values] of read.all(start, start + BATCH - 1) as unknown[][]) {
        const line = wasteLine(number, values);
        const lines = byManifest.get(id as number);
        if (lines) lines.push(line);
        else byManifest.set(id as number, [line]);
      }
      for (const [id, lines] of byManifest) insert.run(id, JSON.stringify(lines));
    }
  })();
}
