import { describe, expect, it } from 'vitest';
import { createRecoveryPolicy, type GoneReason } from '../../main/src/windows/recovery.ts';

describe('recovering the window’s page', () => {
  it.each<GoneReason>(['crashed', 'killed', 'oom', 'abnormal-exit', 'launch-failed', 'memory-eviction'])(
    'reloads the page when its process is gone (%s)',
    (reason) => {
      const decision = createRecoveryPolicy()({ kind: 'gone', reason });
      expect(decision.action).toBe('reload');
      expect(decision.log).toContain(reason);
    },
  );

  it('leaves a clean exit alone: that is the window closing', () => {
    expect(createRecoveryPolicy()({ kind: 'gone', reason: 'clean-exit' })).toEqual({
      action: 'leave',
      log: '',
    });
  });

  it('ends a hung page and reloads it, and does not reload twice for the end it caused', () => {
    const decide = createRecoveryPolicy();
    expect(decide({ kind: 'unresponsive' }).action).toBe('end-and-reload');
    expect(decide({ kind: 'gone', reason: 'killed' })).toEqual({ action: 'leave', log: '' });
    expect(decide({ kind: 'gone', reason: 'crashed' }).action).toBe('reload');
  });

  it('stops reloading a page that keeps dying, and starts again once it has been stable', () => {
    let clock = 0;
    const decide = createRecoveryPolicy({ limit: 3, periodMs: 60_000, now: () => clock });
    for (let crash = 0; crash < 3; crash += 1) {
      clock += 1_000;
      expect(decide({ kind: 'gone', reason: 'crashed' }).action).toBe('reload');
    }
    clock += 1_000;
    const givenUp = decide({ kind: 'gone', reason: 'crashed' });
    expect(givenUp.action).toBe('leave');
    expect(givenUp.log).toContain('after 3 reloads within 60 s');
    clock += 60_000;
    expect(decide({ kind: 'gone', reason: 'crashed' }).action).toBe('reload');
  });
});
