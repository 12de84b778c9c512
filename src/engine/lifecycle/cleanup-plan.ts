/**
 * Lifecycle, planning: the cleanup plan — the retention plan over the stored state (policy in core/retention) and
 * each task's heavy data from the trigger-kept counters. Read only.
 */
import { BrainError } from '../../core/errors';
import type { TaskId } from '../../core/ids';
import { describeReason, planRetention } from '../../core/retention/index';
import type {
  CheckpointBytes,
  CheckpointCleanupPort,
  CleanupRepo,
} from '../../storage/sqlite/repos/cleanup-repo';
import type { Clock } from '../../core/clock';
import type { CleanupPlan, HeavyData, PlannedTask, PlannedVanishedTask } from '../../core/api/lifecycle';

export const noHeavy: HeavyData = {
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

/** What cleaning a task frees: its step bytes and the stored checkpoint bytes no other task uses. */
export const frees = (h: HeavyData) => h.stepBytes + h.checkpointExclusiveStoredBytes;

export function createCleanupPlanner(deps: {
  readonly repo: CleanupRepo;
  readonly checkpoints: CheckpointCleanupPort;
  readonly clock: Clock;
  readonly orphanLimit: number | undefined;
}) {
  const { repo, checkpoints, clock } = deps;

  /** The retention plan as the database stands now, with the rows it was made from. */
  async function currentPlan() {
    const { state, titles } = await repo.loadState(deps.orphanLimit);
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

  /** The dry run: every task with its verdict, reasons and what cleaning it would free. */
  async function planCleanup(): Promise<CleanupPlan> {
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
  }

  return { currentPlan, heavyByTask, planCleanup };
}

export type CleanupPlanner = ReturnType<typeof createCleanupPlanner>;
