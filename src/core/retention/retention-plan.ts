import { BrainError, unreachable } from '../errors';
import type { TaskId } from '../ids';
import { referenceKinds } from '../model';
import type {
  CleanReason,
  KeepReason,
  RetentionPlan,
  RetentionState,
  RetentionTask,
  TaskVerdict,
  VanishedVerdict,
} from './types';

export const defaultOrphanLimit = 4;

const byId = (a: { readonly id: number }, b: { readonly id: number }) => a.id - b.id;

/** Where each task stands in its session: the next task started after it, and the session's latest task. */
interface SessionOrder {
  readonly next: ReadonlyMap<TaskId, TaskId>;
  readonly latest: ReadonlySet<TaskId>;
}

/** Tasks in ascending id order, grouped by their (existing) session: ids grow as tasks start. */
function sessionOrder(
  tasks: readonly RetentionTask[],
  isOrphan: (t: RetentionTask) => boolean,
): SessionOrder {
  const next = new Map<TaskId, TaskId>();
  const lastOf = new Map<number, TaskId>();
  for (const task of tasks) {
    if (isOrphan(task) || task.sessionId === null) continue;
    const previous = lastOf.get(task.sessionId);
    if (previous !== undefined) next.set(previous, task.id);
    lastOf.set(task.sessionId, task.id);
  }
  return { next, latest: new Set(lastOf.values()) };
}

/** The reasons a task is a protected root, in display order; empty when it is not one. */
function rootReasons(
  task: RetentionTask,
  orphan: boolean,
  currentOf: ReadonlyMap<TaskId, KeepReason[]>,
  order: SessionOrder,
): KeepReason[] {
  const reasons: KeepReason[] = [...(currentOf.get(task.id) ?? [])];
  // An orphan's state is stale: its session, the only thing that could resume it, is gone.
  if (!orphan && task.state === 'running') reasons.push({ kind: 'running' });
  if (!orphan && task.state === 'waiting_user') reasons.push({ kind: 'waiting_user' });
  if (task.pinned) reasons.push({ kind: 'pinned' });
  // Finished is not superseded: the screen still offers the latest task's rollback.
  const finished = task.state === 'done' || task.state === 'failed';
  if (!orphan && finished && task.sessionId !== null && order.latest.has(task.id))
    reasons.push({ kind: 'latest', sessionId: task.sessionId });
  return reasons;
}

/**
 * The kept set: breadth-first closure of the roots over references (cycle safe: each task is visited once).
 * Roots go in by ascending id and references by (target id, kind), so each referenced task gets the shortest
 * path from the lowest root — the same plan for the same state, whatever the input order.
 */
function closure(
  roots: ReadonlyMap<TaskId, KeepReason[]>,
  tasksById: ReadonlyMap<TaskId, RetentionTask>,
): Map<TaskId, KeepReason[]> {
  const kept = new Map<TaskId, KeepReason[]>();
  const pathTo = new Map<TaskId, readonly TaskId[]>();
  const queue: TaskId[] = [...roots.keys()].sort((a, b) => a - b);
  for (const id of queue) {
    kept.set(id, roots.get(id) ?? []);
    pathTo.set(id, [id]);
  }
  for (let head = 0; head < queue.length; head++) {
    const from = queue[head] as TaskId;
    const refs = [...(tasksById.get(from)?.references ?? [])].sort(
      (a, b) => a.to - b.to || referenceKinds.indexOf(a.kind) - referenceKinds.indexOf(b.kind),
    );
    for (const ref of refs) {
      if (kept.has(ref.to) || !tasksById.has(ref.to)) continue;
      const path = [...(pathTo.get(from) ?? [from]), ref.to];
      kept.set(ref.to, [{ kind: 'referenced', by: from, refKind: ref.kind, path }]);
      pathTo.set(ref.to, path);
      queue.push(ref.to);
    }
  }
  return kept;
}

function validate(state: RetentionState): number {
  const limit = state.orphanLimit ?? defaultOrphanLimit;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new BrainError('InvalidArgument', `orphanLimit must be a whole number ≥ 0; got ${String(limit)}.`);
  }
  const seen = new Set<number>();
  for (const task of state.tasks) {
    if (seen.has(task.id))
      throw new BrainError('InvalidArgument', `Task ${task.id} appears twice in the retention state.`);
    seen.add(task.id);
  }
  return limit;
}

