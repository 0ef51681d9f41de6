import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GeneratorFilterFields, type LookupResult } from '../../shared/api/index.ts';
import type { Result } from '../../shared/ipc/contract.ts';
import { FilterPanel } from '../../renderer/src/components/filter-panel.tsx';
import { setStateOwner } from '../../renderer/src/state/user-storage.ts';
import { createWorkspaceStore, type WorkspaceStore } from '../../renderer/src/state/workspace-store.ts';

const MEMBERS = [
  { member: 'states', field: 'generator_state', label: 'State' },
  { member: 'cities', field: 'generator_city', label: 'City' },
  { member: 'naics', field: 'naics', label: 'NAICS' },
] as const;

const VALUES: Record<string, string[]> = {
  generator_state: ['CA', 'CO', 'TX'],
  generator_city: ['Albany', 'Boston'],
  naics: ['325110', '562211'],
};

/** As the server sends them (spec 2.7): NAICS text is the code, a hyphen and the description. */
const TEXTS: Record<string, string> = {
  '325110': '325110 - Petrochemical Manufacturing',
  '562211': '562211 - Hazardous Waste Treatment and Disposal',
};

function lookup(field: string, search: string): Promise<Result<LookupResult>> {
  const values = (VALUES[field] ?? []).filter((v) => v.toLowerCase().includes(search.toLowerCase()));
  return Promise.resolve({
    ok: true,
    data: {
      results: values.map((value) => ({ value, text: TEXTS[value] ?? value })),
      pagination: { more: false },
    },
  });
}

