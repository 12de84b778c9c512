import type { Clock } from '../clock';
import { BrainError, type BrainErrorData } from '../errors';

/** Timers, injected: the worker passes setTimeout/clearTimeout, tests a manual clock. */
export interface TimerPort {
  /** Monotonic milliseconds. */
  now(): number;
  /**
   * Runs `fn` after `ms`. What `fn` returns is the work it started (a pass, a job): real timers drop it; a test's
   * hand-moved clock awaits it, so a test waits on the work itself, not on time.
   */
  set(fn: () => void | Promise<unknown>, ms: number): unknown;
  clear(handle: unknown): void;
}

export type AutoCleanupTrigger = 'change' | 'idle';

export interface AutoCleanupSettings {
  readonly enabled: boolean;
  /** A pass runs this long after the last change to tasks or sessions (changes in a burst make one pass). */
  readonly debounceMs: number;
  /** …but a steady stream of changes waits at most this long for its pass. */
  readonly maxWaitMs: number;
  /** An idle pass (cleanup, then a little space upkeep) runs this long after the last change. */
  readonly idleMs: number;
}

export interface AutoCleanupStatus extends AutoCleanupSettings {
  readonly runs: number;
  readonly lastRunAt: number | null;
  readonly lastTrigger: AutoCleanupTrigger | null;
  /** The last pass's failure; cleared by the next pass that succeeds. */
  readonly lastError: BrainErrorData | null;
  /** A pass is running (its cleanup turns, and the pages it gives back, not all done yet). */
  readonly running: boolean;
}

/** Codes after which no later pass can succeed: the engine is gone. */
const fatal = new Set(['Closed', 'OpenElsewhere']);

function toErrorData(error: unknown): BrainErrorData {
  return error instanceof BrainError ? error.toData() : { code: 'Internal', message: String(error) };
}

/**
 * Runs cleanup passes after changes (debounced) and when idle — never because a byte count was crossed. One
 * pass at a time: a timer that fires during a pass makes one more pass after it. A pass that reports more work
 * (orphans past the per-pass cap) arms another idle pass.
 */
export function createAutoCleanup(
  settings: AutoCleanupSettings,
  deps: {
    readonly timers: TimerPort;
    readonly clock: Clock;
    run(trigger: AutoCleanupTrigger): Promise<{ more: boolean }>;
  },
) {
  let current = { ...settings };
  let debounce: unknown = null;
  let burstStartedAt: number | null = null;
  let idle: unknown = null;
  let running: Promise<void> | null = null;
  let again: AutoCleanupTrigger | null = null;
  let stopped = false;
  let runs = 0;
  let lastRunAt: number | null = null;
  let lastTrigger: AutoCleanupTrigger | null = null;
  let lastError: BrainErrorData | null = null;

  function clearTimers() {
    if (debounce !== null) deps.timers.clear(debounce);
    if (idle !== null) deps.timers.clear(idle);
    debounce = idle = null;
    burstStartedAt = null;
  }

  function armIdle() {
    if (idle !== null) deps.timers.clear(idle);
    idle = deps.timers.set(() => {
      idle = null;
      return fire('idle');
    }, current.idleMs);
  }

  /** Starts a pass (or asks for one after the running one); resolves when the passes it led to have ended. */
  function fire(trigger: AutoCleanupTrigger): Promise<void> {
    if (stopped || !current.enabled) return Promise.resolve();
    if (running) {
      // An idle pass includes a change pass's work, so it wins when both wait.
      again = again === 'idle' ? 'idle' : trigger;
      return running;
    }
    const pass: Promise<void> = deps
      .run(trigger)
      .then(
        (result) => {
          runs++;
          lastRunAt = deps.clock.now();
          lastTrigger = trigger;
          lastError = null;
          if (result.more && !stopped && current.enabled) armIdle();
        },
        (error: unknown) => {
          lastError = toErrorData(error);
          lastTrigger = trigger;
          if (fatal.has(lastError.code)) stop();
        },
      )
      .finally(() => {
        running = null;
        const next = again;
        again = null;
        return next ? fire(next) : undefined;
      });
    running = pass;
    return pass;
  }

  function stop() {
    stopped = true;
    clearTimers();
  }

  return {
    /** Something that decides protection changed (task state, pins, references, current task, sessions). */
    changed(): void {
      if (stopped || !current.enabled) return;
      const now = deps.timers.now();
      burstStartedAt ??= now;
      if (debounce !== null) deps.timers.clear(debounce);
      const wait = Math.max(0, Math.min(current.debounceMs, burstStartedAt + current.maxWaitMs - now));
      debounce = deps.timers.set(() => {
        debounce = null;
        burstStartedAt = null;
        return fire('change');
      }, wait);
      armIdle();
    },

    configure(update: Partial<AutoCleanupSettings>): AutoCleanupStatus {
      current = { ...current, ...update };
      clearTimers();
      // Turning it on catches up on whatever changed while it was off.
      if (current.enabled) this.changed();
      return this.status();
    },

    stop,

    status(): AutoCleanupStatus {
      return { ...current, runs, lastRunAt, lastTrigger, lastError, running: running !== null };
    },

    /** Resolves once no pass is running (tests; a clean shutdown). */
    async settled(): Promise<void> {
      while (running) await running;
    },
  };
}

export type AutoCleanup = ReturnType<typeof createAutoCleanup>;
