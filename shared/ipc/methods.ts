/**
 * The names in the IPC contract, as plain data: every group's methods, every event, and their channels. The
 * preload builds `window.tracker` from this list alone, so its bundle carries no zod and no schema; a test
 * holds this list equal to the contract's keys (shared/ipc/contract.ts), which stays the one source.
 */

export const METHOD_NAMES = {
  session: ['signIn', 'signOut', 'signOutAndRemoveData', 'status', 'probe'],
  settings: ['get', 'set', 'testConnection'],
  generators: ['aggregate', 'list', 'lookup', 'detail', 'details'],
  manifests: ['aggregate', 'list', 'lookup'],
  requests: ['cancel'],
  exports: ['grid', 'profile', 'cancel', 'offlineStart', 'offlineChunk', 'offlineEnd'],
  shell: ['openExternal'],
} as const;

export const EVENT_NAMES = [
  'session.changed',
  'export.progress',
  'export.done',
  'export.failed',
  'menu.command',
] as const;

/** The IPC channel of one method; every channel starts with "tracker:". */
export function channelOf(group: string, method: string): string {
  return `tracker:${group}.${method}`;
}

export function eventChannelOf(event: string): string {
  return `tracker-event:${event}`;
}
