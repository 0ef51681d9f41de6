/**
 * The generators grid's Total waste column (spec 2.2 total_waste, a report's tons generated): a generator
 * with no report is sent with 0 and reads empty, any other amount with two decimals, and the header says
 * what the column holds and why a cell may be blank.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { GeneratorRecord } from '../../shared/api/index.ts';
import { GENERATOR_COLUMNS } from '../../shared/columns.ts';
import { GENERATORS, GeneratorsWorkspace } from '../../renderer/src/workspaces/generators.tsx';
import { freshGeneratorsWorkspace } from './generators-support.ts';

const ROWS: GeneratorRecord[] = [
  { epa_handler_id: 'TXD000000001', generator_name: 'Reporting Co', total_waste: 1234.5 },
  { epa_handler_id: 'TXD000000002', generator_name: 'Handler File Co', total_waste: 0 },
];

beforeEach(() => {
  freshGeneratorsWorkspace();
  const answer = <T,>(data: T) => vi.fn(() => Promise.resolve({ ok: true, data }));
  vi.stubGlobal('tracker', {
    generators: {
      lookup: answer({ results: [], pagination: { more: false } }),
      aggregate: answer({ epa_total: 2, shipped_count: 2, container_count: 2, mmc_count: 2 }),
      list: answer({ totalElements: ROWS.length, content: ROWS }),
    },
    requests: { cancel: answer(null) },
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

it('shows a generator with no report with an empty total, and its header says why', async () => {
  GENERATORS.store.getState().setColumns(['epa_handler_id', 'generator_name', 'total_waste']);
  render(<GeneratorsWorkspace hidden={false} />);
  await screen.findByText('Handler File Co', undefined, { timeout: 5000 });
  const total = (name: string) =>
    screen.getByText(name).closest('[role="row"]')?.querySelector('[col-id="total_waste"]')?.textContent;
  expect(total('Reporting Co')).toBe('1,234.50');
  expect(total('Handler File Co')).toBe('');
  const about = GENERATOR_COLUMNS.find((column) => column.field === 'total_waste')?.about;
  expect(about).toMatch(/blank where the generator has none/);
  const header = screen.getByRole('columnheader', { name: 'Total waste (tons)' });
  expect(header.getAttribute('title')).toBe(`Total waste (tons): ${about}`);
});
