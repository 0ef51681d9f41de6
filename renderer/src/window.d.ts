import type { TrackerApi } from '../../shared/ipc/contract.ts';

declare global {
  interface Window {
    /** The only door out of the renderer: exposed by the preload, typed by the IPC contract. */
    readonly tracker: TrackerApi;
  }
}
