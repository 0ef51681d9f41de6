/**
 * "Make available offline" in a workspace: takes the workspace's current filters and search as the query
 * of a new offline pack and starts its download; progress and controls follow in the Offline data screen.
 */
import { useState } from 'react';
import { useConnectivity, isOffline } from './connectivity.ts';
import { makeAvailableOffline } from './downloads.ts';
import type { PackQuery } from './engine-seam.ts';
import { useOfflineStore } from './offline-store.ts';

export function MakeAvailableOffline({ query }: { query: PackQuery }) {
  const offline = useConnectivity(isOffline);
  const signedIn = useOfflineStore((state) => state.name !== null);
  const [said, setSaid] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        disabled={offline || !signedIn}
        title={offline ? 'Connect to the network to download rows' : undefined}
        onClick={() => {
          setSaid(null);
          makeAvailableOffline(query).then(
            () => setSaid('Downloading: follow it in Offline data.'),
            (error: unknown) => setSaid(error instanceof Error ? error.message : String(error)),
          );
        }}
      >
        Make available offline
      </button>
      {said && (
        <span role="status" className="freshness">
          {said}
        </span>
      )}
    </>
  );
}
