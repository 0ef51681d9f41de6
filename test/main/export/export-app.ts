/**
 * The real main handlers signed in to a real reference server, over a demo dataset in which one generator
 * and its manifests carry a name with non-ASCII letters and a bell character (which XML cannot carry), as a
 * real record could: what the export tests run against.
 */
import { rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import type { EventPayload } from '../../../shared/ipc/contract.ts';
import { buildTestDatabase, startTrackerServer, type TrackerServer } from '../../helpers/tracker-server.ts';
import { DEMO_USERS, createTestApp, temporaryFolder, type TestApp } from '../support.ts';

export const ODD_NAME = 'Société Générale\u0007 — Zürich 東京';
/** The odd name as a workbook holds it: without the control character. */
export const ODD_NAME_WRITTEN = 'Société Générale — Zürich 東京';

export interface ExportApp {
  server: TrackerServer;
  app: TestApp;
  /** The app's folder: exports are saved under `saved/` in it unless a test says otherwise. */
  dir: string;
  close(): Promise<void>;
}

export async function startExportApp(options: {
  manifests: number;
  seed: number;
  dialect?: 'sample' | 'typed';
}): Promise<ExportApp> {
  const built = await buildTestDatabase(options.manifests, options.seed);
  const db = new Database(built.path);
  const { id, epa_handler_id } = db
    .prepare('SELECT id, epa_handler_id FROM generators ORDER BY id LIMIT 1')
    .get() as { id: number; epa_handler_id: string };
  db.prepare('UPDATE generators SET generator_name = ? WHERE id = ?').run(ODD_NAME, id);
  db.prepare('UPDATE manifests SET generator_name = ? WHERE generator_epa_id = ?').run(
    ODD_NAME,
    epa_handler_id,
  );
  db.close();
  const server = await startTrackerServer({ dbPath: built.path, dialect: options.dialect ?? 'sample' });
  const folder = await temporaryFolder();
  const app = await createTestApp({ dir: folder.dir, baseUrl: server.baseUrl });
  const signedIn = await app.invoke('session', 'signIn', { ...DEMO_USERS.inspector, remember: false });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  return {
    server,
    app,
    dir: folder.dir,
    async close() {
      await server.close();
      await rm(built.dir, { recursive: true, force: true });
      await folder.remove();
    },
  };
}

export type Settled = EventPayload<'export.done'> | EventPayload<'export.failed'>;

/** The export's last event, once it is done or failed. */
export async function settled(app: TestApp, id: string): Promise<Settled> {
  for (;;) {
    for (const { event, payload } of app.events) {
      if ((event === 'export.done' || event === 'export.failed') && (payload as { id: string }).id === id) {
        return payload as Settled;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
