/**
 * The exports of this window, bottom right: a progress bar per export (rows written of the total, rate,
 * time left) with Cancel while it runs; the file's name when it is saved; the reason when it failed, and,
 * when the server could not be reached and an offline pack covers the query, the offer to export the
 * offline copy instead. The grids stay usable meanwhile: the rows are paged by main, or sent from the
 * offline engine's worker a chunk at a time.
 */
import { useEffect, useState } from 'react';
import './exports.css';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';
import { cancelExport, followExports } from '../data/exports.ts';
import { formatCount, formatTimestamp } from '../base/format.ts';
import type { PackRecord } from '../offline/database.ts';
import { pace, useExports, type ExportEntry } from './export-store.ts';
import { exportFromPack, packCovering } from './offline-export.ts';
import { isOffline, useConnectivity } from '../data/connectivity.ts';
import { packSavedAt } from '../offline/offline-store.ts';

/**
 * "Export from offline data (saved …)" when a complete pack covers the query of an export that failed for
 * the network, or of one still waiting on a server the app has found out of reach (a network that hangs):
 * that one is cancelled when the offline copy starts.
 */
function OfflineOffer({ entry, grid }: { entry: ExportEntry; grid: ExportGridInput }) {
  const [pack, setPack] = useState<PackRecord | undefined>();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void packCovering(grid).then((found) => {
      if (live) setPack(found);
    });
    return () => {
      live = false;
    };
  }, [grid]);
  if (!pack) return null;
  const run = () => {
    setError(null);
    if (entry.state === 'running') void cancelExport(entry.id);
    void exportFromPack(grid, pack).then((answer) => {
      if (!answer.ok) setError(answer.error.message);
      // The offline copy takes the failed export's place; a closed save dialog leaves the offer standing.
      else if (answer.data) {
        useExports.getState().dismiss(entry.id);
        useExports.getState().started(answer.data.id, `${entry.title} from offline data`);
      }
    });
  };
  return (
    <>
      <button type="button" className="export-offer" onClick={run}>
        Export from offline data (saved {formatTimestamp(packSavedAt(pack))})
      </button>
      {error && <span className="export-offer export-error">{error}</span>}
    </>
  );
}

function timeLeft(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s left`;
  return `${Math.ceil(seconds / 60)} min left`;
}

function ExportItem({ entry, now }: { entry: ExportEntry; now: number }) {
  const dismiss = useExports((state) => state.dismiss);
  const offline = useConnectivity(isOffline);
  const label = `${entry.title}`;
  if (entry.state === 'done') {
    return (
      <li className="export-item export-done" role="status">
        <span>
          Saved <strong>{entry.fileName}</strong> ({formatCount(entry.rowsWritten)} rows)
        </span>
        <button type="button" onClick={() => dismiss(entry.id)} aria-label={`Dismiss ${label}`}>
          Dismiss
        </button>
      </li>
    );
  }
  if (entry.state === 'failed') {
    return (
      <li className="export-item export-failed" role="alert">
        <span>
          {label}: {entry.message}
        </span>
        {entry.networkLost && entry.grid && <OfflineOffer entry={entry} grid={entry.grid} />}
        <button type="button" onClick={() => dismiss(entry.id)} aria-label={`Dismiss ${label}`}>
          Dismiss
        </button>
      </li>
    );
  }
  const speed = pace(entry, now);
  const lines = entry.wasteLines;
  const unit = lines ? 'lines' : 'rows';
  const counts = lines
    ? `Waste lines: ${formatCount(lines.written)} of ${formatCount(lines.total)}`
    : entry.total > 0
      ? `${formatCount(entry.rowsWritten)} of ${formatCount(entry.total)} rows`
      : 'Starting…';
  return (
    <li className="export-item">
      <span className="export-title">{label}</span>
      <progress
        aria-label={`${label} progress`}
        max={Math.max(lines ? lines.total : entry.total, 1)}
        value={lines ? lines.written : entry.rowsWritten}
      />
      <span className="export-counts" aria-live="polite">
        {entry.state === 'waiting'
          ? 'Waiting for you to sign in again…'
          : speed
            ? `${counts} · ${formatCount(Math.round(speed.rate))} ${unit}/s · ${timeLeft(speed.secondsLeft)}`
            : counts}
      </span>
      <button type="button" onClick={() => void cancelExport(entry.id)} aria-label={`Cancel ${label}`}>
        Cancel
      </button>
      {offline && entry.state === 'running' && entry.grid && <OfflineOffer entry={entry} grid={entry.grid} />}
    </li>
  );
}

export function ExportPanel() {
  const entries = useExports((state) => state.entries);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => followExports((event) => useExports.getState().apply(event)), []);
  const running = entries.some((entry) => entry.state === 'running' || entry.state === 'waiting');
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [running]);
  if (entries.length === 0) return null;
  return (
    <section className="export-panel" aria-label="Exports">
      <ul>
        {entries.map((entry) => (
          <ExportItem key={entry.id} entry={entry} now={now} />
        ))}
      </ul>
    </section>
  );
}
