/**
 * The extractor as a fold over the event log — the compression fold: `initialFold()`, `stepFold(state, event)` for
 * each event in id order, `finishFold(state, context)` (fold-finish.ts) → the active checkpoint. The state holds what
 * the active checkpoint needs and no more, so a compression can save it and the next one fold only the events
 * recorded since — its cost follows the active context, not the session's age. Verdicts (why each event stays or
 * leaves) come from the state and the active events alone (`foldVerdicts`, fold-verdicts.ts).
 *
 * Bounded: every list is capped by `FoldLimits` (the newest items kept) — instructions and answers as before,
 * decisions in force, changed files, open blockers and questions, checks and the links of one item — so the state
 * never grows with the log. Below the caps the result is exactly the whole-log extractor's.
 *
 * Links (a decision's `supersedes`, a resolution's `resolves`, an answer's `answers`) point back to earlier events:
 * the engine checks the target exists when it records the link.
 */
import { BrainError } from '../errors';
import { applyAgentTodos, type AgentTodoItem } from '../events/agent-notes';
import type { FileChangeKind, PlanStepId, SessionEvent, ValidationResult } from '../events/model';
import type { CheckpointEntryId, EventId, TaskId } from '../ids';
import type { CheckpointDecision, CheckpointText } from './model';

export interface FoldLimits {
  /** Earlier distinct instructions kept beside the latest. */
  readonly maxEarlierInstructions: number;
  /** Most recent answers kept. */
  readonly maxAnswers: number;
  /**
   * Decisions in force, changed files, open blockers, open questions: the newest this many of each (the summary
   * shows the newest 50 of a list; the rest stay searchable in the history). Also how many closed questions'
   * texts and superseded decisions' chains are remembered for a later answer or supersede.
   */
  readonly maxItems: number;
  /** Links one item keeps, newest: a decision's `replaces`, a file's (file) checkpoint entries. */
  readonly maxLinks: number;
  /** Checks (a name, on a plan step or none) whose latest run and counts are kept. */
  readonly maxChecks: number;
}

export const defaultFoldLimits: FoldLimits = {
  maxEarlierInstructions: 10,
  maxAnswers: 10,
  maxItems: 200,
  maxLinks: 200,
  maxChecks: 500,
};

export interface FileFold {
  readonly path: string;
  /**
   * Its first change — or, once a diff the agent printed showed it (`shown`, against the committed version),
   * what that diff says: `created` (not in the repository) or `modified` (a file of it, though the session first
   * saw it written whole).
   */
  first: FileChangeKind;
  last: FileChangeKind;
  edits: number;
  readonly entries: CheckpointEntryId[];
  lastEventId: EventId;
  lastText: string;
  /**
   * Its latest change that a step made, as opposed to one a diff the agent printed only showed (`shown`: made at
   * some earlier step, when is not known): what can make a check stale. Null while every change was only shown.
   */
  madeAt: EventId | null;
  /** Outside the project root (as its latest change said): never makes a check stale. */
  outside: boolean;
}

/** The agent's own todo list, as its latest plan tool call left it. */
export interface AgentPlanFold {
  readonly eventId: EventId;
  readonly at: number;
  readonly items: readonly AgentTodoItem[];
}

export interface CheckRun {
  readonly eventId: EventId;
  readonly name: string;
  /** The command as the agent typed it (the name when the event has none). */
  readonly command: string;
  readonly result: ValidationResult;
  readonly text: string;
  readonly at: number;
  readonly planStepId: PlanStepId | null;
}

/** One check: a name on a plan step (or on none) — its latest run, how many runs and failures, its first run. */
export interface CheckFold {
  latest: CheckRun;
  runs: number;
  failed: number;
  readonly firstEventId: EventId;
}

export type AnswerFold = CheckpointText & { readonly question: string };
/** A check's latest baseline run: with the agent's changes set aside (`git stash`). */
export type BaselineFold = CheckpointText & {
  readonly name: string;
  readonly result: 'passed' | 'failed' | 'error';
};
export type ProgressFold = CheckpointText & { readonly next: string | null };

/**
 * The fold's state. Maps keep insertion order; an item that changes is moved to the end, so the first entry is
 * always the one to evict. `stepFold` updates the state in place (a fold over a million events cannot copy it per
 * event): whoever folds owns it.
 */
