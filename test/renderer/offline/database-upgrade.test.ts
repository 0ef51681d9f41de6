/**
 * A download that version 1 of the offline database left waiting for Resume after a lost connection, with
 * some of its detail pages stored 50 to a page: after the upgrade it resumes and completes with nothing
 * missing and nothing twice, its details fetched again 200 to an IPC reply. (The upgrade of every other
 * record, over packs from the real server, is test/offline/database-upgrade.test.ts.)
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionChanged, useSession } from '../../../renderer/src/data/session.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';
import {
  V1_CONNECTION_LOST,
  openOfflineDatabase,
  packChunks,
} from '../../../renderer/src/offline/database.ts';
import type { PackQuery, PackRows } from '../../../renderer/src/offline/engine-seam.ts';
import { runDownload } from '../../../renderer/src/offline/pack-download.ts';
import type { GeneratorDetail } from '../../../shared/api/index.ts';
import { openVersion1, writeVersion1Pack } from '../../helpers/offline-version-1.ts';
import { dataset, installTracker } from './fake-tracker.ts';

const MANIFESTS: PackQuery = { list: 'manifests', filterFields: {}, searchKey: '' };
const DATA = dataset(1337, 230);

beforeEach(() => {
  useSession.setState({ status: null, expired: false });
  sessionChanged({ signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' }, 'signed-in');
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a download cut short in version 1', () => {
  it('resumes after the upgrade with nothing missing and nothing twice', async () => {
    const { tracker } = installTracker(DATA);
    const ids = DATA.generators.map((row) => row.epa_handler_id!).sort();
    const rows: PackRows = {
      list: 'manifests',
      manifests: DATA.manifests,
      generators: [...DATA.generators].sort((a, b) => (a.epa_handler_id! < b.epa_handler_id! ? -1 : 1)),
      details: ids.map((id) => ({ generator_data: { epa_handler_id: id } }) as unknown as GeneratorDetail),
    };
    const version1 = openVersion1('version-1 cut short');
    const pack = { id: 'cut-short', query: MANIFESTS, title: 'All manifests', createdAt: 1 };
    await writeVersion1Pack(version1, { ...pack, status: 'paused', stopped: V1_CONNECTION_LOST }, rows, 2);
    version1.close();

    const db = openOfflineDatabase('version-1 cut short');
    expect((await db.packs.get('cut-short'))!.status).toBe('interrupted');
    expect(await runDownload(db, 'cut-short', new AbortController().signal)).toEqual({ outcome: 'complete' });

    // Only the details were asked again, 200 to a reply; the rows and generators were kept.
    expect(tracker.manifests.list).not.toHaveBeenCalled();
    expect(tracker.generators.list).not.toHaveBeenCalled();
    expect(tracker.generators.details.mock.calls.map(([input]) => input.ids.length)).toEqual([
      200,
      ids.length - 200,
    ]);
    const stored = await packChunks(db, 'cut-short').toArray();
    const keysOf = (part: string, key: (row: never) => string | undefined) =>
      stored
        .filter((chunk) => chunk.part === part)
        .flatMap((chunk) => chunk.rows.map((row) => key(row as never)));
    const manifests = keysOf(
      'rows',
      (row: { manifest_tracking_number?: string }) => row.manifest_tracking_number,
    );
    expect(manifests.sort()).toEqual(DATA.manifests.map((row) => row.manifest_tracking_number).sort());
    expect(keysOf('generators', (row: { epa_handler_id?: string }) => row.epa_handler_id).sort()).toEqual(
      ids,
    );
    const details = keysOf('details', (row: GeneratorDetail) => row.generator_data.epa_handler_id);
    expect(details.sort()).toEqual(ids);
    expect(await db.packs.get('cut-short')).toMatchObject({
      status: 'complete',
      rowsDone: DATA.manifests.length,
    });
    db.close();
  });
});
