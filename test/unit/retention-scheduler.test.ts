import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import { BrainError } from '../../src/core/errors';
import { createAutoCleanup, type AutoCleanupTrigger } from '../../src/core/retention/index';
import { manualTimers } from '../helpers/manual-timers';

function setup(run: (trigger: AutoCleanupTrigger) => Promise<{ more: boolean }>, enabled = true) {
  const manual = manualTimers();
  const auto = createAutoCleanup(
    { enabled, debounceMs: 100, maxWaitMs: 1_000, idleMs: 5_000 },
    { timers: manual.timers, clock: fixedClock(), run },
  );
  return { auto, ...manual };
}

describe('automatic cleanup passes', () => {
  it('runs one pass after a burst of changes settles, then an idle pass', async () => {
    const runs: AutoCleanupTrigger[] = [];
    const { auto, advance } = setup(async (trigger) => {
      runs.push(trigger);
      return { more: false };
    });
    for (let i = 0; i < 5; i++) {
      auto.changed();
      await advance(50);
    }
    expect(runs).toEqual([]);
    await advance(100);
    expect(runs).toEqual(['change']);
    await advance(4_999);
    expect(runs).toEqual(['change', 'idle']);
    await advance(60_000);
    expect(runs).toEqual(['change', 'idle']);
    expect(auto.status()).toMatchObject({ runs: 2, lastTrigger: 'idle', lastError: null });
  });

  it('does not let a steady stream of changes starve cleanup (max wait)', async () => {
    const runs: number[] = [];
    const { auto, advance, timers } = setup(async () => {
      runs.push(timers.now());
      return { more: false };
    });
    for (let i = 0; i < 40; i++) {
      auto.changed();
      await advance(60);
    }
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs[0]).toBeLessThanOrEqual(1_000);
  });

  it('runs one pass at a time and one more for changes during a pass', async () => {
    let release: () => void = () => undefined;
    let active = 0;
    let maxActive = 0;
    let count = 0;
    const { auto, advance } = setup(async () => {
      active++;
      count++;
      maxActive = Math.max(maxActive, active);
      await new Promise<void>((resolve) => (release = resolve));
      active--;
      return { more: false };
    });
    // The pass is held open here: the clock moves without waiting for it.
    const held = { awaitWork: false };
    auto.changed();
    await advance(100, held);
    expect(count).toBe(1);
    auto.changed();
    await advance(100, held);
    auto.changed();
    await advance(100, held);
    expect(count).toBe(1);
    release();
    await expect.poll(() => count).toBe(2);
    release();
    await auto.settled();
    expect(maxActive).toBe(1);
  });

  it('arms another idle pass while a pass reports more work (orphans past the cap)', async () => {
    let left = 3;
    const runs: AutoCleanupTrigger[] = [];
    const { auto, advance } = setup(async (trigger) => {
      runs.push(trigger);
      left--;
      return { more: left > 0 };
    });
    auto.changed();
    await advance(100);
    await advance(5_000 * 3);
    expect(runs).toEqual(['change', 'idle', 'idle']);
  });

  it('says when a pass is running, until its end (a caller that waits for the pass: the lifecycle bench)', async () => {
    let finish: () => void = () => undefined;
    const { auto, advance } = setup(
      () => new Promise((resolve) => (finish = () => resolve({ more: false }))),
    );
    expect(auto.status().running).toBe(false);
    auto.changed();
    await advance(100, { awaitWork: false });
    expect(auto.status()).toMatchObject({ running: true, runs: 0 });
    finish();
    await auto.settled();
    expect(auto.status()).toMatchObject({ running: false, runs: 1 });
  });

  it('records a failed pass, and stops for good once the engine is closed', async () => {
    let fail: BrainError | null = new BrainError('Busy', 'busy');
    const { auto, advance, pending } = setup(async () => {
      if (fail) throw fail;
      return { more: false };
    });
    auto.changed();
    await advance(100);
    expect(auto.status().lastError).toEqual({ code: 'Busy', message: 'busy' });
    fail = null;
    auto.changed();
    await advance(100);
    expect(auto.status().lastError).toBeNull();
    fail = new BrainError('Closed', 'closed');
    auto.changed();
    await advance(100);
    expect(auto.status().lastError?.code).toBe('Closed');
    expect(pending()).toBe(0);
    auto.changed();
    expect(pending()).toBe(0);
  });

  it('does nothing while disabled, and catches up when enabled', async () => {
    const runs: AutoCleanupTrigger[] = [];
    const { auto, advance } = setup(async (trigger) => {
      runs.push(trigger);
      return { more: false };
    }, false);
    auto.changed();
    await advance(10_000);
    expect(runs).toEqual([]);
    expect(auto.configure({ enabled: true, debounceMs: 10 })).toMatchObject({
      enabled: true,
      debounceMs: 10,
    });
    await advance(10);
    expect(runs).toEqual(['change']);
    auto.configure({ enabled: false });
    auto.changed();
    await advance(10_000);
    expect(runs).toEqual(['change']);
  });
});
