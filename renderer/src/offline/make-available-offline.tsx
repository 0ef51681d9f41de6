/**
 * "Make available offline" in a workspace: takes the workspace's current filters and search as the query
 * of a new offline pack and starts its download; progress and controls follow in the Offline data screen.
 *
 * The notice beside the button follows the pack it started, whoever drives its download afterwards (the
 * Offline data screen's pause and resume included): "Downloading" while it runs, why it stopped when it
 * stops, "Available offline" for a moment once it is complete, nothing once it is deleted. The workspace
 * stays mounted while the user is elsewhere, so a notice that outlived its download would read as current.
 */
import { useEffect, useState } from 'react';
import { useAccess } from '../data/permissions.ts';
import { useConnectivity, isOffline } from '../data/connectivity.ts';
import { makeAvailableOffline, useDownloads, type LiveDownload } from './downloads.ts';
import type { PackQuery } from './engine-seam.ts';
import { activeDatabase, useOfflineStore } from './offline-store.ts';

/** How long "Available offline" stays once the download is complete. */
const COMPLETE_NOTICE_MS = 4_000;

function noticeOf(live: LiveDownload): string {
  // A retry after a lost connection runs with the reason kept until it gets somewhere: say the reason.
  if (live.stopped) return `${live.stopped} Follow it in Offline data.`;
  if (live.running) return 'Downloading: follow it in Offline data.';
  return 'Paused: resume it in Offline data.';
}

export function MakeAvailableOffline({ query }: { query: PackQuery }) {
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
  return <PackButton query={query} />;
}

function PackButton({ query }: { query: PackQuery }) {
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

  const done = already ? `Already available offline in “${already}”.` : 'Available offline.';
  const notice = failure ?? (complete ? done : live ? noticeOf(live) : null);
  return (
    <>
      <button
        type="button"
        disabled={offline || !signedIn}
        title={offline ? 'Connect to the network to download rows' : undefined}
        onClick={() => {
          setFailure(null);
          setComplete(false);
          setAlready(null);
          setPackId(null);
          makeAvailableOffline(query).then(
            (made) => {
              setAlready(made.covered?.title ?? null);
              setPackId(made.packId);
            },
            (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
          );
        }}
      >
        Make available offline
      </button>
      {notice && (
        <span role="status" className="freshness">
          {notice}
        </span>
      )}
    </>
  );
}