async function flush(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

let store: WorkspaceStore<GeneratorFilterFields>;
let storeCount = 0;

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  // The state is a signed-in user's, as in the app.
  setStateOwner({ baseUrl: 'http://127.0.0.1:4010', username: 'inspector' });
  storeCount += 1;
  store = createWorkspaceStore(`test-${storeCount}`, GeneratorFilterFields);
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderPanel() {
  const lookupSpy = vi.fn(lookup);
  render(
    <FilterPanel
      label="Generator filters"
      searchLabel="Search generators"
      store={store}
      members={MEMBERS}
      lookup={lookupSpy}
    />,
  );
  return lookupSpy;
}

describe('FilterPanel', () => {
  it('asks a lookup only once its box is opened, and picked values become filter members', async () => {
    const lookupSpy = renderPanel();
    await flush(300);
    expect(lookupSpy).not.toHaveBeenCalled();
    const toggle = screen.getByRole('button', { name: 'State' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    await flush(300);
    expect(lookupSpy).toHaveBeenCalledWith('generator_state', '', 1, expect.any(AbortSignal));
    fireEvent.click(screen.getByRole('checkbox', { name: 'CA' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'TX' }));
    expect(store.getState().filterFields).toEqual({ states: ['CA', 'TX'] });
    expect(screen.getByRole('button', { name: /^State/ }).textContent).toContain('2 selected');
  });

  it('shows active filters as chips that remove one value, and "Clear all" clears filters and search', () => {
    store.getState().setMembers({ states: ['CA', 'CO'], cities: ['Albany'] });
    store.getState().setSearchKey('chem');
    renderPanel();
    const chips = screen.getByRole('group', { name: 'Active filters' });
    expect(
      within(chips)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'Remove filter State: CA',
      'Remove filter State: CO',
      'Remove filter City: Albany',
      'Remove filter Search: chem',
      null,
    ]);
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove filter State: CA' }));
    expect(store.getState().filterFields).toEqual({ states: ['CO'], cities: ['Albany'] });
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove filter City: Albany' }));
    expect(store.getState().filterFields).toEqual({ states: ['CO'] });
    fireEvent.click(within(chips).getByRole('button', { name: 'Clear all' }));
    expect(store.getState().filterFields).toEqual({});
    expect(store.getState().searchKey).toBe('');
    expect(screen.queryByRole('group', { name: 'Active filters' })).toBeNull();
  });

  it('shows a picked NAICS code with its description, across a restart, and forgets it once removed', async () => {
    renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'NAICS' }));
    await flush(300);
    fireEvent.click(screen.getByRole('checkbox', { name: '325110 - Petrochemical Manufacturing' }));
    fireEvent.click(
      screen.getByRole('checkbox', { name: '562211 - Hazardous Waste Treatment and Disposal' }),
    );
    expect(store.getState().filterFields).toEqual({ naics: ['325110', '562211'] });
    const chips = screen.getByRole('group', { name: 'Active filters' });
    expect(
      within(chips)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'NAICS: 325110 – Petrochemical Manufacturing ×',
      'NAICS: 562211 – Hazardous Waste Treatment and Disposal ×',
      'Clear all',
    ]);

    cleanup();
    const again = createWorkspaceStore(`test-${storeCount}`, GeneratorFilterFields);
    store = again;
    renderPanel();
    const restored = screen.getByRole('group', { name: 'Active filters' });
    fireEvent.click(
      within(restored).getByRole('button', {
        name: 'Remove filter NAICS: 325110 – Petrochemical Manufacturing',
      }),
    );
    expect(again.getState().filterFields).toEqual({ naics: ['562211'] });
    expect(again.getState().pickedTexts).toEqual({
      naics: { '562211': '562211 - Hazardous Waste Treatment and Disposal' },
    });
    fireEvent.click(within(restored).getByRole('button', { name: 'Clear all' }));
    expect(again.getState().pickedTexts).toEqual({});
  });

  it('shows a code alone when its text is unknown or says no more, and keeps no text for such values', async () => {
    store.getState().setMembers({ naics: ['999999'] });
    renderPanel();
    expect(screen.getByRole('button', { name: 'Remove filter NAICS: 999999' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'State' }));
    await flush(300);
    fireEvent.click(screen.getByRole('checkbox', { name: 'TX' }));
    expect(screen.getByRole('button', { name: 'Remove filter State: TX' })).toBeTruthy();
    expect(store.getState().pickedTexts).toEqual({});
  });

  it('sets the search after typing pauses, at once on Enter, and follows a search cleared elsewhere', async () => {
    renderPanel();
    const box = screen.getByRole('searchbox', { name: 'Search generators' });
    fireEvent.change(box, { target: { value: 'ch' } });
    fireEvent.change(box, { target: { value: 'chem' } });
    await flush(100);
    expect(store.getState().searchKey).toBe('');
    await flush(300);
    expect(store.getState().searchKey).toBe('chem');
    fireEvent.change(box, { target: { value: 'chemical' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(store.getState().searchKey).toBe('chemical');
    act(() => store.getState().clearAll());
    expect((box as HTMLInputElement).value).toBe('');
  });

  it('keeps what the user picked across a restart (persisted filters, search, sort and columns)', () => {
    store.getState().setMembers({ states: ['TX'] });
    store.getState().setSearchKey('acid');
    store.getState().setSort({ field: 'total_waste', direction: 'desc' });
    store.getState().setColumns(['epa_handler_id', 'total_waste']);
    const again = createWorkspaceStore(`test-${storeCount}`, GeneratorFilterFields);
    const { filterFields, searchKey, sort, columns } = again.getState();
    expect({ filterFields, searchKey, sort, columns }).toEqual({
      filterFields: { states: ['TX'] },
      searchKey: 'acid',
      sort: { field: 'total_waste', direction: 'desc' },
      columns: ['epa_handler_id', 'total_waste'],
    });
  });

  it('keeps a saved text only for a value that is still picked', () => {
    localStorage.setItem(
      `waste-tracker.workspace.test-${storeCount}`,
      JSON.stringify({
        state: {
          filterFields: { naics: ['325110'] },
          pickedTexts: {
            naics: { '325110': '325110 - Petrochemical Manufacturing', '111111': '111111 - Gone' },
            states: { TX: 'Texas' },
          },
        },
        version: 1,
      }),
    );
    const again = createWorkspaceStore(`test-${storeCount}`, GeneratorFilterFields);
    expect(again.getState().pickedTexts).toEqual({
      naics: { '325110': '325110 - Petrochemical Manufacturing' },
    });
  });

  it('drops saved filters that no longer read, keeping the rest', () => {
    const key = `waste-tracker.workspace.test-${storeCount}`;
    localStorage.setItem(
      key,
      JSON.stringify({
        state: {
          filterFields: { states: 'TX', nonsense: [1] },
          pickedTexts: { naics: { '325110': 7 } },
          searchKey: 'acid',
          sort: { field: 1 },
        },
        version: 1,
      }),
    );
    const again = createWorkspaceStore(`test-${storeCount}`, GeneratorFilterFields);
    const { filterFields, pickedTexts, searchKey, sort, columns } = again.getState();
    expect({ filterFields, pickedTexts, searchKey, sort, columns }).toEqual({
      filterFields: {},
      pickedTexts: {},
      searchKey: 'acid',
      sort: undefined,
      columns: undefined,
    });
  });
});
