import { BrainError, isBrainError, type BrainErrorData } from '../../core/errors';
import type { TaskId } from '../../core/ids';
import {
  createAutoCleanup,
  describeReason,
  planRetention,
  removalNote,
  type AutoCleanupSettings,
  type CleanReason,
  type TimerPort,
} from '../../core/retention/index';
import { createAuditRepo } from '../../storage/sqlite/audit-repo';
import {
  checkpointCleanup,
  createCleanupRepo,
  type CheckpointBytes,
  type CheckpointCleanupPort,
} from '../../storage/sqlite/cleanup-repo';
import type { SqlDriver } from '../../storage/sqlite/driver';
import type { EngineContext } from '../context';
import type { BrainApi, BrainInfo, ChangeTopic } from '../protocol';
import type {
  CleanupLogQuery,
  CleanupOptions,
  CleanupPlan,
  CleanupReport,
  HeavyData,
  LifecycleApi,
  MaintainOptions,
  PlannedTask,
  PlannedVanishedTask,
  StorageAudit,
  TaskBytes,
} from '../protocol-lifecycle';

export interface LifecycleOptions extends Partial<AutoCleanupSettings> {
  /** Space upkeep an idle pass may spend (ms). Default 50. */
  readonly idleMaintainBudgetMs?: number;
  /** Orphans cleaned per pass. Default 4. */
  readonly orphanLimit?: number;
  /** Timers and a monotonic clock; default the global ones. */
  readonly timers?: TimerPort;
  /** The checkpoint store's cleanup hooks; default the store in agent.db. */
  readonly checkpoints?: (db: SqlDriver) => CheckpointCleanupPort;
}

/** The part of EngineDeps this feature uses. */
export interface LifecycleDeps {
  readonly storage: 'opfs' | 'memory';
  readonly storageEstimate?: () => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>;
  readonly lifecycle?: LifecycleOptions;
}

const defaults: AutoCleanupSettings = { enabled: true, debounceMs: 2_000, maxWaitMs: 15_000, idleMs: 60_000 };
/** Changes that can alter what is protected: task states, pins, references, current tasks, sessions, an import. */
const protectionTopics: ReadonlySet<ChangeTopic> = new Set(['tasks', 'sessions', 'database']);
const vacuumStepPages = 128;
const autoBatchTasks = 8;