/**
 * Retention policy, pure: a task keeps its heavy data (steps, checkpoints) exactly as long as the interface can
 * still act on it. Roots: the current task of every session, every running or waiting_user task, every pinned
 * task, and the latest task of every session when it is finished (its rollback is still offered). Kept: the roots
 * and everything they reference, transitively (so a restore task keeps the task it restored). Cleaned: a task
 * outside the kept set that is superseded — a newer task of its session started, or it was marked superseded —
 * or whose session is gone (orphans: at most `orphanLimit` a pass), and whose heavy data is still there. Never a
 * byte count, never a date.
 */
export function planRetention(state: RetentionState): RetentionPlan {
  const orphanLimit = validate(state);
  const sessionIds = new Set(state.sessions.map((s) => s.id));
  const tasks = [...state.tasks].sort(byId);
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const isOrphan = (t: RetentionTask) => t.sessionId === null || !sessionIds.has(t.sessionId);

  const currentOf = new Map<TaskId, KeepReason[]>();
  for (const session of [...state.sessions].sort(byId)) {
    if (session.currentTaskId === null || !tasksById.has(session.currentTaskId)) continue;
    const list = currentOf.get(session.currentTaskId) ?? [];
    list.push({ kind: 'current', sessionId: session.id });
    currentOf.set(session.currentTaskId, list);
  }

  const order = sessionOrder(tasks, isOrphan);
  const roots = new Map<TaskId, KeepReason[]>();
  for (const task of tasks) {
    const reasons = rootReasons(task, isOrphan(task), currentOf, order);
    if (reasons.length > 0) roots.set(task.id, reasons);
  }
  const kept = closure(roots, tasksById);

  // Orphans of both kinds share the per-pass cap, lowest ids first.
  const vanishedIds = [...new Set(state.vanishedTaskIds ?? [])]
    .filter((id) => !tasksById.has(id))
    .sort((a, b) => a - b);
  const orphanCandidates = tasks
    .filter((t) => !kept.has(t.id) && t.heavyRemovedAt === null && isOrphan(t))
    .map((t) => t.id);
  const orphansThisPass = new Set(
    [...orphanCandidates, ...vanishedIds].sort((a, b) => a - b).slice(0, orphanLimit),
  );
  const deferred = { kind: 'orphan-deferred', limit: orphanLimit } as const;

  const verdicts: TaskVerdict[] = [];
  for (const task of tasks) {
    const keepReasons = kept.get(task.id);
    if (keepReasons) {
      verdicts.push({
        taskId: task.id,
        verdict: 'keep',
        reasons: keepReasons as [KeepReason, ...KeepReason[]],
      });
    } else if (task.heavyRemovedAt !== null) {
      verdicts.push({
        taskId: task.id,
        verdict: 'skip',
        reasons: [{ kind: 'already-cleaned', at: task.heavyRemovedAt }],
      });
    } else if (isOrphan(task)) {
      verdicts.push(
        orphansThisPass.has(task.id)
          ? { taskId: task.id, verdict: 'clean', reasons: [{ kind: 'orphan', state: task.state }] }
          : { taskId: task.id, verdict: 'skip', reasons: [deferred] },
      );
    } else {
      verdicts.push({ taskId: task.id, verdict: 'clean', reasons: [supersededReason(task, order)] });
    }
  }
  const vanished: VanishedVerdict[] = vanishedIds.map((taskId) =>
    orphansThisPass.has(taskId)
      ? { taskId, verdict: 'clean', reasons: [{ kind: 'task-gone' }] }
      : { taskId, verdict: 'skip', reasons: [deferred] },
  );
  const clean = [...verdicts, ...vanished]
    .filter((v) => v.verdict === 'clean')
    .map((v) => v.taskId)
    .sort((a, b) => a - b);
  return { verdicts, vanished, clean };
}

/** Why a task of a live session, outside the kept set, is cleaned: it is superseded, or the rules are broken. */
function supersededReason(task: RetentionTask, order: SessionOrder): CleanReason {
  const by = order.next.get(task.id);
  if (by !== undefined) return { kind: 'superseded', by };
  switch (task.state) {
    case 'superseded':
      return { kind: 'superseded' };
    case 'done':
    case 'failed':
    case 'running':
    case 'waiting_user':
      // The latest task of a session, finished or live, is a root; reaching here means the rules above are broken.
      throw new BrainError('Internal', `Task ${task.id} is ${task.state} and latest but was not protected.`);
    default:
      return unreachable(task.state);
  }
}
