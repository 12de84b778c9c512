/**
 * The end of the fold: the active checkpoint from the folded state and what is not folded — the session, its task
 * and its current plan (a plan changes without events, so which checks it makes relevant is chosen here).
 */
import type { EventId, SessionId, TaskId } from '../ids';
import type { TaskState } from '../model';
import type { Plan } from '../plan/model';
import type { CheckFold, CompressionFold, FileFold } from './fold';
import {
  ACTIVE_CHECKPOINT_VERSION,
  type ActiveCheckpoint,
  type CheckpointFile,
  type CheckpointValidation,
  type LastAction,
} from './model';
import { chooseNextAction } from './next-action';

const unfinishedSteps = (plan: Plan | null) =>
  new Set(plan?.steps.filter((s) => s.state !== 'done' && s.state !== 'skipped').map((s) => s.id) ?? []);

/**
 * The checks the active checkpoint shows, in run order: the latest run of each check name, and the latest run of each
 * check on a plan step still unfinished (the plan is the current one, so this is chosen at the end, not folded).
 */
export function chosenChecks(state: CompressionFold, plan: Plan | null): CheckFold[] {
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

/** A scratch file: created and deleted again within the session, so no net change. */
const isTransient = (f: FileFold) => f.first === 'created' && f.last === 'deleted';

/**
 * Whether a file's change can affect a check: not the agent's own memory (`.agent/`), not a file outside the
 * project root, not a scratch file that came and went.
 */
export const affectsChecks = (f: FileFold) =>
  !f.outside && !isTransient(f) && !f.path.startsWith('.agent/') && f.path !== '.agent';

/** Files changed after event `eventId` that may affect a check run then, least recently changed first. */
export function changedSince(state: CompressionFold, eventId: EventId): string[] {
  if (state.lastFileChange <= eventId) return [];
  const paths: string[] = [];
  for (const f of state.files.values())
    if (f.madeAt !== null && f.madeAt > eventId && affectsChecks(f)) paths.push(f.path);
  return paths;
}

/** The tests a validation's text names as failing (records.ts `checkText`: `… — failing: a, b`), or null. */
const failingIn = (text: string): string[] | null => {
  const at = text.lastIndexOf('failing: ');
  if (at < 0) return null;
  return text
    .slice(at + 'failing: '.length)
    .split(', ')
    .map((t) => t.trim())
    .filter((t) => t !== '');
};

/**
 * Whether a run that did not pass fails as its baseline did (the same check with the changes set aside): every
 * test it names failed there too; with no tests named, the same summary text.
 */
export function failsAsBaseline(
  run: { readonly result: string; readonly text: string },
  baseline: { readonly result: string; readonly text: string } | undefined,
): boolean {
  if (run.result === 'passed' || baseline === undefined || baseline.result === 'passed') return false;
  const now = failingIn(run.text);
  const before = failingIn(baseline.text);
  if (now !== null && before !== null) return now.every((t) => before.includes(t));
  return now === null && before === null && run.text === baseline.text;
}

const toValidation = (state: CompressionFold, c: CheckFold): CheckpointValidation => {
  const changed = changedSince(state, c.latest.eventId);
  return {
    ...c.latest,
    runs: c.runs,
    failedRuns: c.failed,
    failingBefore: failsAsBaseline(c.latest, state.baselines.get(c.latest.name)),
    changedSince: changed,
    stale: changed.length > 0,
  };
};

export interface FinishContext {
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  /** The task's title: the goal when there is no plan. */
  readonly taskTitle?: string | null;
  readonly plan: Plan | null;
  /** The task's state (a `done` task's next action is `done`). */
  readonly taskState?: TaskState | null;
  /** What ran last in the task (the engine reads the latest step). */
  readonly lastAction?: LastAction | null;
}

/** The active checkpoint of the folded events (fresh objects: folding on does not change it). */
export function finishFold(state: CompressionFold, context: FinishContext): ActiveCheckpoint {
  const { plan } = context;
  const instructions = [...state.instructions.values()];
  const latest = instructions.at(-1) ?? null;
  const validations = chosenChecks(state, plan).map((c) => toValidation(state, c));
  const openBlockers = [...state.openBlockers.values()];
  const blocker = openBlockers.at(-1) ?? null;
  const lastProgress = state.lastProgress;
  const agentPlan = state.agentPlan && {
    eventId: state.agentPlan.eventId,
    items: state.agentPlan.items.map((i, index) => ({ n: index + 1, text: i.text, state: i.state })),
  };
  const intention = state.lastIntention;
  const files: CheckpointFile[] = [...state.files.values()].map((f) => ({
    path: f.path,
    // Created and then edited is still new in this session; created and then deleted is just deleted.
    change: f.last === 'deleted' ? 'deleted' : f.first === 'created' ? 'created' : f.last,
    edits: f.edits,
    checkpointEntryIds: [...f.entries],
    lastEventId: f.lastEventId,
    lastText: f.lastText,
    outside: f.outside,
    transient: isTransient(f),
  }));
  const lastAction = context.lastAction ?? null;
  return {
    version: ACTIVE_CHECKPOINT_VERSION,
    sessionId: context.sessionId,
    taskId: context.taskId,
    goal: plan?.goal || context.taskTitle || state.firstInstruction || 'No goal recorded yet.',
    latestInstruction: latest,
    earlierInstructions: instructions.slice(0, -1).reverse(),
    decisions: [...state.decisions.values()].map((d) => ({ ...d, replaces: [...d.replaces] })),
    files,
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
    agentPlan,
    intention,
    intentionRan: state.lastIntentionRan,
    lastAction,
    nextAction: chooseNextAction({
      plan,
      blocker,
      validations,
      latestInstruction: latest,
      lastProgress,
      agentPlan,
      intention,
      intentionRan: state.lastIntentionRan,
      lastAction,
      taskState: context.taskState ?? null,
      files,
    }),
    lastEventId: state.lastEventId,
    eventCount: state.eventCount,
  };
}
