/**
 * The scripted driver's brain: given where the session stands (the plan and the event log, as a restart finds
 * them in agent.db), the first action of the script not done yet. An action is done when the log holds its
 * event — counted per plan step, so a script that runs `npm test` twice in a step (failing, then passing) needs two
 * runs logged there before it moves on, and a run already logged is never repeated.
 */
import type { Plan, PlanStep, SessionEvent, TaskId, TaskState } from '../../lib/index';
import { recallNote, type AgentAction } from './actions';
import { scriptActions, type DemoScript } from './script';

export interface ScriptState {
  /** The main task, and its state. */
  readonly taskId: TaskId | null;
  readonly taskState: TaskState | null;
  readonly plan: Plan | null;
  /** The session's whole log (compressed events included). */
  readonly events: readonly SessionEvent[];
  readonly tasks: readonly { readonly id: TaskId; readonly title: string; readonly state: TaskState }[];
  /** Compressions of the session so far. */
  readonly compressions: number;
}

export interface NextScripted {
  readonly action: AgentAction;
  /** Position in the whole script (scriptActions), for progress display. */
  readonly index: number;
  readonly total: number;
}

type Matcher = (e: SessionEvent) => boolean;

/** The step to work on, as the plan reads: the first in checklist order not done or skipped. */
function stepToWorkOn(plan: Plan | null): PlanStep | null {
  if (!plan) return null;
  return (
    [...plan.steps].sort((a, b) => a.n - b.n).find((s) => s.state === 'todo' || s.state === 'started') ?? null
  );
}

/** What event shows an action was done (null: not shown by one event). */
function matcherOf(action: AgentAction): { key: string; match: Matcher } | null {
  switch (action.kind) {
    case 'decide':
      return {
        key: `decision|${action.text}`,
        match: (e) => e.kind === 'decision' && e.text === action.text,
      };
    case 'edit':
      return {
        key: `edit|${action.path}|${action.note}`,
        match: (e) => e.kind === 'file_change' && e.path === action.path && e.text === action.note,
      };
    case 'validate':
      return {
        key: `validate|${action.name}`,
        match: (e) => e.kind === 'validation' && e.name === action.name,
      };
    case 'block':
      return { key: `block|${action.text}`, match: (e) => e.kind === 'blocker' && e.text === action.text };
    case 'unblock':
      return {
        key: `unblock|${action.text}`,
        match: (e) => e.kind === 'blocker_resolved' && e.text === action.text,
      };
    case 'ask':
      return { key: `ask|${action.text}`, match: (e) => e.kind === 'question' && e.text === action.text };
    case 'answer':
      return { key: `answer|${action.text}`, match: (e) => e.kind === 'answer' && e.text === action.text };
    case 'progress':
      return {
        key: `progress|${action.text}`,
        match: (e) => e.kind === 'progress' && e.text === action.text,
      };
    case 'note':
      return { key: `note|${action.text}`, match: (e) => e.kind === 'note' && e.text === action.text };
    case 'recall':
      return {
        key: `recall|${action.query}`,
        match: (e) => e.kind === 'note' && e.text.startsWith(recallNote(action.query, '')),
      };
    default:
      return null;
  }
}

export function nextScriptedAction(script: DemoScript, state: ScriptState): NextScripted | null {
  const all = scriptActions(script);
  const at = (action: AgentAction): NextScripted => ({
    action,
    index: all.indexOf(action),
    total: all.length,
  });
  const [instruct, plan] = script.setup;
  if (
    instruct?.kind === 'instruct' &&
    !state.events.some((e) => e.kind === 'instruction' && e.text === instruct.text)
  )
    return at(instruct);
  if (plan && state.plan === null) return at(plan);
  const compresses: AgentAction[] = all.filter((a) => a.kind === 'compress');
  const compressOrdinal = (action: AgentAction) => compresses.indexOf(action) + 1;
  const step = stepToWorkOn(state.plan);
  if (step === null) {
    for (const action of script.finish) {
      if (action.kind === 'compress' && state.compressions < compressOrdinal(action)) return at(action);
      if (action.kind === 'finish' && state.taskState !== 'done') return at(action);
    }
    return null;
  }
  const actions = script.steps[step.n - 1] ?? [];
  const startAction = all.find((a) => a.kind === 'start_step' && a.n === step.n) as AgentAction;
  if (step.state === 'todo') return at(startAction);
  const childId = (title: string) => state.tasks.find((t) => t.title === title)?.id;
  const seen = new Map<string, number>();
  for (const action of actions) {
    if (action.kind === 'spawn_child') {
      if (childId(action.title) === undefined) return at(action);
      continue;
    }
    if (action.kind === 'finish_child') {
      if (state.tasks.find((t) => t.title === action.title)?.state !== 'done') return at(action);
      continue;
    }
    if (action.kind === 'compress') {
      if (state.compressions < compressOrdinal(action)) return at(action);
      continue;
    }
    const matcher = matcherOf(action);
    if (!matcher) continue;
    const child = 'child' in action && action.child !== undefined ? childId(action.child) : undefined;
    const scope = (e: SessionEvent) =>
      child !== undefined ? e.taskId === child : e.taskId === state.taskId && e.planStepId === step.id;
    const occurrence = (seen.get(matcher.key) ?? 0) + 1;
    seen.set(matcher.key, occurrence);
    const logged = state.events.filter((e) => scope(e) && matcher.match(e)).length;
    if (logged < occurrence) return at(action);
  }
  return at(all.find((a) => a.kind === 'complete_step' && a.n === step.n) as AgentAction);
}
