/**
 * "Make available offline" in a workspace: takes the workspace's current filters and search as the query
 * of a new offline pack and starts its download; progress and controls follow in the Offline data screen.
 *
 * A query of more than LARGE_PACK_ROWS rows asks first, under the toolbar: how many rows, about how much
 * of this computer's storage they take, and whether the browser allows that much more; a query a pack
 * already holds does not ask, as nothing is downloaded twice.
 *
 * The notice beside the button follows the pack it started, whoever drives its download afterwards (the
 * Offline data screen's pause and resume included): "Downloading" while it runs, why it stopped when it
 * stops, "Available offline" for a moment once it is complete, nothing once it is deleted. The workspace
 * stays mounted while the user is elsewhere, so a notice that outlived its download would read as current.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatCount } from '../base/format.ts';
import { useAccess } from '../data/permissions.ts';
import { useConnectivity, isOffline } from '../data/connectivity.ts';
import { makeAvailableOffline, packHolding, useDownloads, type LiveDownload } from './downloads.ts';
import type { PackList, PackQuery } from './engine-seam.ts';
import { activeDatabase, useOfflineStore } from './offline-store.ts';
import { formatBytes } from './relative-time.ts';
import { storageEstimate } from './storage-estimate.ts';

/** How long "Available offline" stays once the download is complete. */
const COMPLETE_NOTICE_MS = 4_000;

/** Rows above which "Make available offline" says how many and about how much before it downloads. */
export const LARGE_PACK_ROWS = 10_000;

/**
 * The storage a pack takes per row of its list, with what it takes beside the row (a manifest's share of its
 * generators and their details, and the engine's indexes), as the browser counts it (navigator.storage usage
 * before and after a complete pack, Chromium, the 1M demo database): 1,000,000 manifests took 445 MB, 446 bytes
 * each (120,900: 426; 3,907: 330); 7,941 generators took 6.4 MB, 805 bytes each (75: 928). The larger of
 * each, rounded up.
 */
export const STORED_BYTES_PER_ROW: Record<PackList, number> = { manifests: 450, generators: 930 };

function noticeOf(live: LiveDownload): string {
  // A retry after a lost connection runs with the reason kept until it gets somewhere: say the reason.
  if (live.stopped) return `${live.stopped} Follow it in Offline data.`;
  if (live.running) return 'Downloading: follow it in Offline data.';
  return 'Paused: resume it in Offline data.';
}

export function MakeAvailableOffline({ query, rows }: { query: PackQuery; rows: number | null }) {
  // A pack of manifests also takes their generators' rows and profiles (pack-download.ts).
  const generators = useAccess('generators');
  const manifests = useAccess('manifests');
  const lacking = [
    ...(generators === 'denied' ? ['generators'] : []),
    ...(query.list === 'manifests' && manifests === 'denied' ? ['manifests'] : []),
  ];
  if (lacking.length > 0) {
    return (
      <span role="note" className="freshness">
        No offline packs: they need the “{lacking.join('” and “')}” permission your account lacks.
      </span>
    );
  }
  return <PackButton query={query} rows={rows} />;
}

/**
 * The question a large pack asks, on its own line under the toolbar: its rows, their storage, and, when the
 * browser says how much it allows, whether that is more than is left. Escape or Cancel takes it away.
 */
