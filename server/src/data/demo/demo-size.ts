/** How large a demo database may be asked to be, and its seed when none is named (build-demo.ts). */

export const DEFAULT_SEED = 1;
/** Tracking numbers and memory stay well within bounds below this. */
export const MAX_DEMO_MANIFESTS = 100_000_000;
