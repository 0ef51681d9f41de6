/**
 * The data pipeline on the window, for the benchmark that drives the app in Chromium through the loopback
 * bridge (bench/offline.ts): it sends generated requests through the pipeline exactly as a view does and
 * reads the pipeline's own user timings. Only the benchmarks' build loads it, beside the app's entry
 * (bench/probe/electron.vite.config.ts); the app's own build and entry (main.tsx) never import it, so no
 * shipped renderer has it.
 */
import type { TrackerRequestName, TrackerRequests } from '../../../shared/query/canonical.ts';
import { request } from './pipeline.ts';

/** What the probe tells of an answer: where it came from, and a list's total to check it by. */
export type ProbeAnswer =
  | { ok: true; source: 'network' | 'cache'; totalElements?: number }
  | { ok: false; kind: string; message: string };

export interface PipelineProbe {
  request<Name extends TrackerRequestName>(name: Name, input: TrackerRequests[Name]): Promise<ProbeAnswer>;
}

declare global {
  interface Window {
    trackerProbe?: PipelineProbe;
  }
}

window.trackerProbe = {
  request: async (name, input) => {
    const answer = await request(name, input);
    if (!answer.ok) return { ok: false, kind: answer.error.kind, message: answer.error.message };
    const { totalElements } = answer.data as { totalElements?: unknown };
    return {
      ok: true,
      source: answer.source,
      ...(typeof totalElements === 'number' ? { totalElements } : {}),
    };
  },
};
