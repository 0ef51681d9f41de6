/**
 * The export panel's line for a running export: rows, then the waste lines as a phase of their own (with
 * their own count, rate and time left), so a workbook whose rows are all written does not sit at
 * "1,000,000 of 1,000,000 · 0 s left" while its waste lines are written; the rate that of the last half
 * minute, so a pause (waiting for the user to sign in again) is not carried to the end, and counted to the
 * moment shown, so an export whose server stopped answering shows its time left growing.
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

  it('tells the rate of the last half minute, counted to now', () => {
    useExports.getState().started(ID, 'Manifests to Excel');
    render(<ExportPanel />);
    const rows = (rowsWritten: number, waiting = false) =>
      useExports.getState().apply({
        kind: 'progress',
        payload: { id: ID, rowsWritten, total: 200_000, ...(waiting ? { waiting: 'sign-in' as const } : {}) },
      });
    const shown = () => {
      const line = screen.getByText(/^[\d,]+ of 200,000 rows/).textContent ?? '';
      const [, rate, left] = /· ([\d,]+) rows\/s · (\d+) s left$/.exec(line) ?? [];
      return { rate: Number(rate?.replaceAll(',', '')), left: Number(left) };
    };
    act(() => {
      // 4,000 rows a second for 10 s, a minute waiting for the user to sign in again, then 4,000 a second.
      vi.advanceTimersByTime(10_000);
      rows(40_000);
      for (let second = 20; second <= 70; second += 10) {
        vi.advanceTimersByTime(10_000);
        rows(40_000, second < 70);
      }
      for (let second = 80; second <= 100; second += 10) {
        vi.advanceTimersByTime(10_000);
        rows(40_000 + (second - 70) * 4_000);
      }
    });
    // Since the start it would be 1,600 rows a second and 25 s left.
    expect(shown()).toEqual({ rate: 4_000, left: 10 });

    // The server stops answering: no event for 20 s, and the rate falls with every tick of the panel.
    act(() => {
      vi.advanceTimersByTime(20_000);
    });
    expect(shown()).toEqual({ rate: 2_400, left: 17 });
  });
});
