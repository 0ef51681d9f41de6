import { describe, expect, it, vi } from 'vitest';
import type { Result } from '../../shared/ipc/contract.ts';
import { whileWanted } from '../../renderer/src/data/while-wanted.ts';

const CANCELLED: Result<number> = { ok: false, error: { kind: 'cancelled', message: 'replaced' } };

describe('whileWanted', () => {
  it('asks again after a cancellation while the answer is wanted', async () => {
    const answers: Result<number>[] = [CANCELLED, CANCELLED, { ok: true, data: 7 }];
    const call = vi.fn(() => Promise.resolve(answers.shift() ?? CANCELLED));
    expect(await whileWanted(call, () => true)).toEqual({ ok: true, data: 7 });
    expect(call).toHaveBeenCalledTimes(3);
  });

  it('gives up after a bounded number of cancellations, so two readers cannot cancel each other forever', async () => {
    const call = vi.fn(() => Promise.resolve(CANCELLED));
    expect(await whileWanted(call, () => true)).toEqual(CANCELLED);
    expect(call).toHaveBeenCalledTimes(6);
  });

  it('answers null once the answer is no longer wanted, whatever it was', async () => {
    const call = vi.fn(() => Promise.resolve<Result<number>>({ ok: true, data: 1 }));
    expect(await whileWanted(call, () => false)).toBeNull();
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('passes other failures through at once', async () => {
    const offline: Result<number> = { ok: false, error: { kind: 'offline', message: 'down' } };
    const call = vi.fn(() => Promise.resolve(offline));
    expect(await whileWanted(call, () => true)).toEqual(offline);
    expect(call).toHaveBeenCalledTimes(1);
  });
});
