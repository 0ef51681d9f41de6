/**
 * The data pipeline on the window, for the benchmark that drives the app in Chromium through the loopback
 * bridge (bench/offline.ts): it sends generated requests through the pipeline exactly as a view does and
 * reads the pipeline's own user timings. Installed only when the page's address asks for it (`?probe`);
 * the desktop window loads the app without a query string, so it never has it. It grants nothing new: page
 * code can already call window.tracker, and this only runs the renderer's own pipeline over it.
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

export function installProbe(address: Location): void {
  if (!new URLSearchParams(address.search).has('probe')) return;
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
}
