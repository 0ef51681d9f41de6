/**
 * The renderer's half of an export of offline data, without a page: which list request reads each page of
 * the pack, and how the rows go to main: in chunks no larger than the contract allows, each awaited, every
 * page until the total, stopping at the first chunk main refuses and saying why when the pack fails.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../shared/api/index.ts';
import type { Result } from '../../../shared/ipc/contract.ts';
import {
  OFFLINE_CHUNK_LINES,
  OFFLINE_CHUNK_ROWS,
  chunkLines,
  type ExportGridInput,
} from '../../../shared/ipc/exports.ts';
import {
  chunksOf,
  pageRequest,
  sendOfflineRows,
  type ListRequest,
} from '../../../renderer/src/exports/offline-rows.ts';

const manifests: ExportGridInput = {
  list: 'manifests',
  format: 'xlsx',
  searchKey: 'acme',
  sort: 'shipped_date asc',
  fields: ['manifest_tracking_number', 'shipped_date', 'manifest_tracking_number'],
};

describe('the chunks of a page', () => {
  it('keep every row once, in order, within the rows and the waste lines a chunk may hold', () => {
    const rows = Array.from({ length: 500 }, (_, index) => ({
      manifest_tracking_number: String(index),
      waste_lines: Array.from({ length: index % 50 === 0 ? 900 : 3 }, () => ({})),
    }));
    const chunks = [...chunksOf(rows)];
    expect(chunks.flat()).toEqual(rows);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(OFFLINE_CHUNK_ROWS);
      expect(chunkLines(chunk)).toBeLessThanOrEqual(OFFLINE_CHUNK_LINES);
    }
    expect(chunks.length).toBeGreaterThan(2);
  });
});

describe('the list request of a page', () => {
  it.each([
    [
      'a workbook of manifests adds their waste lines',
      manifests,
      'manifest_tracking_number,shipped_date,waste_lines',
    ],
    [
      'a CSV of manifests has no room for them',
      { ...manifests, format: 'csv' },
      'manifest_tracking_number,shipped_date',
    ],
    [
      'generators have none',
      { list: 'generators', format: 'xlsx', fields: ['epa_handler_id', 'total_waste'] },
      'epa_handler_id,total_waste',
    ],
  ] as [string, ExportGridInput, string][])('%s', (_name, query, selectedFields) => {
    const request = pageRequest(query, 3);
    expect(request.name).toBe(`${query.list}.list`);
    expect(request.input.pageInfo).toEqual({
      page: 3,
      pageSize: LIMITS.pageSizeMax,
      selectedFields,
      ...(query.sort ? { sort: query.sort } : {}),
    });
    expect(request.input.searchKey).toBe(query.searchKey ?? '');
  });
});

/** A pack of `total` rows and a main that records each chunk, refusing the `refuse`-th. */
function wire(total: number, refuse?: number) {
  const chunks: number[] = [];
  const pages: number[] = [];
  const ends: (string | undefined)[] = [];
  return {
    chunks,
    pages,
    ends,
    channel: {
      page: (request: ListRequest) => {
        const { page, pageSize } = request.input.pageInfo;
        pages.push(page);
        const length = Math.max(0, Math.min(pageSize, total - page * pageSize));
        return Promise.resolve({ totalElements: total, content: Array.from({ length }, (_, i) => i) });
      },
      send: (_total: number, rows: readonly unknown[]): Promise<Result<null>> => {
        chunks.push(rows.length);
        return Promise.resolve(
          chunks.length === refuse
            ? { ok: false, error: { kind: 'cancelled', message: 'The export has ended.' } }
            : { ok: true, data: null },
        );
      },
      end: (failure?: string): Promise<Result<null>> => {
        ends.push(failure);
        return Promise.resolve({ ok: true, data: null });
      },
    },
  };
}

describe('sending the rows', () => {
  it('sends every page in chunks the contract allows, then ends', async () => {
    const { channel, chunks, pages, ends } = wire(1_100);
    await sendOfflineRows(manifests, channel);
    expect(pages).toEqual([0, 1, 2]);
    expect(chunks).toEqual([250, 250, 250, 250, 100]);
    expect(Math.max(...chunks)).toBeLessThanOrEqual(OFFLINE_CHUNK_ROWS);
    expect(ends).toEqual([undefined]);
  });

  it('ends an empty export after asking once', async () => {
    const { channel, chunks, pages, ends } = wire(0);
    await sendOfflineRows(manifests, channel);
    expect([pages, chunks, ends]).toEqual([[0], [], [undefined]]);
  });

  it('stops at the first chunk main refuses, without ending what main already ended', async () => {
    const { channel, chunks, ends } = wire(1_100, 2);
    await sendOfflineRows(manifests, channel);
    expect(chunks).toEqual([250, 250]);
    expect(ends).toEqual([]);
  });

  it('fails the export with the reason the pack could not be read', async () => {
    const { channel, ends } = wire(1_100);
    await sendOfflineRows(manifests, {
      ...channel,
      page: (request) =>
        request.input.pageInfo.page === 1
          ? Promise.reject(new Error('The offline engine stopped.'))
          : channel.page(request),
    });
    expect(ends).toEqual(['The offline data could not be read: The offline engine stopped.']);
  });
});
