/**
 * Lifecycle, scheduling: the automatic passes (when: core/retention/scheduler.ts) and what a pass does — a
 * cleanup through the serialised engine (in turns), then a little space upkeep when idle.
 */
import { BrainError } from '../../core/errors';
import type { Clock } from '../../core/clock';
import { createAutoCleanup, type AutoCleanupSettings, type TimerPort } from '../../core/retention/index';
import type { BrainApi, ChangeTopic } from '../../core/api';

export const defaultAutoCleanup: AutoCleanupSettings = {
  enabled: true,
  debounceMs: 2_000,
  maxWaitMs: 15_000,
  idleMs: 60_000,
};

/** Changes that can alter what is protected: task states, pins, references, current tasks, sessions, an import. */
export const protectionTopics: ReadonlySet<ChangeTopic> = new Set(['tasks', 'sessions', 'database']);

/** Validates `setAutoCleanup` input: only the known keys, each in range. */
export function requireSettings(input: unknown): Partial<AutoCleanupSettings> {
  if (typeof input !== 'object' || input === null)
    throw new BrainError(
      'InvalidArgument',
      'setAutoCleanup takes { enabled?, debounceMs?, maxWaitMs?, idleMs? }.',
    );
  const settings = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (settings['enabled'] !== undefined) {
    if (typeof settings['enabled'] !== 'boolean')
      throw new BrainError('InvalidArgument', 'enabled must be true or false.');
    out['enabled'] = settings['enabled'];
  }
  for (const key of ['debounceMs', 'maxWaitMs', 'idleMs'] as const) {
    const value = settings[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 86_400_000) {
      throw new BrainError(
        'InvalidArgument',
        `${key} must be a number of milliseconds between 0 and one day.`,
      );
    }
    out[key] = value;
  }
  return out as Partial<AutoCleanupSettings>;
}

/**
 * The automatic passes. They run through `engine()` — the serialised engine once started — so they queue behind
 * other calls like any caller.
 */
export function createAutoPasses(
  settings: AutoCleanupSettings,
  deps: {
    readonly timers: TimerPort;
    readonly clock: Clock;
    readonly idleMaintainBudgetMs: number;
    readonly engine: () => BrainApi | undefined;
    /** The passes' own `cleanup()` (in turns, giving back the pages of tasks that piled up); default the engine's. */
    readonly cleanup?: () => BrainApi['cleanup'] | undefined;
  },
) {
  return createAutoCleanup(settings, {
    timers: deps.timers,
    clock: deps.clock,
    async run(trigger) {
      const engine = deps.engine();
      if (!engine) return { more: false };
      // cleanup() runs in turns, so an agent's calls get in between on a long backlog. A task that fails is
      // tried once a pass: it cannot spin the loop.
      const report = await (deps.cleanup?.() ?? engine.cleanup)();
      const { failed } = report;
      let more = report.deferred > 0;
      if (trigger === 'idle')
        more = (await engine.maintain({ budgetMs: deps.idleMaintainBudgetMs })).more || more;
      const first = failed[0];
      if (first) {
        // Surfaces in the status (lastError); each failed task was rolled back and is retried by the next pass.
        throw new BrainError(
          first.error.code,
          `Automatic cleanup could not clean task(s) ${[...new Set(failed.map((f) => f.taskId))].join(', ')}: ${first.error.message}`,
        );
      }
      return { more };
    },
  });
}
