/**
 * Signing in to a server that hangs: after a few seconds the form says the server has not answered yet,
 * naming it, and Cancel stops the attempt in main at once; an answer that comes after signs nobody in. Over
 * an expired session whose saved data is open, it offers to work offline with it instead; on the first
 * screen, where this computer holds saved data of the user, to sign in on this computer alone. Once the
 * server answers a user signed in here alone, the dialog asks them to sign in there, or to keep working
 * offline.
 */
import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Result, SessionStatus } from '../../shared/ipc/contract.ts';
import { NO_ANSWER_YET_MS, SessionDialog, SignIn } from '../../renderer/src/components/sign-in.tsx';
import { useConnectivity } from '../../renderer/src/data/connectivity.ts';
import { followSession } from '../../renderer/src/data/tracker-data.ts';
import { sessionChanged, useSession, waitForSignIn } from '../../renderer/src/data/session.ts';
import { databaseName } from '../../renderer/src/offline/database.ts';
import { activateOfflineStore, activeDatabase } from '../../renderer/src/offline/offline-store.ts';
import { createPack } from '../../renderer/src/offline/pack-download.ts';

const SERVER = 'http://127.0.0.1:4010';
const SIGNED_IN: SessionStatus = {
  signedIn: true,
  username: 'inspector',
  baseUrl: SERVER,
  remembered: false,
};
const SIGNED_IN_HERE: SessionStatus = {
  signedIn: false,
  offline: true,
  username: 'inspector',
  scopes: ['generators', 'manifests'],
  baseUrl: SERVER,
};

/** jsdom has no modal dialogs: opening one only marks it open. */
function dialogsOpen() {
  HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
    this.open = true;
  };
}

/** A main whose sign-in waits for the test to answer it. */
function install() {
  let answer!: (result: Result<SessionStatus>) => void;
  const tracker = {
    session: {
      signIn: vi.fn(
        (_input: unknown, _options: { requestId: string }) =>
          new Promise<Result<SessionStatus>>((resolve) => (answer = resolve)),
      ),
    },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true as const, data: null })) },
  };
  // Only the methods these screens reach; the data layer reads window.tracker at call time.
  vi.stubGlobal('tracker', tracker);
  return { tracker, answerLate: (result: Result<SessionStatus>) => answer(result) };
}

/** The inspector's saved data on this computer: a pack, their database left open. */
async function savedPackOfInspector(): Promise<void> {
  activateOfflineStore({ baseUrl: SERVER, username: 'inspector' });
  await createPack(activeDatabase()!, { list: 'manifests', filterFields: {}, searchKey: '' }, 'All');
}

/** "Work offline", once the form has waited for the server long enough to offer it. */
function offeredWorkOffline(): Promise<HTMLElement> {
  return screen.findByRole('button', { name: 'Work offline' }, { timeout: NO_ANSWER_YET_MS + 2_000 });
}

function submit() {
  fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'inspector' } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

