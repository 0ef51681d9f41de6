/**
 * Where a grid's export takes its rows from when the app is offline: working offline with no saved data that
 * holds the rows, it says so and never reaches for the network the user chose not to use.
 */
import { afterEach, expect, it, vi } from 'vitest';
import type { ExportGridInput } from '../../../shared/ipc/exports.ts';
import { NO_PACK_COVERS, startGridExport } from '../../../renderer/src/exports/offline-export.ts';
import { useConnectivity } from '../../../renderer/src/data/connectivity.ts';

afterEach(() => {
  useConnectivity.getState().setWorkOffline(false);
  vi.unstubAllGlobals();
});

it('working offline with no pack that holds the rows, an export says so without asking the server', async () => {
  const offlineStart = vi.fn();
  const grid = vi.fn();
  vi.stubGlobal('tracker', { exports: { grid, offlineStart } });
  useConnectivity.getState().setWorkOffline(true);
  const started = await startGridExport({ list: 'generators', format: 'xlsx', fields: ['epa_handler_id'] });
  expect(started).toEqual({ ok: false, error: { kind: 'offline', message: NO_PACK_COVERS } });
  expect(grid).not.toHaveBeenCalled();
  expect(offlineStart).not.toHaveBeenCalled();
});

it('with the server only unreachable, an export tries the server again: it may be back', async () => {
  const grid = vi.fn().mockResolvedValue({ ok: true, data: { id: 'a6f1c1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b' } });
  vi.stubGlobal('tracker', { exports: { grid } });
  useConnectivity.setState({ reach: 'offline' });
  const query: ExportGridInput = { list: 'generators', format: 'xlsx', fields: ['epa_handler_id'] };
  const started = await startGridExport(query);
  expect(grid).toHaveBeenCalledOnce();
  expect(started).toEqual({
    ok: true,
    data: { id: 'a6f1c1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b', grid: query },
  });
  useConnectivity.setState({ reach: 'online' });
});
