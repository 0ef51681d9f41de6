/**
 * Every error a user can meet, in every view that loads data, as the user reads it: worded for them (the
 * server's own words only behind "Details"), shown once however many parts of the view it stopped, with a
 * Retry only where a second try could answer, and nothing saying "Loading" beside it. The expected words
 * and retry rules are written here from the issue, not read from the code that produces them.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReactElement } from 'react';
import { ERROR_KINDS, type ErrorKind, type Result } from '../../shared/ipc/contract.ts';
import { FilterPanel } from '../../renderer/src/components/filter-panel.tsx';
import { useSession } from '../../renderer/src/data/session.ts';
import { usePermissions } from '../../renderer/src/data/permissions.ts';
import { ExportButtons } from '../../renderer/src/exports/export-buttons.tsx';
import { useConnectivity } from '../../renderer/src/data/connectivity.ts';
import { GeneratorProfile } from '../../renderer/src/profile/generator-profile.tsx';
import { GENERATORS, GeneratorsWorkspace } from '../../renderer/src/workspaces/generators.tsx';
import { ManifestsWorkspace } from '../../renderer/src/workspaces/manifests.tsx';

/** What the server or main said, which must never be the sentence the user reads first. */
const RAW = 'body.searchKey: RAW-SERVER-WORDS';

/** The first words of each kind's sentence, and whether trying again could help. */
const EXPECTED: Record<Exclude<ErrorKind, 'cancelled'>, { words: RegExp; retries: boolean }> = {
  offline: { words: /could not be loaded offline\.$/, retries: true },
  timeout: { words: /^The server did not answer in time/, retries: true },
  server: { words: /^The server failed while loading/, retries: true },
  'invalid-response': {
    words: /^The server’s answer for .* could not be read|^The server's answer/,
    retries: true,
  },
  'rate-limited': { words: /^Too many attempts/, retries: true },
  'bad-request': { words: /^The server did not accept the request/, retries: false },
  'not-found': { words: /^The server has nothing to show|^No generator with EPA ID/, retries: false },
  forbidden: { words: /permission/, retries: false },
  unauthorized: { words: /^You are signed out/, retries: false },
};

function failure(kind: ErrorKind): Result<never> {
  const message = kind === 'rate-limited' ? 'Too many attempts; try again in 30 s.' : RAW;
  return { ok: false, error: { kind, message } };
}

type Tracker = Record<string, Record<string, ReturnType<typeof vi.fn>>>;

