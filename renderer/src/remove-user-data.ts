/**
 * "Sign out and remove my data from this computer" (or every sign-out, with the setting that asks for it),
 * the renderer's half: main removes its own (export scratch files, downloads not yet fetched) and says, in
 * its sign-out event, whose data goes (data/session.ts `removeDataOf`). Then this removes, for that server
 * and user, the database of saved pages and offline packs (IndexedDB, in the app's profile folder, not
 * encrypted), and the workspaces' filters, searches and layout kept in the profile's local storage, so a
 * second user of the same OS account finds nothing of theirs.
 */
import { Dexie } from 'dexie';
import { useSession } from './data/session.ts';
import { useExports } from './exports/export-store.ts';
import { databaseName } from './offline/database.ts';
import { stopAllDownloads } from './offline/downloads.ts';
import { activateOfflineStore } from './offline/offline-store.ts';
import { useNavigation } from './state/navigation.ts';
import { useGeneratorWorkspace } from './workspaces/generators.tsx';
import { useManifestWorkspace } from './workspaces/manifests.tsx';

/** Removes one user's saved data from this computer; settles once the database is gone. */
export async function removeUserData(who: { baseUrl: string; username: string }): Promise<void> {
  await stopAllDownloads();
  // Closed first: a deletion waits for every open connection (the engine's worker closes its own).
  activateOfflineStore(null);
  await Dexie.delete(databaseName(who.baseUrl, who.username));
  for (const workspace of [useGeneratorWorkspace, useManifestWorkspace]) {
    const { clearAll, resetColumns, setSort } = workspace.getState();
    clearAll();
    resetColumns();
    setSort(undefined);
  }
  useNavigation.setState({ profile: null });
  // The exports panel names their files.
  useExports.setState({ entries: [] });
}

/** Removes the data of each user who signs out asking for it; returns the function that stops following. */
export function followDataRemoval(onError: (error: unknown) => void = console.error): () => void {
  return useSession.subscribe((state) => {
    const who = state.removeDataOf;
    if (!who) return;
    useSession.setState({ removeDataOf: null });
    void removeUserData(who).catch(onError);
  });
}