function ConfirmLargePack({
  list,
  rows,
  onDownload,
  onCancel,
}: {
  list: PackList;
  rows: number;
  onDownload: () => void;
  onCancel: () => void;
}) {
  const [left, setLeft] = useState<number | undefined>(undefined);
  const download = useRef<HTMLButtonElement>(null);
  // Focus moves as the question appears, not after a paint in which a click could come first.
  useLayoutEffect(() => download.current?.focus(), []);
  useEffect(() => {
    let current = true;
    void storageEstimate().then(({ usage, quota }) => {
      if (current && quota !== undefined) setLeft(Math.max(0, quota - (usage ?? 0)));
    });
    return () => {
      current = false;
    };
  }, []);
  const bytes = rows * STORED_BYTES_PER_ROW[list];
  const along = list === 'manifests' ? ' with their generators' : '';
  return (
    <div
      className="confirm-inline pack-question"
      role="group"
      aria-label="Make available offline?"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <span>
        Download {formatCount(rows)} {list}
        {along} to this computer? They take about {formatBytes(bytes)}.
        {left !== undefined &&
          bytes > left &&
          ` The browser allows about ${formatBytes(left)} more: narrow the filters, or delete packs in Offline data.`}
      </span>
      <button type="button" ref={download} onClick={onDownload}>
        Download
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function PackButton({ query, rows }: { query: PackQuery; rows: number | null }) {
  const offline = useConnectivity(isOffline);
  const signedIn = useOfflineStore((state) => state.name !== null);
  /** The pack this button started last, while the notice follows it. */
  const [packId, setPackId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [complete, setComplete] = useState(false);
  /** The pack that already held these rows, when the button found one rather than make a copy. */
  const [already, setAlready] = useState<string | null>(null);
  const live = useDownloads((state) => (packId ? state.live[packId] : undefined));
  const followed = live !== undefined;

  // A download leaves the live list when it completes or the pack is deleted; the stored pack says which.
  useEffect(() => {
    if (!packId || followed) return undefined;
    let current = true;
    const forget = () => {
      if (current) setPackId(null);
    };
    const stored = activeDatabase()?.packs.get(packId);
    if (!stored) forget();
    else
      stored.then((pack) => {
        if (current && pack?.status === 'complete') setComplete(true);
        else forget();
      }, forget);
    return () => {
      current = false;
    };
  }, [packId, followed]);

  useEffect(() => {
    if (!complete) return undefined;
    const timer = setTimeout(() => {
      setComplete(false);
      setAlready(null);
      setPackId(null);
    }, COMPLETE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [complete]);

  /** The rows the question names while a large pack asks before it downloads. */
  const [asking, setAsking] = useState<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // Another query, going offline or signing out takes the question away: it was about that query's rows.
  const queryKey = JSON.stringify(query);
  const [askedFor, setAskedFor] = useState(queryKey);
  if (askedFor !== queryKey) {
    setAskedFor(queryKey);
    setAsking(null);
  }
  if (asking !== null && (offline || !signedIn)) setAsking(null);

  const fail = (error: unknown) => setFailure(error instanceof Error ? error.message : String(error));
  const start = () => {
    setAsking(null);
    setFailure(null);
    setComplete(false);
    setAlready(null);
    setPackId(null);
    makeAvailableOffline(query).then((made) => {
      setAlready(made.covered?.title ?? null);
      setPackId(made.packId);
    }, fail);
  };
  const cancel = () => {
    setAsking(null);
    // Keyboard focus goes back to the button that asked.
    button.current?.focus();
  };

  const done = already ? `Already available offline in “${already}”.` : 'Available offline.';
  const notice = failure ?? (complete ? done : live ? noticeOf(live) : null);
  return (
    <>
      <button
        type="button"
        ref={button}
        disabled={offline || !signedIn}
        aria-expanded={asking !== null}
        title={offline ? 'Connect to the network to download rows' : undefined}
        onClick={() => {
          if (asking !== null) {
            cancel();
            return;
          }
          if (rows === null || rows <= LARGE_PACK_ROWS) {
            start();
            return;
          }
          // A pack that holds these rows already is named, not downloaded again: nothing to ask.
          packHolding(query).then((held) => (held ? start() : setAsking(rows)), fail);
        }}
      >
        Make available offline
      </button>
      {notice && (
        <span role="status" className="freshness">
          {notice}
        </span>
      )}
      {asking !== null && (
        <ConfirmLargePack list={query.list} rows={asking} onDownload={start} onCancel={cancel} />
      )}
    </>
  );
}
