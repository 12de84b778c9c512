/**
 * The end of the fold: the active checkpoint from the folded state and what is not folded — the session, its task
 * and its current plan (a plan changes without events, so which checks it makes relevant is chosen here).
 */
import type { EventId, SessionId, TaskId } from '../ids';
import type { Plan } from '../plan/model';
import type { CheckFold, CheckpointFold } from './fold';
import { CHECKPOINT_VERSION, type ActiveCheckpoint, type CheckpointValidation } from './model';
import { chooseNextAction } from './next-action';

const unfinishedSteps = (plan: Plan | null) =>
  new Set(plan?.steps.filter((s) => s.state !== 'done' && s.state !== 'skipped').map((s) => s.id) ?? []);

/**
 * The checks the checkpoint shows, in run order: the latest run of each check name, and the latest run of each
 * check on a plan step still unfinished (the plan is the current one, so this is chosen at the end, not folded).
 */
export function chosenChecks(state: CheckpointFold, plan: Plan | null): CheckFold[] {
  const unfinished = unfinishedSteps(plan);
  const chosen = new Map<EventId, CheckFold>();
  for (const key of state.latestCheckByName.values()) {
    const check = state.checks.get(key);
    if (check) chosen.set(check.latest.eventId, check);
  }
  for (const check of state.checks.values()) {
    const step = check.latest.planStepId;
    if (step !== null && unfinished.has(step)) chosen.set(check.latest.eventId, check);
  }
  return [...chosen.values()].sort((a, b) => a.latest.eventId - b.latest.eventId);
}

const toValidation = (state: CheckpointFold, c: CheckFold): CheckpointValidation => ({
  ...c.latest,
  runs: c.runs,
  failedRuns: c.failed,
  stale: state.lastFileChange > c.latest.eventId,
});

export interface FinishContext {
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  /** The task's title: the goal when there is no plan. */
  readonly taskTitle?: string | null;
  readonly plan: Plan | null;
}

/** The active checkpoint of the folded events (fresh objects: folding on does not change it). */
export function finishFold(state: CheckpointFold, context: FinishContext): ActiveCheckpoint {
  const { plan } = context;
  const instructions = [...state.instructions.values()];
  const latest = instructions.at(-1) ?? null;
  const validations = chosenChecks(state, plan).map((c) => toValidation(state, c));
  const openBlockers = [...state.openBlockers.values()];
  const blocker = openBlockers.at(-1) ?? null;
  const lastProgress = state.lastProgress;
  return {
    version: CHECKPOINT_VERSION,
    sessionId: context.sessionId,
    taskId: context.taskId,
    goal: plan?.goal || context.taskTitle || state.firstInstruction || 'No goal recorded yet.',
    latestInstruction: latest,
    earlierInstructions: instructions.slice(0, -1).reverse(),
    decisions: [...state.decisions.values()].map((d) => ({ ...d, replaces: [...d.replaces] })),
    files: [...state.files.values()].map((f) => ({
      path: f.path,
      // Created and then edited is still new in this session; created and then deleted is just deleted.
      change: f.last === 'deleted' ? 'deleted' : f.first === 'created' ? 'created' : f.last,
      edits: f.edits,
      checkpointEntryIds: [...f.entries],
      lastEventId: f.lastEventId,
      lastText: f.lastText,
    })),
    validations,
    blocker,
    openBlockers,
    openQuestions: [...state.openQuestions.values()],
    answers: [...state.answers],
    plan: plan && {
      goal: plan.goal,
      steps: plan.steps.map(({ id, n, what, why, state: s }) => ({ id, n, what, why, state: s })),
    },
    lastProgress,
    nextAction: chooseNextAction({ plan, blocker, validations, latestInstruction: latest, lastProgress }),
    lastEventId: state.lastEventId,
    eventCount: state.eventCount,
  };
}
