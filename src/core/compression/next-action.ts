/**
 * The first unfinished action, derived from the plan and the event log in a fixed order of precedence:
 * an open blocker first; then the first plan step not done (continuing it if started, with its failing check
 * named); with no plan of the task's own, the first unfinished item of the agent's todo list (with the latest
 * failing check named); a check whose latest run failed; a finished plan; then the latest instruction when
 * nothing the agent said or noted came after it; then the agent's stated intention; then the "next" it last
 * noted. Instructions and intentions are bounded (bounded-text.ts): never a whole problem statement.
 */
import type { EventId } from '../ids';
import { firstUnfinishedStep, type Plan } from '../plan/model';
import { boundedInline } from './bounded-text';
import type { TaskState } from '../model';
import type {
  CheckpointFile,
  CheckpointText,
  CheckpointTodo,
  CheckpointValidation,
  LastAction,
  NextAction,
} from './model';

export interface NextActionInput {
  readonly plan: Plan | null;
  readonly blocker: CheckpointText | null;
  readonly validations: readonly CheckpointValidation[];
  readonly latestInstruction: CheckpointText | null;
  readonly lastProgress: (CheckpointText & { readonly next: string | null }) | null;
  /** The agent's todo list (used only when `plan` is null). */
  readonly agentPlan?: { readonly eventId: EventId; readonly items: readonly CheckpointTodo[] } | null;
  /** The agent's latest own words. */
  readonly intention?: CheckpointText | null;
  /** Those words came with a tool call that ran: they are history, never the step to take. */
  readonly intentionRan?: boolean;
  /** What ran last in the task. */
  readonly lastAction?: LastAction | null;
  /** The task's state: a task whose run delivered (`done`) has nothing left to do. */
  readonly taskState?: TaskState | null;
  /** The files the session changed (for what a finished run delivered). */
  readonly files?: readonly CheckpointFile[];
}

/** The latest run of each check, by name. */
const latestByName = (runs: readonly CheckpointValidation[]): CheckpointValidation[] => {
  const latest = new Map<string, CheckpointValidation>();
  for (const run of [...runs].sort((a, b) => a.eventId - b.eventId)) latest.set(run.name, run);
  return [...latest.values()];
};

/**
 * Whether a check runs a script the session deleted since (a scratch `reproduce_issue.py` removed before the
 * submission): such a check is never offered to run again.
 */
