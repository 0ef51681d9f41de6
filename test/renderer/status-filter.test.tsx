/**
 * The generators Status filter matches a registration status or a federal generator status (spec 4.2
 * `statuses`). The box lists each under its heading, a chip says which one it picked, and the grid shows
 * why each row matched: the registration status column whatever the columns chosen, and, for federal
 * statuses, a column naming the one the row matched.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GeneratorRecord, LookupResult } from '../../shared/api/index.ts';
import type { Result } from '../../shared/ipc/contract.ts';
import { FilterPanel } from '../../renderer/src/components/filter-panel.tsx';
import { GENERATORS, GeneratorsWorkspace } from '../../renderer/src/workspaces/generators.tsx';
import { freshGeneratorsWorkspace } from './generators-support.ts';

const STATUS_LOOKUP: Result<LookupResult> = {
  ok: true,
  data: {
    results: [
      { value: 'Active', text: 'Active', group: 'Registration status' },
      { value: 'Inactive', text: 'Inactive', group: 'Registration status' },
      {
        value: 'Large Quantity Generator',
        text: 'Large Quantity Generator',
        group: 'Federal generator status',
      },
      {
        value: 'Small Quantity Generator',
        text: 'Small Quantity Generator',
        group: 'Federal generator status',
      },
    ],
    pagination: { more: false },
  },
};

const ROWS: GeneratorRecord[] = [
  { epa_handler_id: 'TXD000000001', generator_name: 'Registered Co', registration_status: 'Active' },
  { epa_handler_id: 'TXD000000002', generator_name: 'Small Quantity Co', registration_status: 'Inactive' },
];

function install() {
  const tracker = {
    generators: {
      lookup: vi.fn(() => Promise.resolve(STATUS_LOOKUP)),
      aggregate: vi.fn(() =>
        Promise.resolve({
          ok: true,
          data: { epa_total: 1, shipped_count: 1, container_count: 1, mmc_count: 1 },
        }),
      ),
      list: vi.fn(() => Promise.resolve({ ok: true, data: { totalElements: ROWS.length, content: ROWS } })),
    },
    requests: { cancel: vi.fn(() => Promise.resolve({ ok: true, data: null })) },
  };
  vi.stubGlobal('tracker', tracker);
  return tracker;
}

beforeEach(() => {
  freshGeneratorsWorkspace();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const statusMember = GENERATORS.members.filter((member) => member.member === 'statuses');

describe('the Status filter', () => {
  it('lists registration and federal statuses under their headings, and each chip says which it picked', async () => {
    install();
    render(
      <FilterPanel
        label="Generator filters"
        searchLabel="Search generators"
        store={GENERATORS.store}
        members={statusMember}
        lookup={GENERATORS.lookup}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Status' }));
    const registration = await screen.findByRole('list', { name: 'Registration status' });
    const federal = screen.getByRole('list', { name: 'Federal generator status' });
    expect(
      within(registration)
        .getAllByRole('checkbox')
        .map((box) => box.parentElement?.textContent),
    ).toEqual(['Active', 'Inactive']);
    fireEvent.click(within(registration).getByRole('checkbox', { name: 'Active' }));
    fireEvent.click(within(federal).getByRole('checkbox', { name: 'Small Quantity Generator' }));
    expect(GENERATORS.store.getState().filterFields).toEqual({
      statuses: ['Active', 'Small Quantity Generator'],
    });
    const chips = screen.getByRole('group', { name: 'Active filters' });
    expect(
      within(chips)
        .getAllByRole('button')
        .map((chip) => chip.getAttribute('aria-label') ?? chip.textContent),
    ).toEqual([
      'Remove filter Registration status: Active',
      'Remove filter Federal generator status: Small Quantity Generator',
      'Clear all',
    ]);
  });

  it('shows the registration status however the columns were chosen, and which federal status a row matched', async () => {
    const tracker = install();
    const store = GENERATORS.store.getState();
    store.setColumns(['epa_handler_id', 'generator_name']);
    store.setMember('statuses', ['Active', 'Small Quantity Generator'], {
      Active: 'Registration status',
      'Small Quantity Generator': 'Federal generator status',
    });
    render(<GeneratorsWorkspace hidden={false} />);
    await screen.findByText('Small Quantity Co', undefined, { timeout: 5000 });
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent?.trim());
    expect(headers).toEqual(['EPA ID', 'Name', 'Registration status', 'Federal generator status']);
    const asked = tracker.generators.list.mock.calls[0] as unknown as [
      { pageInfo: { selectedFields: string } },
    ];
    expect(asked[0].pageInfo.selectedFields.split(',')).toContain('registration_status');

    const federalOf = (name: string) =>
      screen.getByText(name).closest('[role="row"]')?.querySelector('[col-id="matched_federal_status"]')
        ?.textContent;
    // Registered Co matched on its registration status; Small Quantity Co, Inactive, can only have matched
    // on its federal status, the one federal value picked.
    await waitFor(() => expect(federalOf('Small Quantity Co')).toBe('Small Quantity Generator'));
    expect(federalOf('Registered Co')).toBe('');
  });
});
