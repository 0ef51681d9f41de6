/**
 * Exports of offline data. When the app is offline and a complete offline pack covers the grid's query, an
 * export reads every matching row from the pack through the offline engine and sends the rows to main in
 * chunks (./offline-rows.ts); main checks every row, writes them with the writer an export from the server
 * uses, and says in the Query sheet that they came from the offline data, saved when the pack last
 * completed. An export from the server that loses the network may offer the same from a pack.
 */
import type { Result } from '../../../shared/ipc/contract.ts';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';
import { endOfflineExport, exportGrid, exportOffline, sendExportChunk } from '../data/exports.ts';
import { isOffline, networkSkipped, useConnectivity } from '../data/connectivity.ts';
import type { PackRecord } from '../offline/database.ts';
import { offlineEngine } from '../offline/engine-seam.ts';
import { activeDatabase, answerFromPack, packSavedAt } from '../offline/offline-store.ts';
import { pageRequest, sendOfflineRows } from './offline-rows.ts';

/** A started export; `grid` is the query of an export from the server, kept to offer the offline copy. */
export type StartedExport = { id: string; grid?: ExportGridInput };

/** The newest complete pack that answers the query exactly, if any. */
export async function packCovering(query: ExportGridInput): Promise<PackRecord | undefined> {
  const db = activeDatabase();
  const engine = offlineEngine();
  if (!db || !engine) return undefined;
  const request = pageRequest(query, 0);
  const packs = await db.packs.toArray();
  return packs
    .filter((pack) => pack.status === 'complete' && engine.covers(pack.query, request))
    .sort((a, b) => packSavedAt(b) - packSavedAt(a))[0];
}

/** Starts an export of the query's rows from `pack`: main asks where to save, then the rows follow. */
export async function exportFromPack(
  query: ExportGridInput,
  pack: PackRecord,
): Promise<Result<StartedExport | null>> {
  const db = activeDatabase();
  if (!db)
    return {
      ok: false,
      error: { kind: 'offline', message: 'Nobody is signed in, so no offline data is open.' },
    };
  const started = await exportOffline({ query, savedAt: packSavedAt(pack) });
  if (!started.ok || !started.data) return started;
  const { id } = started.data;
  void sendOfflineRows(query, {
    page: (request) => answerFromPack(db, pack, request),
    send: (total, rows) => sendExportChunk(id, total, rows),
    end: (failure) => endOfflineExport(id, failure),
  });
  return started;
}

/** Why an export cannot run while the user works offline (or the system has no network). */
export const NO_PACK_COVERS =
  'No offline pack holds these rows, and the app is working offline: connect to export them from the server, or make them available offline first.';

/**
 * A grid's export: from an offline pack that covers the query when the app is offline, else from the
 * server (whose failure for a lost network may then offer the offline copy). With the network skipped
 * ("Work offline", or no network at all) and no pack that covers the query, it says so rather than try.
 */
export async function startGridExport(query: ExportGridInput): Promise<Result<StartedExport | null>> {
  if (isOffline(useConnectivity.getState())) {
    const pack = await packCovering(query);
    if (pack) return exportFromPack(query, pack);
    if (networkSkipped()) return { ok: false, error: { kind: 'offline', message: NO_PACK_COVERS } };
  }
  const started = await exportGrid(query);
  return started.ok && started.data ? { ok: true, data: { ...started.data, grid: query } } : started;
}
