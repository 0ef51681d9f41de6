/**
 * The Offline data screen: what this computer keeps and that it is not encrypted, every offline pack (its
 * query in words, what its last refresh brought, row counts, size, last sync, a download's progress) with
 * refresh and delete, the
 * storage used in all, and "Clear cache" for the saved pages. Packs are removed only from here, once the
 * user confirms (offline, a deleted pack cannot be downloaded again), or with all of the user's data at
 * sign-out (../remove-user-data.ts). Refresh is a whole download, so offline it says why it cannot run.
 *
 * Sizes: the browser tells only the storage used by the whole app (`navigator.storage.estimate()`), every
 * user's data together, and stores rows compressed, so what each pack holds (its JSON length, recorded as
 * it is stored) is several times what it takes on disk. Each size shown is the storage used shared out in
 * proportion to what each pack and the saved pages hold, among every user's records on this computer
 * (others-recorded.ts): estimates, labelled so, that add up to the total shown beside them when the
 * signed-in user is the only one with data here.
 */
import { useEffect, useRef, useState } from 'react';
import { useSession } from '../data/session.ts';
import { formatCount, formatTimestamp } from '../base/format.ts';
import { isOffline, useConnectivity } from '../data/connectivity.ts';
import type { PackRecord } from './database.ts';
import { cannotDownload, clearPageCache, refreshPack, removePack, useDownloads } from './downloads.ts';
import { describeChanges } from './pack-changes.ts';
import { listPacks, refreshOf } from './packs.ts';
import { storageEstimate } from './storage-estimate.ts';
import { othersRecorded } from './others-recorded.ts';
import { activeDatabase, activePageCache, useOfflineStore } from './offline-store.ts';
import { PackProgress } from './pack-progress.tsx';
import { useNow } from './clock.ts';
import { formatBytes, relativeTime } from './relative-time.ts';

interface Listing {
  packs: { pack: PackRecord; refresh: PackRecord | undefined }[];
  cacheSize: number;
  cacheCount: number;
  /** What the other users' databases here record: their share of the storage used. */
  othersSize: number;
  usage: number | undefined;
  quota: number | undefined;
}

async function readListing(): Promise<Listing | null> {
  const db = activeDatabase();
  const cache = activePageCache();
  if (!db || !cache) return null;
  try {
    const packs = await listPacks(db);
    const withRefresh = await Promise.all(
      packs.map(async (pack) => ({ pack, refresh: await refreshOf(db, pack.id) })),
    );
    const estimate = await storageEstimate();
    return {
      packs: withRefresh,
      cacheSize: await cache.totalSize(),
      cacheCount: await cache.count(),
      othersSize: await othersRecorded(db),
      usage: estimate.usage,
      quota: estimate.quota,
    };
  } catch (error) {
    // Signed out (or another user in) meanwhile: that database closed, and this screen goes with the session.
    if (activeDatabase() !== db) return null;
    throw error;
  }
}

/**
 * The listing, read again whenever the packs change or a download's progress moves. One read at a time: a
 * change while one is under way asks for one more when it ends. A download stores a page every few tens of
 * milliseconds, faster than the listing is read, and a read dropped at every page showed counts that stood
 * still beside the moving progress until the download paused. A read of a database that is no longer the
 * signed-in user's is not shown.
 */
function useListing(version: number, progress: number): { listing: Listing | null; failure?: string } {
  const [shown, setShown] = useState<{ listing: Listing | null; failure?: string }>({ listing: null });
  const reader = useRef({ reading: false, again: false, mounted: true });
  useEffect(() => {
    const own = reader.current;
    own.mounted = true;
    return () => {
      own.mounted = false;
    };
  }, []);
  useEffect(() => {
    const own = reader.current;
    const read = () => {
      own.reading = true;
      own.again = false;
      const db = activeDatabase();
      void readListing()
        .then(
          (listing) => ({ listing }),
          (error: unknown) => ({ failure: error instanceof Error ? error.message : String(error) }),
        )
        .then((result) => {
          own.reading = false;
          if (!own.mounted) return;
          const current = activeDatabase() === db;
          if (current) {
            setShown((before) =>
              'listing' in result ? result : { listing: before.listing, failure: result.failure },
            );
          }
          if (own.again || !current) read();
        });
    };
    if (own.reading) own.again = true;
    else read();
  }, [version, progress]);
  return shown;
}

/** Recorded sizes as shares of the storage used, when the browser says how much that is. */
function estimator(listing: Listing): (recorded: number) => number {
  const recorded =
    listing.packs.reduce((sum, { pack, refresh }) => sum + pack.size + (refresh?.size ?? 0), 0) +
    listing.cacheSize;
  if (listing.usage === undefined || recorded === 0) return (size) => size;
  const usage = listing.usage;
  const everyone = recorded + listing.othersSize;
  return (size) => (size / everyone) * usage;
}

/** "about 12 MB": a size that is an estimate says so. */
const about = (bytes: number) => `about ${formatBytes(bytes)}`;

