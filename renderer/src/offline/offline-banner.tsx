/**
 * The app-wide signs of working offline: the "Work offline" switch in the header, and the banner that says
 * the data on screen is saved data and how old it is. Storage running full is said here too, since it
 * concerns every view that saves.
 */
import { formatCount } from '../base/format.ts';
import { useNow } from './clock.ts';
import { isOffline, useConnectivity } from '../data/connectivity.ts';
import { useOldestShownSaved } from './freshness.tsx';
import { reportStorageFull, useOfflineStore, type OpeningPack } from './offline-store.ts';
import { relativeTime } from './relative-time.ts';
import './offline.css';

export function WorkOfflineSwitch() {
  const workOffline = useConnectivity((state) => state.workOffline);
  const setWorkOffline = useConnectivity((state) => state.setWorkOffline);
  return (
    <label className="work-offline">
      <input
        type="checkbox"
        role="switch"
        checked={workOffline}
        onChange={(event) => setWorkOffline(event.target.checked)}
      />
      Work offline
    </label>
  );
}

function why(state: { workOffline: boolean; browserOffline: boolean }): string {
  if (state.workOffline) return 'you chose to work offline';
  if (state.browserOffline) return 'this computer has no network';
  return 'the server does not answer';
}

/**
 * "Opening an offline pack of 1,000,000 manifests (All manifests): the first answers from it wait for this."
 * The title follows in brackets: it often holds quotes of its own (Manifests matching “ab”).
 */
function openingWords(packs: readonly OpeningPack[]): string {
  const named = packs.map((pack) => `${formatCount(pack.rows)} ${pack.list} (${pack.title})`);
  return packs.length === 1
    ? `Opening an offline pack of ${named.join('')}: the first answers from it wait for this.`
    : `Opening offline packs of ${named.join(' and ')}: the first answers from them wait for this.`;
}

export function OfflineBanner() {
  const connectivity = useConnectivity();
  const storageFull = useOfflineStore((state) => state.storageFull);
  const opening = useOfflineStore((state) => state.opening);
  const savedAt = useOldestShownSaved();
  const now = useNow();
  return (
    <>
      {isOffline(connectivity) && (
        <div className="offline-banner" role="status" aria-label="Offline">
          <strong>
            {savedAt === null
              ? 'Offline — showing saved data only'
              : `Offline — showing data saved ${relativeTime(savedAt, now)}`}
          </strong>{' '}
          <span className="offline-why">({why(connectivity)})</span>
          {opening.length > 0 && <span className="offline-opening"> {openingWords(opening)}</span>}
        </div>
      )}
      {storageFull && (
        <div className="offline-banner storage-full" role="alert">
          Storage full: what is already saved is kept, but nothing more can be saved. Delete an offline pack
          or clear the cache in Offline data.{' '}
          <button type="button" onClick={() => reportStorageFull(false)}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