export interface CompressionFold {
  readonly limits: FoldLimits;
  eventCount: number;
  lastEventId: EventId | null;
  /** The task of the latest event that had one. */
  lastTaskId: TaskId | null;
  firstInstruction: string | null;
  /** The newest occurrence of each distinct instruction (by normalised text), oldest first. */
  readonly instructions: Map<string, CheckpointText>;
  /** Decisions in force, oldest first. */
  readonly decisions: Map<EventId, CheckpointDecision>;
  /** `replaces` of decisions no longer in force (superseded, or past the cap), for a later supersede of them. */
  readonly retired: Map<EventId, readonly EventId[]>;
  /** By path, the least recently changed first. */
  readonly files: Map<string, FileFold>;
  lastFileChange: number;
  /** By check key (plan step and name), the least recently run first. */
  readonly checks: Map<string, CheckFold>;
  /** Check name → key of the check holding the latest run of that name. */
  readonly latestCheckByName: Map<string, string>;
  /** Check name → its latest baseline run (never a run of the check itself: it ran without the change). */
  readonly baselines: Map<string, BaselineFold>;
  readonly openBlockers: Map<EventId, CheckpointText>;
  readonly openQuestions: Map<EventId, CheckpointText>;
  /** Texts of questions no longer open, for a later answer to them. */
  readonly questionTexts: Map<EventId, string>;
  /** The newest answers, oldest first. */
  readonly answers: AnswerFold[];
  lastProgress: ProgressFold | null;
  /** The agent's latest own words (a `said` note): its stated intention. */
  lastIntention: CheckpointText | null;
  /** That intention was said with a tool call (its note is linked to the step): its action already ran. */
  lastIntentionRan: boolean;
  agentPlan: AgentPlanFold | null;
}

export const normaliseInstruction = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
export const checkKey = (planStepId: PlanStepId | null, name: string) => `${planStepId ?? ''}\u0000${name}`;
const textOf = (e: SessionEvent): CheckpointText => ({ eventId: e.id, text: e.text, at: e.createdAt });

export function initialFold(limits: Partial<FoldLimits> = {}): CompressionFold {
  return {
    limits: { ...defaultFoldLimits, ...limits },
    eventCount: 0,
    lastEventId: null,
    lastTaskId: null,
    firstInstruction: null,
    instructions: new Map(),
    decisions: new Map(),
    retired: new Map(),
    files: new Map(),
    lastFileChange: 0,
    checks: new Map(),
    latestCheckByName: new Map(),
    baselines: new Map(),
    openBlockers: new Map(),
    openQuestions: new Map(),
    questionTexts: new Map(),
    answers: [],
    lastProgress: null,
    lastIntention: null,
    lastIntentionRan: false,
    agentPlan: null,
  };
}

/** Sets `key` as the newest entry; drops the oldest entries past `max` (each passed to `evicted`). */
function putNewest<K, V>(
  map: Map<K, V>,
  key: K,
  value: V,
  max: number,
  evicted?: (key: K, value: V) => void,
) {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const [oldKey, oldValue] = map.entries().next().value as [K, V];
    map.delete(oldKey);
    evicted?.(oldKey, oldValue);
  }
}

function foldDecision(state: CompressionFold, e: SessionEvent & { kind: 'decision' }) {
  const { maxItems, maxLinks } = state.limits;
  const retire = (id: EventId, d: { readonly replaces: readonly EventId[] }) =>
    putNewest(state.retired, id, d.replaces, maxItems);
  let replaces: EventId[] = [];
  const target = e.supersedes;
  if (target !== null) {
    const inForce = state.decisions.get(target);
    replaces = [...(inForce?.replaces ?? state.retired.get(target) ?? []), target].slice(-maxLinks);
    if (inForce) {
      state.decisions.delete(target);
      retire(target, inForce);
    }
  }
  putNewest(state.decisions, e.id, { ...textOf(e), why: e.why, replaces }, maxItems, retire);
}

function foldFileChange(state: CompressionFold, e: SessionEvent & { kind: 'file_change' }) {
  const before = state.files.get(e.path);
  const file: FileFold = before ?? {
    path: e.path,
    first: e.change,
    last: e.change,
    edits: 0,
    entries: [],
    lastEventId: e.id,
    lastText: e.text,
    madeAt: null,
    outside: false,
  };
  file.outside = e.outside === true;
  file.last = e.change;
  file.edits++;
  file.lastEventId = e.id;
  file.lastText = e.text;
  if (e.checkpointEntryId !== null) {
    file.entries.push(e.checkpointEntryId);
    if (file.entries.length > state.limits.maxLinks) file.entries.shift();
  }
  putNewest(state.files, e.path, file, state.limits.maxItems);
  if (e.shown === true) {
    if (e.change !== 'deleted') file.first = e.change;
    return;
  }
  file.madeAt = e.id;
  state.lastFileChange = e.id;
}