/** Delete, then a confirmation in its place: what goes, and, offline, that it cannot come back for now. */
function DeletePack({ pack, offline }: { pack: PackRecord; offline: boolean }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" aria-label={`Delete ${pack.title}`} onClick={() => setConfirming(true)}>
        Delete
      </button>
    );
  }
  return (
    <span className="confirm-inline" role="group" aria-label={`Delete ${pack.title}?`}>
      <span>
        Delete its {formatCount(pack.rowsDone)} rows from this computer?
        {offline && ' You are offline: they cannot be downloaded again until you are connected.'}
      </span>
      <button type="button" className="danger" onClick={() => void removePack(pack.id)}>
        Delete for good
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep it
      </button>
    </span>
  );
}

export function OfflineData() {
  const version = useOfflineStore((state) => state.packsVersion);
  const who = useSession((state) => state.status?.username ?? 'you');
  const offline = useConnectivity(isOffline);
  // Read only while offline: why Refresh cannot download.
  const refused = offline ? cannotDownload() : undefined;
  // Progress counters change the stored sizes; read the listing again as they move.
  const progress = useDownloads((state) =>
    Object.values(state.live).reduce((sum, live) => sum + live.done, 0),
  );
  const { listing, failure } = useListing(version, progress);
  const now = useNow();

  const unread = failure && <p role="alert">What this computer keeps could not be read: {failure}</p>;
  if (!listing && unread) {
    return (
      <section className="offline-data" aria-label="Offline data">
        <h1>Offline data</h1>
        {unread}
      </section>
    );
  }
  if (!listing) return <section className="offline-data" aria-label="Offline data" aria-busy="true" />;
  const estimate = estimator(listing);
  const packBytes = listing.packs.reduce(
    (sum, { pack, refresh }) => sum + estimate(pack.size + (refresh?.size ?? 0)),
    0,
  );
  // Sizes only of what there is: none is said in words (and no packs below the sizes, with how to make one).
  const pages =
    listing.cacheCount === 0
      ? 'no saved pages'
      : `saved pages ${about(estimate(listing.cacheSize))} (${formatCount(listing.cacheCount)})`;
  const kept =
    listing.packs.length === 0
      ? `${pages.charAt(0).toUpperCase()}${pages.slice(1)}`
      : `Offline packs ${about(packBytes)}, ${pages}`;
  return (
    <section className="offline-data" aria-label="Offline data">
      <h1>Offline data</h1>
      {unread}
      <p className="offline-data-kept">
        Kept on this computer for {who}: every page, box, lookup and profile you were shown, and your offline
        packs, in this app’s profile folder. They are <strong>not encrypted</strong>: anyone who can use this
        computer’s account can read them. On a computer others use, choose “Sign out and remove my data”, or
        “Always remove my data from this computer when I sign out” in the settings.
      </p>
      <p>
        {kept}.
        {listing.usage !== undefined &&
          ` Storage used on this computer${listing.othersSize > 0 ? ', by every user of the app' : ''}: ${formatBytes(listing.usage)}${
            listing.quota !== undefined ? ` of ${formatBytes(listing.quota)} allowed` : ''
          }.`}{' '}
        <button type="button" onClick={() => void clearPageCache()}>
          Clear cache
        </button>
      </p>
      {listing.packs.length === 0 ? (
        <p>
          No offline packs yet. In a workspace, set the filters and search, then choose “Make available
          offline” to take those rows along.
        </p>
      ) : (
        <table aria-label="Offline packs">
          <thead>
            <tr>
              <th scope="col">Pack</th>
              <th scope="col">Rows</th>
              <th scope="col">Generators</th>
              <th scope="col">Size</th>
              <th scope="col">Last sync</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {listing.packs.map(({ pack, refresh }) => (
              <tr key={pack.id} aria-label={pack.title}>
                <th scope="row">
                  {pack.title}
                  {pack.changes && (
                    <span className="pack-changes">{describeChanges(pack.list, pack.changes)}</span>
                  )}
                </th>
                <td>{formatCount(pack.rowsDone)}</td>
                <td>{formatCount(pack.generatorCount)}</td>
                <td>{about(estimate(pack.size + (refresh?.size ?? 0)))}</td>
                <td>
                  {pack.refreshedAt ? (
                    <time dateTime={new Date(pack.refreshedAt).toISOString()}>
                      {formatTimestamp(pack.refreshedAt)} ({relativeTime(pack.refreshedAt, now)})
                    </time>
                  ) : (
                    'not complete'
                  )}
                </td>
                <td>
                  <div className="actions">
                    {pack.status !== 'complete' && <PackProgress pack={pack} />}
                    {refresh && <PackProgress pack={refresh} cancel="Cancel refresh" />}
                    {pack.status === 'complete' && !refresh && (
                      <button
                        type="button"
                        disabled={refused !== undefined}
                        title={refused}
                        onClick={() => void refreshPack(pack.id)}
                      >
                        Refresh
                      </button>
                    )}
                    <DeletePack pack={pack} offline={offline} />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
