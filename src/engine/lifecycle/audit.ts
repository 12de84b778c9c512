/**
 * Lifecycle, audit and space upkeep: sizes from pragmas and trigger-kept counters (no content is read),
 * `maintain()` (incremental vacuum in small steps) and `compact()` (a full VACUUM, on request only).
 */
import { BrainError } from '../../core/errors';
import type { AutoCleanupStatus, TimerPort } from '../../core/retention/index';
import { createAuditRepo } from '../../storage/sqlite/repos/audit-repo';
import type { CheckpointCleanupPort, CleanupRepo } from '../../storage/sqlite/repos/cleanup-repo';
import { createHistoryRepo } from '../../storage/sqlite/repos/history-repo';
import type { EngineContext } from '../context';
import { createPendingSteps } from '../history/pending-steps';
import type { BrainInfo } from '../../core/api';
import type { LifecycleApi, MaintainOptions, StorageAudit, TaskBytes } from '../../core/api/lifecycle';
import { frees, noHeavy, type CleanupPlanner } from './cleanup-plan';

const vacuumStepPages = 128;

function mib(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MiB`;
}

export function createAuditFeature(
  ctx: EngineContext,
  deps: {
    readonly repo: CleanupRepo;
    readonly checkpoints: CheckpointCleanupPort;
    readonly planner: CleanupPlanner;
    readonly timers: TimerPort;
    readonly storageEstimate: (() => Promise<Pick<BrainInfo, 'quota' | 'persisted'>>) | undefined;
    readonly autoStatus: () => AutoCleanupStatus;
  },
) {
  const { db, clock } = ctx;
  const { repo, checkpoints, planner, timers } = deps;
  const audits = createAuditRepo(db);
  const pendingSteps = createPendingSteps(db, createHistoryRepo(db));

  return {
    async audit(): Promise<StorageAudit> {
      const started = timers.now();
      // Search documents still to write (recordToolCall(s), history/pending-steps.ts) are counted as written.
      await pendingSteps.catchUp();
      const file = await audits.file();
      const totals = await audits.totals();
      const light = await audits.light();
      const perTask = await audits.byTask();
      const cpTotals = await checkpoints.totals();
      const heavy = await planner.heavyByTask();
      const { plan, tasksById } = await planner.currentPlan();
      const tasks: TaskBytes[] = [];
      for (const id of [...new Set([...heavy.keys(), ...perTask.keys()])].sort((a, b) => a - b)) {
        const h = heavy.get(id) ?? noHeavy;
        const l = perTask.get(id);
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
        light: {
          events: light.events,
          searchDocuments: light.search_docs,
          removedCheckpointEntries: light.removed_entries,
        },
        tasks,
        reclaimable: {
          tasks: plan.clean.length,
          stepBytes,
          checkpointStoredBytes,
          bytes: stepBytes + checkpointStoredBytes,
        },
        autoCleanup: deps.autoStatus(),
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
  } satisfies Pick<LifecycleApi, 'audit' | 'maintain' | 'compact'>;
}
