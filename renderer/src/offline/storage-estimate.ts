/**
 * Bytes of saved data in this origin, and what the browser allows, when it says: the Offline data screen's
 * storage line. Kept apart from packs.ts, which then reads stored packs with no DOM at all (as the Node tests
 * of stored data do).
 */
export async function storageEstimate(): Promise<{ usage?: number; quota?: number }> {
  if (typeof navigator === 'undefined' || !navigator.storage?.estimate) return {};
  const { usage, quota } = await navigator.storage.estimate();
  return { ...(usage === undefined ? {} : { usage }), ...(quota === undefined ? {} : { quota }) };
}
