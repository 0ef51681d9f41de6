/**
 * The server's SQL held to shared/query's definition (conformance.ts) over the demo data, with generators
 * and manifests of non-ASCII text added.
 */
import { rmSync } from 'node:fs';
import { buildTestDatabase } from '../helpers/tracker-server.ts';
import { queryConformance } from './conformance.ts';
import { UNICODE_GENERATORS, addGenerators, addUnicodeManifests } from './support.ts';

let dir = '';

queryConformance({
  runs: 12,
  setup: async () => {
    const built = await buildTestDatabase(3000, 13);
    dir = built.dir;
    addGenerators(built.path, UNICODE_GENERATORS);
    addUnicodeManifests(built.path);
    return built.path;
  },
  cleanup: () => rmSync(dir, { recursive: true, force: true }),
});