beforeEach(() => {
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
});
afterEach(() => {
  cleanup();
  activateOfflineStore(null);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('signing in while the server does not answer', () => {
  it('says so after a few seconds, naming the server, and Cancel stops the attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    useSession.setState({ status: { signedIn: false, baseUrl: SERVER }, expired: false });
    const { tracker, answerLate } = install();
    render(<SignIn />);
    submit();
    expect(screen.queryByRole('status')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(NO_ANSWER_YET_MS);
    });
    expect(screen.getByRole('status').textContent).toContain(`No answer yet from ${SERVER}.`);
    // Nothing to work offline with before anyone has signed in (the look for saved data has finished).
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByRole('button', { name: 'Work offline' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel sign-in' }));
    const [, options] = tracker.session.signIn.mock.calls[0]!;
    expect(tracker.requests.cancel).toHaveBeenCalledWith({ id: options.requestId });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false);

    answerLate({ ok: true, data: SIGNED_IN });
    // The late answer has had its turn.
    await act(() => Promise.resolve());
    expect(useSession.getState().status).toEqual({ signedIn: false, baseUrl: SERVER });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('over an expired session with saved data, offers to work offline with it instead', async () => {
    useSession.setState({ status: SIGNED_IN, expired: true });
    await savedPackOfInspector();
    const { tracker } = install();
    dialogsOpen();
    render(<SessionDialog />);
    submit();
    const workOffline = await offeredWorkOffline();
    expect(screen.getByRole('status').textContent).toContain('work offline with the data saved');
    fireEvent.click(workOffline);
    expect(useConnectivity.getState().workOffline).toBe(true);
    expect(tracker.requests.cancel).toHaveBeenCalledTimes(1);
  });

  it('on the first screen, with saved data of the user here, signs in on this computer alone instead', async () => {
    useSession.setState({ status: { signedIn: false, baseUrl: SERVER }, expired: false });
    // The user worked here before: their database is on this computer, closed.
    await savedPackOfInspector();
    activateOfflineStore(null);
    const { tracker, answerLate } = install();
    render(<SignIn />);
    submit();
    const workOffline = await offeredWorkOffline();
    fireEvent.click(workOffline);
    // The attempt at the server stops, and the same credentials go to main to be checked here alone.
    expect(tracker.requests.cancel).toHaveBeenCalledTimes(1);
    expect(tracker.session.signIn).toHaveBeenCalledTimes(2);
    expect(tracker.session.signIn.mock.calls[1]![0]).toEqual({
      username: 'inspector',
      password: 'secret',
      remember: false,
      offline: true,
    });
    answerLate({ ok: true, data: SIGNED_IN_HERE });
    await act(() => Promise.resolve());
    expect(useSession.getState()).toMatchObject({ status: SIGNED_IN_HERE, expired: true });
    // No server answered: the saved data answers at once, and the probe looks for the server.
    expect(useConnectivity.getState().reach).toBe('offline');
  });

  it("on the first screen, with the user's database here but nothing saved in it, offers nothing", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    useSession.setState({ status: { signedIn: false, baseUrl: SERVER }, expired: false });
    // The user signed in here once and saved nothing: their database exists, empty.
    await Dexie.delete(databaseName(SERVER, 'inspector'));
    activateOfflineStore({ baseUrl: SERVER, username: 'inspector' });
    await activeDatabase()!.open();
    activateOfflineStore(null);
    install();
    render(<SignIn />);
    submit();
    act(() => {
      vi.advanceTimersByTime(NO_ANSWER_YET_MS);
    });
    expect(screen.getByRole('status').textContent).toContain(`No answer yet from ${SERVER}.`);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByRole('button', { name: 'Work offline' })).toBeNull();
  });
});

describe('signed in on this computer alone', () => {
  it('a window opened again starts offline, on the saved data, until the probe finds the server', async () => {
    useSession.setState({ status: null, expired: false });
    vi.stubGlobal('tracker', {
      session: { status: vi.fn(() => Promise.resolve({ ok: true, data: SIGNED_IN_HERE })) },
      on: vi.fn(() => () => undefined),
    });
    const stop = followSession();
    await vi.waitFor(() => expect(useSession.getState().status).toEqual(SIGNED_IN_HERE));
    expect(useSession.getState().expired).toBe(true);
    expect(useConnectivity.getState().reach).toBe('offline');
    stop();
  });

  it('keeps the saved data open, and a call that needs the server waits for a sign-in there', async () => {
    useSession.setState({ status: { signedIn: false, baseUrl: SERVER }, expired: false });
    sessionChanged(SIGNED_IN_HERE, 'signed-in');
    expect(useSession.getState()).toMatchObject({ status: SIGNED_IN_HERE, expired: true });
    let settled: boolean | undefined;
    void waitForSignIn().then((retry) => (settled = retry));
    await act(() => Promise.resolve());
    expect(settled).toBeUndefined();
    sessionChanged(SIGNED_IN, 'signed-in');
    await act(() => Promise.resolve());
    expect(settled).toBe(true);
    expect(useSession.getState()).toMatchObject({ status: SIGNED_IN, expired: false });
  });

  it('once the server answers, the dialog asks to sign in there, or to keep working offline', () => {
    useSession.setState({ status: SIGNED_IN_HERE, expired: true });
    install();
    dialogsOpen();
    render(<SessionDialog />);
    expect(screen.getByRole('heading', { name: 'The server answers again' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('User name').value).toBe('inspector');
    fireEvent.click(screen.getByRole('button', { name: 'Keep working offline' }));
    expect(useConnectivity.getState().workOffline).toBe(true);
  });
});
