import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LookupResult } from '../../shared/api/index.ts';
import type { Result } from '../../shared/ipc/contract.ts';
import { FilterChips } from '../../renderer/src/components/filter-chips.tsx';
import { LookupMultiSelect } from '../../renderer/src/components/lookup-multi-select.tsx';
import { useConnectivity } from '../../renderer/src/data/connectivity.ts';

function page(values: string[], more: boolean): Result<LookupResult> {
  return { ok: true, data: { results: values.map((v) => ({ value: v, text: v })), pagination: { more } } };
}

async function flush(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('LookupMultiSelect', () => {
  it('loads page 1, selects values and loads more when the lookup says more', async () => {
    vi.useFakeTimers();
    const fetchPage = vi.fn((_search: string, p: number) =>
      Promise.resolve(p === 1 ? page(['TX', 'CA'], true) : page(['NY'], false)),
    );
    const onChange = vi.fn();
    render(<LookupMultiSelect label="State" selected={[]} onChange={onChange} fetchPage={fetchPage} />);
    await flush(300);
    expect(fetchPage).toHaveBeenCalledWith('', 1, expect.any(AbortSignal));
    fireEvent.click(screen.getByRole('checkbox', { name: 'TX' }));
    expect(onChange).toHaveBeenCalledWith(['TX'], { value: 'TX', text: 'TX' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more State' }));
    await flush(0);
    expect(fetchPage).toHaveBeenLastCalledWith('', 2, expect.any(AbortSignal));
    expect(screen.getByRole('checkbox', { name: 'NY' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more State' })).toBeNull();
  });

  it('debounces typing into one lookup call', async () => {
    vi.useFakeTimers();
    const fetchPage = vi.fn(() => Promise.resolve(page([], false)));
    render(<LookupMultiSelect label="City" selected={[]} onChange={() => {}} fetchPage={fetchPage} />);
    await flush(300);
    const box = screen.getByRole('searchbox', { name: 'Search City' });
    fireEvent.change(box, { target: { value: 'Ho' } });
    await flush(100);
    fireEvent.change(box, { target: { value: 'Hou' } });
    await flush(100);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    await flush(250);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage).toHaveBeenLastCalledWith('Hou', 1, expect.any(AbortSignal));
  });
});

describe('LookupMultiSelect owns its requests', () => {
  it('a new search aborts the older one, whose late answer never shows; leaving aborts the rest', async () => {
    vi.useFakeTimers();
    const signals: AbortSignal[] = [];
    const answers: ((answer: Result<LookupResult>) => void)[] = [];
    const fetchPage = vi.fn(
      (_search: string, _page: number, signal: AbortSignal) =>
        new Promise<Result<LookupResult>>((resolve, reject) => {
          signals.push(signal);
          answers.push(resolve);
          signal.addEventListener('abort', () => reject(new DOMException('gone', 'AbortError')));
        }),
    );
    const view = render(
      <LookupMultiSelect label="City" selected={[]} onChange={() => {}} fetchPage={fetchPage} />,
    );
    await flush(300);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search City' }), { target: { value: 'Hou' } });
    await flush(300);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    answers[0]!(page(['Austin'], false));
    answers[1]!(page(['Houston'], false));
    await flush(0);
    expect(screen.queryByRole('checkbox', { name: 'Austin' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Houston' })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search City' }), { target: { value: 'Dal' } });
    await flush(300);
    view.unmount();
    expect(signals.at(-1)?.aborted).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('FilterChips', () => {
  it('removes one chip and clears all', () => {
    const onRemove = vi.fn();
    const onClearAll = vi.fn();
    const chip = { member: 'states', label: 'State', value: 'TX', text: 'TX' };
    render(<FilterChips chips={[chip]} onRemove={onRemove} onClearAll={onClearAll} />);
    fireEvent.click(screen.getByRole('button', { name: 'Remove filter State: TX' }));
    expect(onRemove).toHaveBeenCalledWith(chip);
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(onClearAll).toHaveBeenCalled();
  });
});

describe('LookupMultiSelect offline', () => {
  it('says when its values are only those of an offline pack, and asks again when the app is back online', async () => {
    vi.useFakeTimers();
    useConnectivity.setState({ workOffline: true });
    const fetchPage = vi.fn(() =>
      Promise.resolve(
        useConnectivity.getState().workOffline
          ? { ...page(['TX'], false), within: 'Manifests in state TX' }
          : page(['CA', 'TX'], false),
      ),
    );
    render(<LookupMultiSelect label="State" selected={[]} onChange={() => {}} fetchPage={fetchPage} />);
    await flush(300);
    expect(screen.getByRole('note').textContent).toBe(
      'Values in this offline pack only: “Manifests in state TX”.',
    );
    act(() => useConnectivity.getState().setWorkOffline(false));
    await flush(300);
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'CA' })).toBeTruthy();
  });
});
