/**
 * The server's SQL held to shared/query's definitions (conformance.ts) over the demo data, with generators
 * and manifests of non-ASCII text added.
 */
import BetterSqlite3 from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { finalize } from '../../server/src/db/finalize.ts';
import { buildTestDatabase } from '../helpers/tracker-server.ts';
import { queryConformance } from './conformance.ts';
import { UNICODE_GENERATORS, addGenerators } from './support.ts';

let dir = '';

/** Manifests of the added non-ASCII generators, copied from the first manifest, so manifest text has them too. */
function addManifests(path: string): void {
  const db = new BetterSqlite3(path);
  try {
    const insert = db.prepare(
      `INSERT INTO manifests (manifest_tracking_number, generator_id, generator_name, generator_epa_id,
         generator_location_state, transporter, designated_facility_name, shipped_date, received_date,
         total_waste_quantity_tons, container_count, waste_stream_count)
       SELECT ?, g.id, g.generator_name, g.epa_handler_id, g.location_state, ?, ?, m.shipped_date,
              m.received_date, m.total_waste_quantity_tons, m.container_count, 0
       FROM generators g, (SELECT * FROM manifests ORDER BY id LIMIT 1) m WHERE g.epa_handler_id = ?`,
    );
    UNICODE_GENERATORS.forEach((generator, index) => {
      insert.run(
        `ZZ${index}ÉÇØ`,
        `Transports ${generator.generator_name}`,
        'Straße Landfill',
        generator.epa_handler_id,
      );
    });
    finalize(db);
  } finally {
    db.close();
  }
}

queryConformance({
  runs: 12,
  setup: async () => {
    const built = await buildTestDatabase(3000, 13);
    dir = built.dir;
    addGenerators(built.path, UNICODE_GENERATORS);
    addManifests(built.path);
    return built.path;
  },
  cleanup: () => rmSync(dir, { recursive: true, force: true }),
});
