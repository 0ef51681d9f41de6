/**
 * The exports panel across sessions on a shared desktop: an export stopped by its user's sign-out stays on
 * the sign-in screen saying why, and the same user signing in again still sees it; another user, or the same
 * name on another server, signing in next never sees it. Over an expired session, whoever signs in at the
 * prompt is the one at the keyboard, and reads why the export stopped.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionChanged } from '../../renderer/src/data/session.ts';
import { useExports } from '../../renderer/src/exports/export-store.ts';
import { followSessionForOffline } from '../../renderer/src/session-binding.ts';

const SERVER = 'http://127.0.0.1:4010';
const ID = '0b8f0a2c-3c2e-4a55-9d8e-3b1f6f0d2a11';
let stop: () => void = () => undefined;

function signIn(username: string, baseUrl = SERVER) {
  sessionChanged({ signedIn: true, username, baseUrl }, 'signed-in');
}

function signOut() {
  sessionChanged({ signedIn: false, baseUrl: SERVER }, 'signed-out');
}

/** inspector's export, stopped by their sign-out as main reports it. */
function stoppedBySignOut() {
  signIn('inspector');
  useExports.getState().started(ID, 'Manifests to Excel');
  signOut();
  useExports.getState().apply({
    kind: 'failed',
    payload: { id: ID, message: 'You signed out, so the export stopped; no file was written.' },
  });
}

const titles = () => useExports.getState().entries.map((entry) => `${entry.title}: ${entry.message ?? ''}`);

beforeEach(() => {
  // The server's reach is probed through main; here it never answers, which nothing below waits on.
  vi.stubGlobal('tracker', {
    on: () => () => undefined,
    session: { probe: () => new Promise(() => undefined) },
  });
  stop = followSessionForOffline();
});
afterEach(() => {
  stop();
  vi.unstubAllGlobals();
  useExports.setState({ entries: [] });
});

describe('the exports panel across sessions', () => {
  it('keeps the stopped export for the sign-in screen and for the same user signing in again', () => {
    stoppedBySignOut();
    expect(titles()).toEqual([
      'Manifests to Excel: You signed out, so the export stopped; no file was written.',
    ]);
    signIn('inspector');
    expect(titles()).toHaveLength(1);
  });

  it('drops it when another user signs in next', () => {
    stoppedBySignOut();
    signIn('generators-only');
    expect(titles()).toEqual([]);
  });

  it('keeps it, over an expired session, for the one who signs in as someone else to read why', () => {
    signIn('inspector');
    useExports.getState().started(ID, 'Manifests to Excel');
    sessionChanged({ signedIn: false, baseUrl: SERVER }, 'expired');
    signIn('generators-only');
    useExports.getState().apply({
      kind: 'failed',
      payload: {
        id: ID,
        message: 'generators-only signed in, so the export for inspector stopped; no file was written.',
      },
    });
    expect(titles()).toEqual([
      'Manifests to Excel: generators-only signed in, so the export for inspector stopped; no file was written.',
    ]);
  });

  it('drops it when the same name signs in to another server', () => {
    stoppedBySignOut();
    signIn('inspector', 'http://127.0.0.1:4011');
    expect(titles()).toEqual([]);
  });
});