const globalTimers: TimerPort = {
  now: () => performance.now(),
  set: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // In Node (tests) a pending pass must not keep the process alive.
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

const noHeavy: HeavyData = {
  steps: 0,
  stepBytes: 0,
  checkpointEntries: 0,
  checkpointStoredBytes: 0,
  checkpointRawBytes: 0,
  checkpointExclusiveStoredBytes: 0,
};
const noCheckpointBytes: CheckpointBytes = {
  entries: 0,
  storedBytes: 0,
  rawBytes: 0,
  exclusiveStoredBytes: 0,
};

function errorData(error: unknown): BrainErrorData {
  if (isBrainError(error)) return error.toData();
  return { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

function requireSettings(input: unknown): Partial<AutoCleanupSettings> {
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
 * Cleanup by operability and reference closure (policy in core/retention), a fast audit, space upkeep, and the
 * automatic passes. `api` joins the engine; `start` hands the serialised engine to the automatic passes so they
 * queue behind other calls like any caller.
 */
export function createLifecycleFeature(ctx: EngineContext, deps: LifecycleDeps) {
  const { db, clock } = ctx;
  const options = deps.lifecycle ?? {};
  const timers = options.timers ?? globalTimers;
  const checkpoints = (options.checkpoints ?? checkpointCleanup)(db);
  const repo = createCleanupRepo(db, checkpoints);
  const audits = createAuditRepo(db);
  let engine: BrainApi | undefined;

  const auto = createAutoCleanup(
    {
      // On for a real brain; off by default for in-memory engines (tests, scratch), which turn it on explicitly.
      enabled: options.enabled ?? (deps.storage === 'opfs' && defaults.enabled),
      debounceMs: options.debounceMs ?? defaults.debounceMs,
      maxWaitMs: options.maxWaitMs ?? defaults.maxWaitMs,
      idleMs: options.idleMs ?? defaults.idleMs,
    },
    {
      timers,
      clock,
      async run(trigger) {
        if (!engine) return { more: false };
        // Small batches, each its own engine call, so an agent's calls get in between on a long backlog.
        let report = await engine.cleanup({ maxTasks: autoBatchTasks });
        const failed = [...report.failed];
        // Go on while batches make progress: tasks that keep failing must not spin the loop.
        while (report.remaining > 0 && report.cleaned.length > 0) {
          report = await engine.cleanup({ maxTasks: autoBatchTasks });
          failed.push(...report.failed);
        }
        let more = report.deferred > 0;
        if (trigger === 'idle')
          more = (await engine.maintain({ budgetMs: options.idleMaintainBudgetMs ?? 50 })).more || more;
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
    },
  );

  async function currentPlan() {
    const { state, titles } = await repo.loadState(options.orphanLimit);
    const plan = planRetention(state);
    const tasksById = new Map(state.tasks.map((t) => [t.id, t]));
    return { plan, tasksById, titles };
  }

  async function heavyByTask(): Promise<Map<TaskId, HeavyData>> {
    const steps = await repo.stepCountsByTask();
    const cps = await checkpoints.byTask();
    const heavy = new Map<TaskId, HeavyData>();
    for (const id of new Set([...steps.keys(), ...cps.keys()])) {
      const s = steps.get(id) ?? { rows: 0, bytes: 0 };
      const c = cps.get(id) ?? noCheckpointBytes;
      heavy.set(id, {
        steps: s.rows,
        stepBytes: s.bytes,
        checkpointEntries: c.entries,
        checkpointStoredBytes: c.storedBytes,
        checkpointRawBytes: c.rawBytes,
        checkpointExclusiveStoredBytes: c.exclusiveStoredBytes,
      });
    }
    return heavy;
  }

  const frees = (h: HeavyData) => h.stepBytes + h.checkpointExclusiveStoredBytes;

  const api = {
    async planCleanup(): Promise<CleanupPlan> {
      const { plan, tasksById, titles } = await currentPlan();
      const heavy = await heavyByTask();
      const tasks = plan.verdicts.map((v): PlannedTask => {
        const task = tasksById.get(v.taskId);
        if (!task) throw new BrainError('Internal', `The plan names task ${v.taskId}, which was not loaded.`);
        const h = heavy.get(v.taskId) ?? noHeavy;
        return {
          ...v,
          sessionId: task.sessionId,
          title: titles.get(v.taskId) ?? '',
          state: task.state,
          pinned: task.pinned,
          heavyRemovedAt: task.heavyRemovedAt,
          reasonText: describeReason(v.reasons[0]),
          heavy: h,
          freesBytes: v.verdict === 'clean' ? frees(h) : 0,
        } as PlannedTask;
      });
      const vanishedTasks = plan.vanished.map((v): PlannedVanishedTask => {
        const h = heavy.get(v.taskId) ?? noHeavy;
        return {
          ...v,
          reasonText: describeReason(v.reasons[0]),
          heavy: h,
          freesBytes: v.verdict === 'clean' ? frees(h) : 0,
        };
      });
      const all = [...tasks, ...vanishedTasks];
      const count = (verdict: PlannedTask['verdict']) => all.filter((t) => t.verdict === verdict).length;
      return {
        at: clock.now(),
        tasks,
        vanishedTasks,
        counts: { keep: count('keep'), clean: count('clean'), skip: count('skip') },
        freesBytes: all.reduce((sum, t) => sum + t.freesBytes, 0),
      };
    },

    async cleanup(input: CleanupOptions = {}): Promise<CleanupReport> {
      const maxTasks = input.maxTasks ?? Infinity;
      if (maxTasks !== Infinity && (!Number.isSafeInteger(maxTasks) || maxTasks < 1)) {
        throw new BrainError('InvalidArgument', 'maxTasks must be a whole number ≥ 1.');
      }
      const startedAt = clock.now();
      const { plan, tasksById } = await currentPlan();
      const cleaned: CleanupReport['cleaned'][number][] = [];
      const failed: { taskId: TaskId; error: BrainErrorData }[] = [];
      const toClean = [...plan.verdicts, ...plan.vanished]
        .filter((v) => v.verdict === 'clean')
        .sort((a, b) => a.taskId - b.taskId);
      for (const verdict of toClean.slice(0, maxTasks)) {
        if (verdict.verdict !== 'clean') continue;
        const reason: CleanReason = verdict.reasons[0];
        try {
          // One transaction per task: a failure or a killed tab leaves it fully cleaned or untouched.
          const record = await db.transaction(() =>
            repo.cleanTask(verdict.taskId, clock.now(), reason, {
              reasonText: describeReason(reason),
              entryNote: removalNote(reason),
            }),
          );
          if (!record) continue;
          cleaned.push(record);
          const sessionId = tasksById.get(verdict.taskId)?.sessionId ?? null;
          ctx.emit({
            topic: 'cleanup',
            taskId: verdict.taskId,
            ...(sessionId === null ? {} : { sessionId }),
          });
        } catch (error) {
          if (isBrainError(error, 'Closed') || isBrainError(error, 'OpenElsewhere')) throw error;
          failed.push({ taskId: verdict.taskId, error: errorData(error) });
        }
      }
      return {
        startedAt,
        finishedAt: clock.now(),
        planned: plan.clean.length,
        cleaned,
        failed,
        deferred: [...plan.verdicts, ...plan.vanished].filter(
          (v) => v.verdict === 'skip' && v.reasons[0].kind === 'orphan-deferred',
        ).length,
        remaining: Math.max(0, toClean.length - maxTasks),
        bytesFreed: cleaned.reduce((sum, r) => sum + r.stepBytesRemoved + r.storedBytesRemoved, 0),
      };
    },

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

    async audit(): Promise<StorageAudit> {
      const started = timers.now();
      const file = await audits.file();
      const totals = await audits.totals();
      const light = await audits.byTask();
      const cpTotals = await checkpoints.totals();
      const heavy = await heavyByTask();
      const { plan, tasksById } = await currentPlan();
      const tasks: TaskBytes[] = [];
      for (const id of [...new Set([...heavy.keys(), ...light.keys()])].sort((a, b) => a - b)) {
        const h = heavy.get(id) ?? noHeavy;
        const l = light.get(id);
        tasks.push({
          taskId: id,
          heavyRemovedAt: tasksById.get(id)?.heavyRemovedAt ?? null,
          exists: tasksById.has(id),
          stepBytes: h.stepBytes,
          checkpointStoredBytes: h.checkpointStoredBytes,
          checkpointRawBytes: h.checkpointRawBytes,
          messageBytes: l?.messages.bytes ?? 0,
          summaryBytes: l?.summaries.bytes ?? 0,
          heavyBytes: frees(h),
        });
      }
      const reclaim = plan.clean.map((id) => heavy.get(id) ?? noHeavy);
      const stepBytes = reclaim.reduce((sum, h) => sum + h.stepBytes, 0);
      const checkpointStoredBytes = reclaim.reduce((sum, h) => sum + h.checkpointExclusiveStoredBytes, 0);
      return {
        at: clock.now(),
        elapsedMs: timers.now() - started,
        pageSize: file.pageSize,
        pageCount: file.pageCount,
        freelistCount: file.freelistCount,
        fileBytes: file.pageSize * file.pageCount,
        freeBytes: file.pageSize * file.freelistCount,
        autoVacuum: file.autoVacuum,
        bytes: {
          checkpointStored: cpTotals.storedBytes,
          checkpointRaw: cpTotals.rawBytes,
          steps: totals.steps.bytes,
          messages: totals.messages.bytes,
          summaries: totals.summaries.bytes,
        },
        counts: {
          tasks: tasksById.size,
          tasksCleaned: [...tasksById.values()].filter((t) => t.heavyRemovedAt !== null).length,
          steps: totals.steps.rows,
          messages: totals.messages.rows,
          summaries: totals.summaries.rows,
          checkpointEntries: cpTotals.entries,
        },
        tasks,
        reclaimable: {
          tasks: plan.clean.length,
          stepBytes,
          checkpointStoredBytes,
          bytes: stepBytes + checkpointStoredBytes,
        },
        autoCleanup: auto.status(),
      };
    },

    async maintain(input: MaintainOptions = {}) {
      const budgetMs = input.budgetMs ?? 50;
      if (typeof budgetMs !== 'number' || !Number.isFinite(budgetMs) || budgetMs <= 0 || budgetMs > 10_000) {
        throw new BrainError(
          'InvalidArgument',
          'budgetMs must be a number of milliseconds from 1 to 10,000.',
        );
      }
      const started = timers.now();
      const file = await audits.file();
      const report = (
        pagesFreed: number,
        freelistCount: number,
        skipped?: NonNullable<Awaited<ReturnType<LifecycleApi['maintain']>>['skipped']>,
      ) => ({
        pagesFreed,
        bytesFreed: pagesFreed * file.pageSize,
        freelistCount,
        more: freelistCount > 0,
        elapsedMs: timers.now() - started,
        ...(skipped ? { skipped } : {}),
      });
      if (file.autoVacuum !== 'incremental') return report(0, file.freelistCount, { kind: 'no-auto-vacuum' });
      if (input.force !== true) {
        const running = await repo.runningTask();
        if (running !== null) return report(0, file.freelistCount, { kind: 'task-running', taskId: running });
      }
      let freed = 0;
      let free = file.freelistCount;
      let slowest = 0;
      // Small steps, each its own short transaction; stop before a step would overrun the budget.
      while (free > 0 && timers.now() - started + slowest <= budgetMs) {
        const stepStarted = timers.now();
        freed += await audits.incrementalVacuum(Math.min(vacuumStepPages, free));
        free = (await audits.file()).freelistCount;
        slowest = Math.max(slowest, timers.now() - stepStarted);
      }
      return report(freed, free);
    },

    async compact() {
      const started = timers.now();
      const before = await audits.file();
      const bytesBefore = before.pageSize * before.pageCount;
      const quota = (await deps.storageEstimate?.())?.quota ?? null;
      if (quota && quota.quota > 0) {
        const free = quota.quota - quota.usage;
        if (free < 2 * bytesBefore) {
          throw new BrainError(
            'QuotaExceeded',
            `Compacting rewrites the whole database and needs about ${mib(2 * bytesBefore)} free (twice its ${mib(bytesBefore)}); ` +
              `the browser reports ${mib(Math.max(0, free))} free. Nothing was changed. cleanup() and maintain() need no extra space.`,
            { needed: 2 * bytesBefore, free, usage: quota.usage, quota: quota.quota },
          );
        }
      }
      await audits.vacuum();
      const after = await audits.file();
      ctx.emit({ topic: 'cleanup' });
      return {
        bytesBefore,
        bytesAfter: after.pageSize * after.pageCount,
        elapsedMs: timers.now() - started,
        quota,
      };
    },

    async setAutoCleanup(settings: Parameters<LifecycleApi['setAutoCleanup']>[0]) {
      return auto.configure(requireSettings(settings));
    },
  } satisfies LifecycleApi;

  return {
    api,
    /** Starts the automatic passes on the serialised engine: they queue behind other calls like any caller. */
    start(serialised: BrainApi): BrainApi {
      engine = serialised;
      void serialised.subscribe((change) => {
        if (protectionTopics.has(change.topic)) auto.changed();
      });
      // Catch up on what an earlier run left (a killed tab, orphans past the cap).
      auto.changed();
      return serialised;
    },
  };
}