function foldValidation(state: CompressionFold, e: SessionEvent & { kind: 'validation' }) {
  if (e.baseline) {
    putNewest(
      state.baselines,
      e.name,
      { ...textOf(e), name: e.name, result: e.result },
      state.limits.maxChecks,
    );
    return;
  }
  const key = checkKey(e.planStepId, e.name);
  const latest: CheckRun = {
    eventId: e.id,
    name: e.name,
    command: e.command ?? e.name,
    result: e.result,
    text: e.text,
    at: e.createdAt,
    planStepId: e.planStepId,
  };
  const before = state.checks.get(key);
  const failed = e.result === 'passed' ? 0 : 1;
  const check: CheckFold = before
    ? { latest, runs: before.runs + 1, failed: before.failed + failed, firstEventId: before.firstEventId }
    : { latest, runs: 1, failed, firstEventId: e.id };
  state.latestCheckByName.set(e.name, key);
  putNewest(state.checks, key, check, state.limits.maxChecks, (oldKey, old) => {
    if (state.latestCheckByName.get(old.latest.name) === oldKey)
      state.latestCheckByName.delete(old.latest.name);
  });
}

function foldAnswer(state: CompressionFold, e: SessionEvent & { kind: 'answer' }) {
  const { maxItems, maxAnswers } = state.limits;
  const open = state.openQuestions.get(e.answers);
  if (open) {
    state.openQuestions.delete(e.answers);
    putNewest(state.questionTexts, e.answers, open.text, maxItems);
  }
  const question = open?.text ?? state.questionTexts.get(e.answers) ?? `question #${e.answers}`;
  state.answers.push({ ...textOf(e), question });
  if (state.answers.length > maxAnswers) state.answers.splice(0, state.answers.length - maxAnswers);
}

/** Folds one event (the next in id order) into `state`, in place; returns `state`. */
/**
 * Tasks whose words are not the session's: a child task (a subagent's thread) is given its prompt by the agent
 * above it and speaks to that agent — its instruction is no instruction of the person's and its said notes are
 * no stated intention of the session's agent. Its other events (files, checks, decisions…) fold as any.
 */
export interface FoldOptions {
  readonly childTasks?: ReadonlySet<TaskId>;
}

export function stepFold(
  state: CompressionFold,
  e: SessionEvent,
  options: FoldOptions = {},
): CompressionFold {
  if (state.lastEventId !== null && e.id <= state.lastEventId) {
    throw new BrainError(
      'Internal',
      `The compression fold is at event ${state.lastEventId}; event ${e.id} is not newer (each event is folded once, in id order).`,
    );
  }
  state.eventCount++;
  state.lastEventId = e.id;
  if (e.taskId !== null) state.lastTaskId = e.taskId;
  const { maxItems, maxEarlierInstructions } = state.limits;
  const child = e.taskId !== null && options.childTasks?.has(e.taskId) === true;
  switch (e.kind) {
    case 'instruction':
      if (child) break;
      state.firstInstruction ??= e.text;
      putNewest(state.instructions, normaliseInstruction(e.text), textOf(e), 1 + maxEarlierInstructions);
      break;
    case 'decision':
      foldDecision(state, e);
      break;
    case 'file_change':
      foldFileChange(state, e);
      break;
    case 'validation':
      foldValidation(state, e);
      break;
    case 'blocker':
      putNewest(state.openBlockers, e.id, textOf(e), maxItems);
      break;
    case 'blocker_resolved':
      state.openBlockers.delete(e.resolves);
      break;
    case 'question':
      putNewest(state.openQuestions, e.id, textOf(e), maxItems, (id, q) =>
        putNewest(state.questionTexts, id, q.text, maxItems),
      );
      break;
    case 'answer':
      foldAnswer(state, e);
      break;
    case 'progress':
      state.lastProgress = { ...textOf(e), next: e.next };
      break;
    case 'note':
      if (e.said && !child) {
        state.lastIntention = textOf(e);
        state.lastIntentionRan = e.stepId !== null;
      }
      if (e.todos) {
        const items = applyAgentTodos(state.agentPlan?.items ?? [], e.todos);
        state.agentPlan = { eventId: e.id, at: e.createdAt, items };
      }
      break;
    case 'plan_step_started':
    case 'plan_step_done':
      break;
    default: {
      const unknown: never = e;
      throw new BrainError('Internal', `Unknown event kind: ${JSON.stringify(unknown)}`);
    }
  }
  return state;
}

/** Folds events (in id order, all newer than the state) into `state`. */
export function foldEvents(
  state: CompressionFold,
  events: readonly SessionEvent[],
  options: FoldOptions = {},
): CompressionFold {
  for (const e of events) stepFold(state, e, options);
  return state;
}
