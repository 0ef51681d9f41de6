/**
 * Exports, as the data layer asks main for them: start one (main asks where to save), cancel it, and follow
 * its progress events. Rows from the server never pass through the renderer: main pages them from the API
 * itself. Rows of offline data are the renderer's to send, chunk by chunk (../exports/offline-export.ts).
 */
import type { EventPayload, Result } from '../../../shared/ipc/contract.ts';
import type { ExportGridInput, ExportOfflineInput } from '../../../shared/ipc/exports.ts';

/** The export's id, or null when the user closed the save dialog. */
export function exportGrid(input: ExportGridInput): Promise<Result<{ id: string } | null>> {
  return window.tracker.exports.grid(input);
}

export function exportProfile(handlerId: string): Promise<Result<{ id: string } | null>> {
  return window.tracker.exports.profile({ handler_id: handlerId });
}

/** Asks where to save an export of offline data; its rows follow through `sendExportChunk`. */
export function exportOffline(input: ExportOfflineInput): Promise<Result<{ id: string } | null>> {
  return window.tracker.exports.offlineStart(input);
}

/** Sends the next rows of an offline export; answers once main has written them. */
export function sendExportChunk(id: string, total: number, rows: readonly unknown[]): Promise<Result<null>> {
  return window.tracker.exports.offlineChunk({ id, total, rows: [...rows] });
}

/** Ends an offline export after its last chunk, or fails it with `failure`. */
export function endOfflineExport(id: string, failure?: string): Promise<Result<null>> {
  return window.tracker.exports.offlineEnd(failure === undefined ? { id } : { id, failure });
}

export function cancelExport(id: string): Promise<Result<null>> {
  return window.tracker.exports.cancel({ id });
}

export type ExportEvent =
  | { kind: 'progress'; payload: EventPayload<'export.progress'> }
  | { kind: 'done'; payload: EventPayload<'export.done'> }
  | { kind: 'failed'; payload: EventPayload<'export.failed'> };

/** Follows every export's events; returns the unsubscribe function. */
export function followExports(listener: (event: ExportEvent) => void): () => void {
  const stops = [
    window.tracker.on('export.progress', (payload) => listener({ kind: 'progress', payload })),
    window.tracker.on('export.done', (payload) => listener({ kind: 'done', payload })),
    window.tracker.on('export.failed', (payload) => listener({ kind: 'failed', payload })),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
