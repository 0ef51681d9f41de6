/**
 * Exports, as the data layer asks main for them: start one (main asks where to save), cancel it, and follow
 * its progress events. The rows never pass through the renderer; main pages them from the API itself.
 */
import type { EventPayload, Result } from '../../../shared/ipc/contract.ts';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';

/** The export's id, or null when the user closed the save dialog. */
export function exportGrid(input: ExportGridInput): Promise<Result<{ id: string } | null>> {
  return window.tracker.exports.grid(input);
}

export function exportProfile(handlerId: string): Promise<Result<{ id: string } | null>> {
  return window.tracker.exports.profile({ handler_id: handlerId });
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