/** A window.tracker whose data methods all fail with `kind`. */
function install(kind: ErrorKind): Tracker {
  const fail = () => vi.fn(() => Promise.resolve(failure(kind)));
  const tracker: Tracker = {
    generators: { aggregate: fail(), list: fail(), lookup: fail(), detail: fail() },
    manifests: { aggregate: fail(), list: fail(), lookup: fail() },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
    exports: { grid: fail() },
  };
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

interface View {
  name: string;
  render: () => ReactElement;
  /** Opens what loads (a filter box) after the first render. */
  open?: () => void;
  /** The methods whose failure the view shows, each of which a Retry asks again. */
  asks: (tracker: Tracker) => ReturnType<typeof vi.fn>[];
  /** The view offers no Retry of its own (the user starts an export again with its buttons). */
  neverRetries?: boolean;
  /** A 403 here is no banner: the whole view says the permission is missing. */
  refusedWholly?: boolean;
}

const VIEWS: View[] = [
  {
    name: 'Generators workspace',
    render: () => <GeneratorsWorkspace hidden={false} />,
    asks: (t) => [t.generators!.aggregate!, t.generators!.list!],
    refusedWholly: true,
  },
  {
    name: 'Manifests workspace',
    render: () => <ManifestsWorkspace hidden={false} />,
    asks: (t) => [t.manifests!.aggregate!, t.manifests!.list!],
    refusedWholly: true,
  },
  {
    name: 'generator profile',
    render: () => <GeneratorProfile handlerId="TXD000000001" onClose={() => undefined} />,
    asks: (t) => [t.generators!.detail!],
  },
  {
    name: 'filter box',
    render: () => (
      <FilterPanel
        label="Generator filters"
        searchLabel="Search generators"
        store={GENERATORS.store}
        members={GENERATORS.members.filter((member) => member.member === 'states')}
        lookup={GENERATORS.lookup}
      />
    ),
    open: () => fireEvent.click(screen.getByRole('button', { name: 'State' })),
    asks: (t) => [t.generators!.lookup!],
  },
  {
    name: 'export buttons',
    render: () => (
      <ExportButtons noun="Generators" active start={() => window.tracker.exports.grid({} as never)} />
    ),
    open: () => fireEvent.click(screen.getByRole('button', { name: 'Export to Excel' })),
    asks: (t) => [t.exports!.grid!],
    neverRetries: true,
  },
];

beforeEach(() => {
  localStorage.clear();
  GENERATORS.store.getState().clearAll();
  useConnectivity.setState({ workOffline: false, browserOffline: false, reach: 'online' });
  usePermissions.setState({ refused: {} });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function signIn(kind: ErrorKind) {
  // A user who signed out meets "unauthorized" as an answer; a signed-in one would be asked to sign in.
  useSession.setState({
    status:
      kind === 'unauthorized'
        ? { signedIn: false, baseUrl: 'http://127.0.0.1:1' }
        : { signedIn: true, username: 'inspector', baseUrl: 'http://127.0.0.1:1' },
    expired: false,
  });
}

const kinds = ERROR_KINDS.filter((kind) => kind !== 'cancelled');

describe.each(VIEWS)('$name', (view) => {
  it.each(kinds)(
    'a %s failure is said once, in the user’s words, with Retry only where it can help',
    async (kind) => {
      signIn(kind);
      const tracker = install(kind);
      render(view.render());
      view.open?.();
      const expected = EXPECTED[kind];

      if (kind === 'forbidden' && view.refusedWholly) {
        // The session learns the permission is missing; the workspace then says so instead of asking.
        expect(
          await screen.findByRole('heading', { name: /are not available to you/ }, { timeout: 5000 }),
        ).toBeTruthy();
        expect(screen.queryByRole('alert')).toBeNull();
        expect(screen.queryByRole('button', { name: 'Export to Excel' })).toBeNull();
        expect(screen.queryByRole('button', { name: 'Make available offline' })).toBeNull();
        return;
      }

      const alert = await screen.findByRole('alert', undefined, { timeout: 5000 });
      // A failure that finds no server takes the app offline (data/connectivity.ts): the parts not yet
      // asked are answered from saved data, here none, without asking the network again.
      const noServer = kind === 'offline' || kind === 'timeout';
      // Every part that fails has answered before the view is judged.
      await waitFor(() => {
        const asked = view.asks(tracker).filter((method) => method.mock.calls.length > 0);
        if (noServer) expect(asked.length).toBeGreaterThan(0);
        else expect(asked).toHaveLength(view.asks(tracker).length);
      });
      await act(async () => {});
      expect(screen.getAllByRole('alert')).toHaveLength(1);
      const sentence = alert.querySelector('p')?.textContent ?? '';
      expect(sentence).toMatch(expected.words);
      expect(sentence).not.toContain('RAW-SERVER-WORDS');
      expect(document.body.textContent).not.toMatch(/Loading/);

      const retry = within(alert).queryByRole('button', { name: 'Retry' });
      const retries = expected.retries && !view.neverRetries;
      expect(retry !== null).toBe(retries);
      // Offline, Retry asks the connectivity probe first (its own tests); online, it asks the server again.
      if (retry && !noServer) {
        const before = view.asks(tracker).map((method) => method.mock.calls.length);
        fireEvent.click(retry);
        await waitFor(() =>
          expect(view.asks(tracker).some((method, index) => method.mock.calls.length > before[index]!)).toBe(
            true,
          ),
        );
      }
    },
  );

  it('a cancelled request shows nothing: only its caller cancels, and it no longer wants the answer', async () => {
    signIn('cancelled');
    const tracker = install('cancelled');
    render(view.render());
    view.open?.();
    await waitFor(() => expect(view.asks(tracker)[0]).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
