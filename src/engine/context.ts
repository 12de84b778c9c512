import type { Clock } from '../core/clock';
import type { SqlDriver } from '../storage/sqlite/driver';
import type { BrainChange } from '../core/api';
import { defaultMaxStepJsonChars } from '../core/model';

/** Limits that protect the engine from runaway input; a playground may tighten or widen them. */
export interface EngineLimits {
  readonly maxTitleChars: number;
  readonly maxMessageChars: number;
  readonly maxStepJsonChars: number;
  /** Checkpoint bodies larger than this are recorded as "not checkpointed: too large" (size kept, bytes not). */
  readonly maxCheckpointBodyBytes: number;
}

export const defaultLimits: EngineLimits = {
  maxTitleChars: 500,
  maxMessageChars: 1_000_000,
  // The lib refuses larger step JSON on the page with the same number (it cannot import the engine).
  maxStepJsonChars: defaultMaxStepJsonChars,
  maxCheckpointBodyBytes: 32 * 1024 * 1024,
};

/** What every feature module gets: the one connection, a clock, and a way to announce committed changes. */
export interface EngineContext {
  readonly db: SqlDriver;
  readonly clock: Clock;
  readonly limits: EngineLimits;
  emit(change: BrainChange): void;
  /**
   * Runs `job` on the engine's queue once no one asked for it for `quietMs` and no call waits, again while it
   * returns true (history/idle.ts). Absent (a context built outside the assembled engine): work put off is left to
   * its readers.
   */
  readonly whenIdle?: (job: () => Promise<boolean>, quietMs?: number) => void;
}