export function runsDeletedScript(
  name: string,
  files: readonly Pick<CheckpointFile, 'path' | 'change'>[],
): boolean {
  const deleted = new Set(files.filter((f) => f.change === 'deleted').map((f) => f.path));
  if (deleted.size === 0) return false;
  return name.split(/\s+/).some((word) => deleted.has(word.replace(/^\.\//, '')));
}

/** The latest check that fails because of the work (a failure that was there before the change never counts). */
const latestFailing = (
  runs: readonly CheckpointValidation[],
  files: readonly CheckpointFile[] = [],
): CheckpointValidation | null => {
  const failing = latestByName(runs).filter(
    (run) => run.result !== 'passed' && !run.failingBefore && !runsDeletedScript(run.name, files),
  );
  return failing.sort((a, b) => b.eventId - a.eventId)[0] ?? null;
};

/** A check as the agent typed it, on one line and bounded. */
const typed = (run: CheckpointValidation) => boundedInline(run.command, run.eventId, 200);

const describeRun = (run: CheckpointValidation) =>
  `the last run of ${typed(run)} ${run.result === 'error' ? 'errored' : 'failed'}${run.text ? `: ${run.text}` : ''}`;

type ActionParts = Partial<NextAction> & Pick<NextAction, 'kind' | 'text'>;

/** The agent's intention, bounded, when it spoke after the latest instruction (else it is not about this). */
function intentionOf(input: NextActionInput): string | null {
  const { intention, latestInstruction } = input;
  if (!intention || (latestInstruction && latestInstruction.eventId > intention.eventId)) return null;
  return boundedInline(intention.text, intention.eventId);
}

function todoAction(input: NextActionInput, failing: CheckpointValidation | null): ActionParts | null {
  const items = input.plan === null ? (input.agentPlan?.items ?? []) : [];
  const item = items.find((i) => i.state === 'todo' || i.state === 'started');
  if (!item) return null;
  const label = `todo ${item.n} of ${items.length}: ${item.text}`;
  const started = item.state === 'started';
  const { latestInstruction } = input;
  // The person spoke after the agent last wrote its list (and the agent has not answered with a new one): their
  // words come first; the list from before them is said beside.
  if (latestInstruction && input.agentPlan && latestInstruction.eventId > input.agentPlan.eventId) {
    return {
      kind: 'follow_instruction',
      text: `Follow the latest instruction: ${boundedInline(latestInstruction.text, latestInstruction.eventId)} (your todo list from before it has ${label} ${started ? 'in progress' : 'next'}).`,
      eventId: latestInstruction.eventId,
    };
  }
  return {
    kind: started ? 'continue_todo' : 'start_todo',
    text: `${started ? 'Continue' : 'Start'} ${label}${failing ? ` — ${describeRun(failing)}` : ''}.`,
    planStepN: item.n,
    eventId: failing?.eventId ?? input.agentPlan?.eventId ?? null,
    failing,
  };
}

const quoted = (text: string, max = 160) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const listed = (names: readonly string[], max = 6) =>
  names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;

/** A finished task: what it delivered — the files it leaves changed and how its checks last ended. */
function doneAction(input: NextActionInput): ActionParts {
  // Files that were there before first (the change itself), then the ones the run created.
  const kept = (input.files ?? []).filter((f) => !f.transient && !f.outside);
  const files = [
    ...kept.filter((f) => f.change !== 'created'),
    ...kept.filter((f) => f.change === 'created'),
  ].map((f) => f.path);
  // A script the run deleted is no check of what it delivers (a reproduction removed before submitting).
  const checks = latestByName(input.validations)
    .filter((v) => !runsDeletedScript(v.name, input.files ?? []))
    .map((v) => `${typed(v)} ${v.result}`);
  const parts = [
    files.length > 0 ? `changed ${listed(files)}` : 'no file changes recorded',
    ...(checks.length > 0 ? [`last checks: ${listed(checks, 4)}`] : []),
  ];
  return { kind: 'done', text: `The task is done — ${parts.join('; ')}.` };
}

/** After an action that already ran: say what ran and what is left unverified; never ask to run it again. */
function verifyAction(input: NextActionInput, last: LastAction, said: CheckpointText | null): ActionParts {
  const exit = last.exitCode === null ? '' : ` (exit ${last.exitCode})`;
  const output = last.summary ? ` — ${quoted(last.summary, 200)}` : '';
  const stale = latestByName(input.validations).filter(
    (v) => v.changedSince.length > 0 && !runsDeletedScript(v.name, input.files ?? []),
  );
  const left =
    stale.length > 0
      ? ` Not verified since files changed: ${listed(
          stale.map((v) => typed(v)),
          4,
        )}.`
      : ' Check its result, then take the next step toward the goal.';
  const history = said ? ` Before it you said: "${quoted(boundedInline(said.text, said.eventId), 200)}"` : '';
  // A call the transcript ends on before its result: it may or may not have run.
  const unknown = last.exitCode === null && last.summary === null && last.status !== 'error';
  const head = unknown
    ? `Your last action shows no result — check whether it ran before running it again: \`${quoted(last.command, 200)}\`.`
    : `Your last action already ran — do not repeat it: \`${quoted(last.command, 200)}\`${exit}${output}.`;
  return { kind: 'verify_last_action', text: `${head}${left}${history}`, eventId: said?.eventId ?? null };
}

function chooseAction(input: NextActionInput): ActionParts {
  const { plan, blocker, validations } = input;
  if (input.taskState === 'done') return doneAction(input);
  const step = firstUnfinishedStep(plan);
  const total = plan?.steps.length ?? 0;
  const where = step ? { planStepId: step.id, planStepN: step.n } : {};
  if (blocker) {
    const then = step
      ? ` Then ${step.state === 'started' ? 'continue' : 'start'} step ${step.n} of ${total}: ${step.what}.`
      : '';
    return {
      kind: 'resolve_blocker',
      text: `Resolve the blocker: ${boundedInline(blocker.text, blocker.eventId)}.${then}`,
      eventId: blocker.eventId,
      ...where,
    };
  }
  if (step) {
    const failing = latestFailing(
      validations.filter((run) => run.planStepId === step.id),
      input.files,
    );
    const label = `step ${step.n} of ${total}: ${step.what}`;
    if (failing) {
      return {
        kind: 'continue_step',
        text: `Continue ${label} — ${describeRun(failing)}.`,
        eventId: failing.eventId,
        failing,
        ...where,
      };
    }
    return {
      kind: step.state === 'started' ? 'continue_step' : 'start_step',
      text: `${step.state === 'started' ? 'Continue' : 'Start'} ${label}.`,
      ...where,
    };
  }
  const failing = latestFailing(validations, input.files);
  const todo = todoAction(input, failing);
  if (todo) return todo;
  if (failing) {
    return {
      kind: 'fix_validation',
      text: `Make ${typed(failing)} pass — its last run ${failing.result === 'error' ? 'errored' : 'failed'}${failing.text ? `: ${failing.text}` : ''}.`,
      eventId: failing.eventId,
      failing,
    };
  }
  if (plan && total > 0) return { kind: 'done', text: `All ${total} plan steps are done.` };
  const { latestInstruction, lastProgress } = input;
  const todos = input.agentPlan?.items ?? [];
  const saidSince = intentionOf(input) === null ? null : (input.intention ?? null);
  if (todos.length > 0 && (!saidSince || saidSince.eventId < (input.agentPlan?.eventId ?? 0))) {
    return { kind: 'done', text: `All ${todos.length} items of the todo list are done.` };
  }
  const after = Math.max(lastProgress?.eventId ?? 0, saidSince ? saidSince.eventId : 0);
  if (latestInstruction && after < latestInstruction.eventId) {
    return {
      kind: 'follow_instruction',
      text: `Follow the latest instruction: ${boundedInline(latestInstruction.text, latestInstruction.eventId)}`,
      eventId: latestInstruction.eventId,
    };
  }
  if (saidSince && (lastProgress === null || lastProgress.eventId < saidSince.eventId)) {
    if (input.intentionRan && input.lastAction) return verifyAction(input, input.lastAction, saidSince);
    return {
      kind: 'stated_intention',
      text: `Go on from where you left off; you last said: ${boundedInline(saidSince.text, saidSince.eventId)}`,
      eventId: saidSince.eventId,
    };
  }
  if (lastProgress?.next) {
    return {
      kind: 'progress_next',
      text: `Next, as last noted: ${lastProgress.next}`,
      eventId: lastProgress.eventId,
    };
  }
  return { kind: 'none', text: 'Nothing unfinished is recorded; ask the user what to do next.' };
}

export function chooseNextAction(input: NextActionInput): NextAction {
  const parts = chooseAction(input);
  return {
    planStepId: null,
    planStepN: null,
    eventId: null,
    failing: null,
    ...parts,
    intention: parts.kind === 'stated_intention' ? null : intentionOf(input),
  };
}
