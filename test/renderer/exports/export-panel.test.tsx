/**
 * The export panel's line for a running export: rows, then the waste lines as a phase of their own (with
 * their own count, rate and time left), so a workbook whose rows are all written does not sit at
 * "1,000,000 of 1,000,000 · 0 s left" while its waste lines are written.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportPanel } from '../../../renderer/src/exports/export-panel.tsx';
import { useExports } from '../../../renderer/src/exports/export-store.ts';

const ID = '0b8f0a2c-3c2e-4a55-9d8e-3b1f6f0d2a11';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  // The panel only follows events; none come here, the test applies them to the store itself.
  vi.stubGlobal('tracker', { on: () => () => undefined });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  useExports.setState({ entries: [] });
});

describe('a running export’s line', () => {
  it('counts rows, then waste lines with their own rate and time left', () => {
    useExports.getState().started(ID, 'Manifests to Excel');
    render(<ExportPanel />);
    act(() => {
      vi.advanceTimersByTime(2_000);
      useExports
        .getState()
        .apply({ kind: 'progress', payload: { id: ID, rowsWritten: 40_000, total: 100_000 } });
      vi.advanceTimersByTime(500);
    });
    expect(screen.getByText(/^40,000 of 100,000 rows · /)).toBeTruthy();

    act(() => {
      useExports.getState().apply({
        kind: 'progress',
        payload: { id: ID, rowsWritten: 100_000, total: 100_000, wasteLines: { written: 0, total: 250_000 } },
      });
      vi.advanceTimersByTime(10_000);
      useExports.getState().apply({
        kind: 'progress',
        payload: {
          id: ID,
          rowsWritten: 100_000,
          total: 100_000,
          wasteLines: { written: 50_000, total: 250_000 },
        },
      });
      vi.advanceTimersByTime(500);
    });
    // 50,000 lines in about 10 s of the phase: some 5,000 a second, 200,000 to go.
    const line = screen.getByText(/^Waste lines: 50,000 of 250,000 · /).textContent ?? '';
    const [, rate, left] = /· ([\d,]+) lines\/s · (\d+) s left$/.exec(line) ?? [];
    expect(Number(rate?.replace(',', ''))).toBeGreaterThan(4_500);
    expect(Number(rate?.replace(',', ''))).toBeLessThan(5_100);
    expect(Number(left)).toBeGreaterThan(38);
    expect(Number(left)).toBeLessThan(46);
    const bar = screen.getByRole('progressbar', { name: 'Manifests to Excel progress' });
    expect(bar.getAttribute('value')).toBe('50000');
    expect(bar.getAttribute('max')).toBe('250000');
  });
});
