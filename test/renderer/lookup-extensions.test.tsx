/**
 * The generator filter panel against a server that implements only the spec, as it answers (a 400 for the
 * shipped_year and status lookup fields): the panel never breaks. The shipped years are read from the
 * first and last shipment instead, the Status box says in one line why it has nothing to offer, a refused
 * field is not asked again, and a spec lookup that fails is shown as the failure it is.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LookupResult, ManifestRecord } from '../../shared/api/index.ts';
import type { Result } from '../../shared/ipc/contract.ts';
import { FilterPanel } from '../../renderer/src/components/filter-panel.tsx';
import { useLookupExtensions } from '../../renderer/src/data/lookup-extensions.ts';
import { useSession } from '../../renderer/src/data/session.ts';
import { GENERATORS } from '../../renderer/src/workspaces/generators.tsx';

/** A spec server's answer to a lookup field it does not list. */
const UNKNOWN_FIELD = {
  ok: false as const,
  error: {
    kind: 'bad-request' as const,
    message: 'Query.field: Invalid option: expected one of "generator_city"|"naics"|…',
  },
};

function manifestsAt(date: string): Result<{ totalElements: number; content: ManifestRecord[] }> {
  return { ok: true, data: { totalElements: 5, content: [{ shipped_date: date }] } };
}

function install(lookup: (input: { field: string }) => Result<LookupResult>) {
  const tracker = {
    generators: { lookup: vi.fn((input: { field: string }) => Promise.resolve(lookup(input))) },
    manifests: {
      // The canonical request leaves out the default order (shipped_date desc), as the server reads it.
      list: vi.fn((input: { pageInfo: { sort?: string } }) =>
        Promise.resolve(manifestsAt(input.pageInfo.sort?.endsWith('asc') ? '2019-03-04' : '2022-11-30')),
      ),
    },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
  };
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

const specOnly = (input: { field: string }): Result<LookupResult> =>
  input.field === 'shipped_year' || input.field === 'status'
    ? UNKNOWN_FIELD
    : { ok: true, data: { results: [{ value: 'TX', text: 'TX' }], pagination: { more: false } } };

function renderPanel() {
  render(
    <FilterPanel
      label="Generator filters"
      searchLabel="Search generators"
      store={GENERATORS.store}
      members={GENERATORS.members}
      lookup={GENERATORS.lookup}
    />,
  );
}

beforeEach(() => {
  localStorage.clear();
  GENERATORS.store.getState().clearAll();
  useLookupExtensions.setState({ refused: {} });
  useSession.setState({
    status: { signedIn: true, username: 'inspector', baseUrl: 'http://spec-only.example:1' },
    expired: false,
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the filter panel against a server without this server’s lookups', () => {
  it('finds the shipped years from the first and last shipment, and filters by them', async () => {
    const tracker = install(specOnly);
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Shipped year' }));
    const years = await screen.findByRole('list', { name: 'Shipped year options' });
    await waitFor(() =>
      expect(
        within(years)
          .getAllByRole('checkbox')
          .map((box) => box.parentElement?.textContent),
      ).toEqual(['2019', '2020', '2021', '2022']),
    );
    expect(screen.getByRole('note').textContent).toMatch(/lists no shipped years/);
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(within(years).getByRole('checkbox', { name: '2021' }));
    expect(GENERATORS.store.getState().filterFields).toEqual({ shippedYears: ['2021'] });

    // Closed and opened again, the box does not ask the server for the field it refused.
    fireEvent.click(screen.getByRole('button', { name: /^Shipped year/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Shipped year/ }));
    await screen.findByRole('checkbox', { name: '2022' });
    const asked = tracker.generators.lookup.mock.calls.filter(
      (call) => (call as unknown as [{ field: string }])[0].field === 'shipped_year',
    );
    expect(asked).toHaveLength(1);
  });

  it('says in one line why the Status box has nothing to pick, and raises no error', async () => {
    install(specOnly);
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Status' }));
    expect((await screen.findByRole('note')).textContent).toBe(
      'This server lists no status values, so there are none to pick from.',
    );
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // The spec's lookups still work.
    fireEvent.click(screen.getByRole('button', { name: 'State' }));
    expect(await screen.findByRole('checkbox', { name: 'TX' })).toBeTruthy();
  });

  it('shows a failing spec lookup as the failure it is, not as a missing lookup', async () => {
    install(() => UNKNOWN_FIELD);
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'State' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/did not accept the request/);
    expect(screen.queryByRole('note')).toBeNull();
  });
});

describe('a search the server would refuse', () => {
  it('is not sent; the field says why and removes the control character when asked', async () => {
    vi.useFakeTimers();
    try {
      install(specOnly);
      renderPanel();
      const search = screen.getByRole('searchbox', { name: 'Search generators' });
      fireEvent.change(search, { target: { value: 'acme\u0007' } });
      await vi.advanceTimersByTimeAsync(1000);
      expect(GENERATORS.store.getState().searchKey).toBe('');
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toMatch(
        /^The search holds an invisible control character \(U\+0007\) at character 5/,
      );
      expect(search.getAttribute('aria-invalid')).toBe('true');
      fireEvent.click(within(alert).getByRole('button', { name: 'Remove it' }));
      await vi.advanceTimersByTimeAsync(1000);
      expect(GENERATORS.store.getState().searchKey).toBe('acme');
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
