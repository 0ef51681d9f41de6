/**
 * A window.tracker over an in-memory dataset for the offline tests: list pages sorted and paged as the
 * server pages them (manifests filtered by generator name, generators by id when asked), details one by
 * one or in batches (with each generator's own totals: one manifest per dataset row naming it, one ton and
 * two containers each), and a switch that makes every request fail as if the network were gone. It records
 * the pages asked for, to show what a resumed download asks again.
 */
import { vi } from 'vitest';
import type { GeneratorDetail, GeneratorRecord } from '../../../shared/api/index.ts';
import type { ManifestRecord } from '../../../shared/api/manifests.ts';
import type { Result } from '../../../shared/ipc/contract.ts';

export interface Dataset {
  manifests: ManifestRecord[];
  generators: GeneratorRecord[];
}

export function dataset(manifests: number, generators: number): Dataset {
  const gens: GeneratorRecord[] = Array.from({ length: generators }, (_, index) => ({
    epa_handler_id: `TXD${String(index).padStart(9, '0')}`,
    generator_name: `Generator ${index}`,
    location_state: 'TX',
  }));
  // Tracking numbers out of order, so the download's own sort is what makes pages stable. Every field a
  // manifest has, so the engine indexes a completed pack.
  const rows: ManifestRecord[] = Array.from({ length: manifests }, (_, index) => ({
    manifest_tracking_number: `${String((index * 7919) % 100_000).padStart(9, '0')}ELC`,
    generator_name: gens[index % generators]!.generator_name!,
    transporter: 'Rapid Haul',
    designated_facility_name: 'Clean Harbors',
    shipped_date: '2024-01-01',
    received_date: '2024-01-03',
    total_waste_quantity_tons: 1.5,
    container_count: 2,
    waste_stream_count: 0,
    generator_location_state: 'TX',
    generator_epa_id: gens[index % generators]!.epa_handler_id!,
    waste_lines: [],
  }));
  return { manifests: rows, generators: gens };
}

type ListInput = {
  pageInfo: { page: number; pageSize: number; sort?: string };
  filterFields?: { ids?: string[]; generator_names?: string[] };
};

const offline = { ok: false as const, error: { kind: 'offline' as const, message: 'Nothing answers.' } };

function detailOf(id: string): GeneratorDetail {
  // Only the field the offline code reads; the rest of a detail plays no part here.
  return { generator_data: { epa_handler_id: id } } as unknown as GeneratorDetail;
}

export function installTracker(data: Dataset) {
  const totalsOf = (id: string) => {
    const manifests = data.manifests.filter((row) => row.generator_epa_id === id).length;
    return { epa_total: manifests, shipped_count: manifests, container_count: 2 * manifests, mmc_count: 1 };
  };
  const state = { down: false, failAfter: Infinity, calls: 0 };
  const answer = <T>(value: T): Promise<Result<T>> => {
    state.calls += 1;
    if (state.down || state.calls > state.failAfter) return Promise.resolve(offline);
    return Promise.resolve({ ok: true, data: value });
  };
  const page = <Row>(rows: Row[], key: (row: Row) => string, input: ListInput) => {
    const sorted = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const start = input.pageInfo.page * input.pageInfo.pageSize;
    return { totalElements: sorted.length, content: sorted.slice(start, start + input.pageInfo.pageSize) };
  };
  const tracker = {
    manifests: {
      list: vi.fn((input: ListInput) => {
        const names = input.filterFields?.generator_names;
        const rows = names
          ? data.manifests.filter((row) => names.includes(row.generator_name!))
          : data.manifests;
        return answer(page(rows, (row) => row.manifest_tracking_number!, input));
      }),
    },
    generators: {
      list: vi.fn((input: ListInput) => {
        const ids = input.filterFields?.ids;
        const rows = ids
          ? data.generators.filter((row) => ids.includes(row.epa_handler_id!))
          : data.generators;
        return answer(page(rows, (row) => row.epa_handler_id!, input));
      }),
      detail: vi.fn((input: { handler_id: string }) => answer(detailOf(input.handler_id))),
      details: vi.fn((input: { ids: string[]; totals?: boolean }) => {
        const known = new Set(data.generators.map((row) => row.epa_handler_id));
        return answer({
          found: input.ids
            .filter((id) => known.has(id))
            .map((id) => ({ detail: detailOf(id), ...(input.totals ? { totals: totalsOf(id) } : {}) })),
          missing: input.ids.filter((id) => !known.has(id)),
        });
      }),
    },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
  };
  // Only the methods the offline code reaches; the pipeline resolves window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return { tracker, state };
}
