/**
 * Lifecycle: cleanup by operability and reference closure (policy in core/retention), a fast audit, space upkeep
 * and the automatic passes. The parts live beside this file:
 * - cleanup-plan.ts: the cleanup plan over the stored state, heavy data per task (read only);
 * - run.ts: `cleanup()`, one transaction per task, in turns on the engine's queue;
 * - audit.ts: `audit()`, `maintain()`, `compact()`;
 * - schedule.ts: the automatic passes and their settings.
 */
import type { AutoCleanupSettings, TimerPort } from '../../core/retention/index';
import {
  checkpointCleanup,
  createCleanupRepo,
  type CheckpointCleanupPort,
} from '../../storage/sqlite/repos/cleanup-repo';
import type { SqlDriver } from '../../storage/sqlite/driver';
import type { EngineContext } from '../context';
import type { BrainApi, BrainInfo } from '../../core/api';
import type { CleanupLogQuery, LifecycleApi } from '../../core/api/lifecycle';
import { BrainError } from '../../core/errors';
import { createAuditFeature } from './audit';
import { createCleanupPlanner } from './cleanup-plan';
import { createCleanupRunner, type CleanupSpace, type CleanupWal } from './run';
import { createAuditRepo } from '../../storage/sqlite/repos/audit-repo';
import { checkpointWal } from '../../storage/sqlite/database';
import { ioMeter } from '../../storage/sqlite/vfs/io-meter';
import { globalTimers } from '../timers';
import { createAutoPasses, defaultAutoCleanup, protectionTopics, requireSettings } from './schedule';

export interface LifecycleOptions extends Partial<AutoCleanupSettings> {
  /** Space upkeep an idle pass may spend (ms). Default 50. */
  readonly idleMaintainBudgetMs?: number;
  /** Orphans cleaned per pass. Default 4. */
  readonly orphanLimit?: number;
  /** Timers and a monotonic clock; default the global ones. */
  readonly timers?: TimerPort;
  /** The checkpoint store's cleanup hooks; default the store in agent.db. */
  readonly checkpoints?: (db: SqlDriver) => CheckpointCleanupPort;
  /**
   * The WAL as `cleanup()` sees it (run.ts: a turn copies it into agent.db every `walCheckpointBytes` written).
   * Default on OPFS: the worker's page-write meter and `checkpointWal`; none in memory (no WAL there).
   */
  readonly wal?: CleanupWal;
  /**
   * Whether automatic passes give back the free pages of tasks that piled up (run.ts, `giveBackPiledUp`). Default
   * true; false only for tests' controls.
   */
  readonly giveBack?: boolean;
}

/** The part of EngineDeps this feature uses. */
export interface LifecycleDeps {
  readonly storage: 'opfs' | 'memory';
  readonly storageEstimate?: () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;
  readonly lifecycle?: LifecycleOptions;
}

/**
 * `api` joins the engine; `start` hands the serialised engine to the automatic passes so they queue behind other
 * calls like any caller.
 */
export function createLifecycleFeature(ctx: EngineContext, deps: LifecycleDeps) {
  const { db, clock } = ctx;
  const options = deps.lifecycle ?? {};
  const timers = options.timers ?? globalTimers;
  const checkpoints = (options.checkpoints ?? checkpointCleanup)(db);
  const repo = createCleanupRepo(db, checkpoints);
  const planner = createCleanupPlanner({ repo, checkpoints, clock, orphanLimit: options.orphanLimit });
  const wal: CleanupWal | undefined =
    options.wal ??
    (deps.storage === 'opfs'
      ? {
          written: () => ioMeter.counts().mainWritten,
          checkpoint: async () => void (await checkpointWal(db, 'passive')),
        }
      : undefined);
  const audits = createAuditRepo(db);
  // What an automatic pass gives back (run.ts, `giveBackPiledUp`).
  const space: CleanupSpace = {
    pages: () => audits.file(),
    giveBack: (pages) => audits.incrementalVacuum(pages),
  };
  const runner = createCleanupRunner(ctx, { repo, planner, space, ...(wal ? { wal } : {}) });
  let engine: BrainApi | undefined;
  /** The automatic passes' cleanup: `cleanup()` in turns that also gives back the pages of tasks that piled up. */
  let autoCleanup: BrainApi['cleanup'] | undefined;

  const auto = createAutoPasses(
    {
      // On for a real brain; off by default for in-memory engines (tests, scratch), which turn it on explicitly.
      enabled: options.enabled ?? (deps.storage === 'opfs' && defaultAutoCleanup.enabled),
      debounceMs: options.debounceMs ?? defaultAutoCleanup.debounceMs,
      maxWaitMs: options.maxWaitMs ?? defaultAutoCleanup.maxWaitMs,
      idleMs: options.idleMs ?? defaultAutoCleanup.idleMs,
    },
    {
      timers,
      clock,
      idleMaintainBudgetMs: options.idleMaintainBudgetMs ?? 50,
      engine: () => engine,
      cleanup: () => autoCleanup,
    },
  );

  const upkeep = createAuditFeature(ctx, {
    repo,
    checkpoints,
    planner,
    timers,
    storageEstimate: deps.storageEstimate,
    autoStatus: () => auto.status(),
  });

  const api = {
    planCleanup: planner.planCleanup,
    cleanup: runner.cleanup,

    async cleanupLog(query: CleanupLogQuery = {}) {
      const limit = query.limit ?? 100;
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000)
        throw new BrainError('InvalidArgument', 'limit must be a whole number from 1 to 10,000.');
      for (const key of ['taskId', 'beforeId'] as const) {
        const value = query[key];
        if (value !== undefined && (!Number.isSafeInteger(value) || value <= 0))
          throw new BrainError('InvalidArgument', `${key} must be an id returned by the engine.`);
      }
      return repo.log({
        limit,
        ...(query.taskId === undefined ? {} : { taskId: query.taskId }),
        ...(query.beforeId === undefined ? {} : { beforeId: query.beforeId }),
      });
    },

    audit: upkeep.audit,
    maintain: upkeep.maintain,
    compact: upkeep.compact,

    async setAutoCleanup(settings: Parameters<LifecycleApi['setAutoCleanup']>[0]) {
      return auto.configure(requireSettings(settings));
    },
  } satisfies LifecycleApi;

  return {
    api,
    /**
     * Finishes the serialised engine: `cleanup()` runs in turns (each one queued engine call, so other calls get
     * in between two tasks), and the automatic passes start; they queue behind other calls like any caller.
     */
    start(serialised: BrainApi): BrainApi {
      const started: BrainApi = { ...serialised, cleanup: runner.inTurns(serialised.cleanup) };
      engine = started;
      autoCleanup = runner.inTurns(serialised.cleanup, { giveBack: options.giveBack ?? true });
      void started.subscribe((change) => {
        if (!protectionTopics.has(change.topic)) return;
        runner.changed();
        auto.changed();
      });
      // Catch up on what an earlier run left (a killed tab, orphans past the cap).
      auto.changed();
      return started;
    },
  };
}
