/**
 * "Export to Excel" and "Export CSV" for a view, and its entry for File → Export… / Ctrl+E while the view
 * is on screen. Main asks where to save; a closed dialog is no error. A refusal (no permission, bad input)
 * is shown beside the buttons.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { IpcError, Result } from '../../../shared/ipc/contract.ts';
import { Problem } from '../components/problems.tsx';
import type { ExportFormat } from '../../../shared/ipc/exports.ts';
import { useExports } from './export-store.ts';
import type { StartedExport } from './offline-export.ts';

type Start = (format: ExportFormat) => Promise<Result<StartedExport | null>>;

/** Starts an export and records it for the progress panel; the error, if main refused. */
async function startExport(
  start: () => Promise<Result<StartedExport | null>>,
  title: string,
): Promise<IpcError | null> {
  const answer = await start();
  // Only the caller cancels its request, and it no longer wants to hear of it.
  if (!answer.ok) return answer.error.kind === 'cancelled' ? null : answer.error;
  if (answer.data) useExports.getState().started(answer.data.id, title, answer.data.grid);
  return null;
}

/** Makes `start` the app's current export while `active`. */
export function useCurrentExport(start: () => void, active: boolean): void {
  useEffect(() => {
    if (!active) return;
    useExports.getState().setCurrent(start);
    return () => {
      if (useExports.getState().current === start) useExports.getState().setCurrent(undefined);
    };
  }, [start, active]);
}

export function ExportButtons({
  noun,
  start,
  active,
  csv = true,
}: {
  /** "Manifests" */
  noun: string;
  start: Start;
  /** The view is on screen, so the menu's Export… means this one. */
  active: boolean;
  /** Offer CSV beside Excel (grids; a profile has several tables, so Excel only). */
  csv?: boolean;
}) {
  const [error, setError] = useState<IpcError | null>(null);
  // The menu's entry stays the same function while the query changes; it reads the newest `start`.
  const latest = useRef(start);
  useLayoutEffect(() => {
    latest.current = start;
  });
  const run = useCallback(
    (format: ExportFormat) => {
      setError(null);
      const title = `${noun} to ${format === 'xlsx' ? 'Excel' : 'CSV'}`;
      void startExport(() => latest.current(format), title).then(setError);
    },
    [noun],
  );
  const excel = useCallback(() => run('xlsx'), [run]);
  useCurrentExport(excel, active);
  return (
    <div className="export-buttons">
      <button type="button" onClick={() => run('xlsx')}>
        Export to Excel
      </button>
      {csv && (
        <button type="button" onClick={() => run('csv')}>
          Export CSV
        </button>
      )}
      {/* Shown with the view's other failures when it has a place for them; no Retry: these buttons are it. */}
      {error && <Problem error={error} what="the rows to export" />}
    </div>
  );
}
