/**
 * Lifecycle, running: applies the plan, one transaction per task, and reports what it did.
 */
import { BrainError, isBrainError, type BrainErrorData } from '../../core/errors';
import type { TaskId } from '../../core/ids';
import { removalNote, type CleanReason } from '../../core/retention/index';
import type { CleanupRepo } from '../../storage/sqlite/cleanup-repo';
import type { EngineContext } from '../context';
import type { CleanupOptions, CleanupReport } from '../protocol-lifecycle';
import type { Planner } from './lifecycle-plan';

function errorData(error: unknown): BrainErrorData {
  if (isBrainError(error)) return error.toData();
  return { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

export function createCleanupRunner(ctx: EngineContext, deps: { repo: CleanupRepo; planner: Planner }) {
  const { db, clock } = ctx;
  const { repo, planner } = deps;

  async function cleanup(input: CleanupOptions = {}): Promise<CleanupReport> {
    const maxTasks = input.maxTasks ?? Infinity;
    if (maxTasks !== Infinity && (!Number.isSafeInteger(maxTasks) || maxTasks < 1)) {
      throw new BrainError('InvalidArgument', 'maxTasks must be a whole number ≥ 1.');
    }
    const startedAt = clock.now();
    const { plan, tasksById } = await planner.currentPlan();
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
          repo.cleanTask(verdict.taskId, clock.now(), reason, removalNote(reason)),
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
  }

  return { cleanup };
}
