/**
 * The whole-log extractor as it was before the fold (commit 5c23b43: src/core/compression/extract.ts,
 * plan-compression.ts and the engine's validationsDone), kept verbatim as the oracle of the fold's property test
 * (compression-fold.test.ts). Not used by the engine.
 */
import type {
  DecisionEvent,
  FileChangeEvent,
  SessionEvent,
  ValidationEvent,
} from '../../src/core/events/model';
import type { EventId, SessionId, TaskId } from '../../src/core/ids';
import type { Plan } from '../../src/core/plan/model';
import {
  ACTIVE_CHECKPOINT_VERSION,
  type ActiveCheckpoint,
  type CheckpointDecision,
  type CheckpointFile,
  type CheckpointText,
  type CheckpointValidation,
} from '../../src/core/compression/model';
import { chooseNextAction } from '../../src/core/compression/next-action';
import { failsAsBaseline } from '../../src/core/compression/fold-finish';
import { applyAgentTodos, type AgentTodoItem } from '../../src/core/events/agent-notes';
import { approxTokens, type BudgetItem, type ContextBudget } from '../../src/core/compression/model';
import {
  chooseTail,
  defaultCompressionLimits,
  lineChars,
  type CompressionLimits,
  type CompressionPlan,
} from '../../src/core/compression/plan-compression';
import { renderSessionSummary, type RenderOptions } from '../../src/core/compression/render';
import type { ResumeValidation } from '../../src/core/api/memory';

export interface ReferenceInput {
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  /** The task's title: the goal when there is no plan. */
  readonly taskTitle?: string | null;
  /** The whole log of the session (compressed events included), any order. */
  readonly events: readonly SessionEvent[];
  readonly plan: Plan | null;
  /** How many earlier distinct instructions to keep beside the latest (default 10). */
  readonly maxEarlierInstructions?: number;
  readonly maxAnswers?: number;
}

export interface Verdict {
  readonly keep: boolean;
  readonly reason: string;
}

export interface Extraction {
  readonly checkpoint: ActiveCheckpoint;
  readonly verdicts: ReadonlyMap<EventId, Verdict>;
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const textOf = (e: SessionEvent): CheckpointText => ({ eventId: e.id, text: e.text, at: e.createdAt });

type Verdicts = Map<EventId, Verdict>;
const keep = (verdicts: Verdicts, id: EventId, reason: string) => verdicts.set(id, { keep: true, reason });
const drop = (verdicts: Verdicts, id: EventId, reason: string) => verdicts.set(id, { keep: false, reason });

function extractInstructions(events: readonly SessionEvent[], max: number, verdicts: Verdicts) {
  const instructions = events.filter((e) => e.kind === 'instruction').reverse();
  const seen = new Map<string, EventId>();
  const earlier: CheckpointText[] = [];
  let latest: CheckpointText | null = null;
  for (const event of instructions) {
    const key = normalise(event.text);
    const twin = seen.get(key);
    if (twin !== undefined) {
      drop(verdicts, event.id, `repeats instruction #${twin}`);
    } else if (latest === null) {
      latest = textOf(event);
      keep(verdicts, event.id, 'latest instruction');
    } else if (earlier.length < max) {
      earlier.push(textOf(event));
      keep(verdicts, event.id, 'earlier instruction');
    } else {
      drop(verdicts, event.id, `older than the ${max} most recent instructions`);
    }
    if (twin === undefined) seen.set(key, event.id);
  }
  return { latest, earlier };
}

function extractDecisions(events: readonly SessionEvent[], verdicts: Verdicts): CheckpointDecision[] {
  const decisions = events.filter((e): e is DecisionEvent => e.kind === 'decision');
  const byId = new Map(decisions.map((d) => [d.id, d]));
  const supersededBy = new Map<EventId, EventId>();
  for (const d of decisions)
    if (d.supersedes !== null && !supersededBy.has(d.supersedes)) supersededBy.set(d.supersedes, d.id);
  const inForce: CheckpointDecision[] = [];
  for (const d of decisions) {
    const by = supersededBy.get(d.id);
    if (by !== undefined) {
      drop(verdicts, d.id, `superseded by decision #${by}`);
      continue;
    }
    const replaces: EventId[] = [];
    for (let at = d.supersedes; at !== null && !replaces.includes(at); at = byId.get(at)?.supersedes ?? null)
      replaces.unshift(at);
    inForce.push({ ...textOf(d), why: d.why, replaces });
    keep(verdicts, d.id, 'decision in force');
  }
  return inForce;
}

function extractFiles(events: readonly SessionEvent[], verdicts: Verdicts): CheckpointFile[] {
  const byPath = new Map<string, FileChangeEvent[]>();
  for (const e of events)
    if (e.kind === 'file_change') byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  const files: CheckpointFile[] = [];
  for (const [path, changes] of byPath) {
    const last = changes[changes.length - 1] as FileChangeEvent;
    const first = firstOf(changes);
    for (const c of changes) {
      if (c === last) keep(verdicts, c.id, `latest change to ${path}`);
      else drop(verdicts, c.id, `earlier edit of ${path} (counted; its checkpoint stays linked)`);
    }
    // Created and then edited is still new in this session; created and then deleted is just deleted.
    const change = last.change === 'deleted' ? 'deleted' : first === 'created' ? 'created' : last.change;
    files.push({
      path,
      change,
      edits: changes.length,
      checkpointEntryIds: changes.flatMap((c) => (c.checkpointEntryId === null ? [] : [c.checkpointEntryId])),
      lastEventId: last.id,
      lastText: last.text,
      outside: last.outside === true,
      transient: first === 'created' && last.change === 'deleted',
    });
  }
  return files.sort((a, b) => a.lastEventId - b.lastEventId);
}

/**
 * A file's first change, or what the latest diff the agent printed said of it (`shown`, not deleted): created
 * (not in the repository) or modified (a file of it).
 */
function firstOf(changes: readonly FileChangeEvent[]) {
  const shown = changes.filter((c) => c.shown === true && c.change !== 'deleted').at(-1);
  return (shown ?? (changes[0] as FileChangeEvent)).change;
}

/**
 * Validations: the latest run of each check (by name) in the session, and the latest run per check of each plan
 * step still unfinished. Earlier runs are dropped; their count stays (`runs`, `failedRuns`).
 */
function extractValidations(
  events: readonly SessionEvent[],
  plan: Plan | null,
  verdicts: Verdicts,
): CheckpointValidation[] {
  const all = events.filter((e): e is ValidationEvent => e.kind === 'validation');
  // A baseline run (changes set aside) is not a run of the check: it only says what failed before the change.
  const runs = all.filter((e) => !e.baseline);
  const baselineOf = (name: string) => all.filter((e) => e.baseline && e.name === name).at(-1);
  const unfinished = new Set(
    plan?.steps.filter((s) => s.state !== 'done' && s.state !== 'skipped').map((s) => s.id) ?? [],
  );
  const groupKey = (v: ValidationEvent) => `${v.planStepId ?? ''}\u0000${v.name}`;
  const stats = new Map<string, { runs: number; failed: number }>();
  for (const v of runs) {
    const s = stats.get(groupKey(v)) ?? { runs: 0, failed: 0 };
    stats.set(groupKey(v), { runs: s.runs + 1, failed: s.failed + (v.result === 'passed' ? 0 : 1) });
  }
  const latestByName = new Map<string, ValidationEvent>();
  const latestByStep = new Map<string, ValidationEvent>();
  for (const v of runs) {
    latestByName.set(v.name, v);
    if (v.planStepId !== null && unfinished.has(v.planStepId)) latestByStep.set(groupKey(v), v);
  }
  const chosen = new Set<ValidationEvent>([...latestByName.values(), ...latestByStep.values()]);
  const result: CheckpointValidation[] = [];
  for (const v of runs) {
    if (!chosen.has(v)) {
      const newer = latestByName.get(v.name) as ValidationEvent;
      drop(verdicts, v.id, `older run of ${v.name} (latest: #${newer.id}, ${newer.result})`);
      continue;
    }
    keep(verdicts, v.id, `latest run of ${v.name}`);
    const s = stats.get(groupKey(v)) ?? { runs: 1, failed: 0 };
    result.push({
      eventId: v.id,
      name: v.name,
      command: v.command ?? v.name,
      result: v.result,
      text: v.text,
      at: v.createdAt,
      planStepId: v.planStepId,
      runs: s.runs,
      failedRuns: s.failed,
      changedSince: referenceChangedSince(events, v.id),
      stale: referenceChangedSince(events, v.id).length > 0,
      failingBefore: failsAsBaseline(v, baselineOf(v.name)),
    });
  }
  return result;
}

/**
 * Files whose latest change came after event `id` and can affect a check: not outside the root (by that latest
 * change), not under .agent/, not created and deleted again; least recently changed first. A change only shown
 * by a diff the agent printed (`shown`) was made at an unknown earlier step: it never counts here.
 */
export function referenceChangedSince(events: readonly SessionEvent[], id: number): string[] {
  const byPath = new Map<string, FileChangeEvent[]>();
  for (const e of events)
    if (e.kind === 'file_change') byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  return [...byPath.values()]
    .filter((changes) => {
      const last = changes[changes.length - 1] as FileChangeEvent;
      const scratch = firstOf(changes) === 'created' && last.change === 'deleted';
      const made = changes.filter((c) => c.shown !== true).at(-1);
      if (made === undefined) return false;
      return made.id > id && last.outside !== true && !scratch && !last.path.startsWith('.agent/');
    })
    .sort((a, b) => (a.at(-1) as FileChangeEvent).id - (b.at(-1) as FileChangeEvent).id)
    .map((changes) => (changes[0] as FileChangeEvent).path);
}

/** Blockers and questions: open ones stay; resolved/answered ones (and the resolutions) leave the context. */
function extractOpenItems(events: readonly SessionEvent[], verdicts: Verdicts, maxAnswers: number) {
  const resolvedBy = new Map<EventId, EventId>();
  const answeredBy = new Map<EventId, SessionEvent>();
  for (const e of events) {
    if (e.kind === 'blocker_resolved' && !resolvedBy.has(e.resolves)) resolvedBy.set(e.resolves, e.id);
    if (e.kind === 'answer' && !answeredBy.has(e.answers)) answeredBy.set(e.answers, e);
  }
  const openBlockers: CheckpointText[] = [];
  const openQuestions: CheckpointText[] = [];
  const answers: (CheckpointText & { question: string })[] = [];
  const questionText = new Map(events.filter((e) => e.kind === 'question').map((e) => [e.id, e.text]));
  for (const e of events) {
    if (e.kind === 'blocker') {
      const by = resolvedBy.get(e.id);
      if (by === undefined) {
        openBlockers.push(textOf(e));
        keep(verdicts, e.id, 'open blocker');
      } else drop(verdicts, e.id, `resolved by #${by}`);
    } else if (e.kind === 'blocker_resolved') {
      drop(verdicts, e.id, `resolution of blocker #${e.resolves}`);
    } else if (e.kind === 'question') {
      const by = answeredBy.get(e.id);
      if (by === undefined) {
        openQuestions.push(textOf(e));
        keep(verdicts, e.id, 'open question');
      } else drop(verdicts, e.id, `answered by #${by.id}`);
    } else if (e.kind === 'answer') {
      answers.push({ ...textOf(e), question: questionText.get(e.answers) ?? `question #${e.answers}` });
    }
  }
  const keptAnswers = answers.slice(-maxAnswers);
  for (const a of answers) {
    if (keptAnswers.includes(a)) keep(verdicts, a.eventId, 'answer to a question');
    else drop(verdicts, a.eventId, `older than the ${maxAnswers} most recent answers`);
  }
  return { openBlockers, openQuestions, answers: keptAnswers };
}

function extractAgentNotes(events: readonly SessionEvent[]) {
  let intention = null as ActiveCheckpoint['intention'];
  let plan = null as { eventId: EventId; items: AgentTodoItem[] } | null;
  for (const e of events) {
    if (e.kind !== 'note') continue;
    if (e.said) intention = textOf(e);
    if (e.todos) plan = { eventId: e.id, items: applyAgentTodos(plan?.items ?? [], e.todos) };
  }
  const agentPlan = plan && {
    eventId: plan.eventId,
    items: plan.items.map((i, index) => ({ n: index + 1, text: i.text, state: i.state })),
  };
  return { intention, agentPlan };
}

function extractRest(events: readonly SessionEvent[], verdicts: Verdicts) {
  const { intention, agentPlan } = extractAgentNotes(events);
  let lastProgress: ActiveCheckpoint['lastProgress'] = null;
  for (const e of events) {
    if (e.kind === 'progress') {
      if (lastProgress !== null) drop(verdicts, lastProgress.eventId, 'older progress (kept in PROGRESS.md)');
      lastProgress = { ...textOf(e), next: e.next };
      keep(verdicts, e.id, 'latest progress');
    } else if (e.kind === 'plan_step_started' || e.kind === 'plan_step_done') {
      drop(verdicts, e.id, 'plan step state (held by the plan)');
    } else if (e.kind === 'note') {
      if (agentPlan?.eventId === e.id) keep(verdicts, e.id, "the agent's todo list");
      else if (intention?.eventId === e.id) keep(verdicts, e.id, "the agent's stated intention");
      else drop(verdicts, e.id, e.todos ? 'older todo list (the latest is in the checkpoint)' : 'free text');
    }
  }
  return { lastProgress, intention, agentPlan };
}

export function referenceExtract(input: ReferenceInput): Extraction {
  const events = [...input.events].sort((a, b) => a.id - b.id);
  const verdicts: Verdicts = new Map();
  const { latest, earlier } = extractInstructions(events, input.maxEarlierInstructions ?? 10, verdicts);
  const decisions = extractDecisions(events, verdicts);
  const files = extractFiles(events, verdicts);
  const validations = extractValidations(events, input.plan, verdicts);
  const { openBlockers, openQuestions, answers } = extractOpenItems(events, verdicts, input.maxAnswers ?? 10);
  const { lastProgress, intention, agentPlan } = extractRest(events, verdicts);
  const plan = input.plan;
  const blocker = openBlockers[openBlockers.length - 1] ?? null;
  const intentionRan =
    intention !== null && (events.find((e) => e.id === intention.eventId)?.stepId ?? null) !== null;
  const nextAction = chooseNextAction({
    plan,
    blocker,
    validations,
    latestInstruction: latest,
    lastProgress,
    agentPlan,
    intention,
    intentionRan,
    lastAction: null,
    taskState: null,
    files,
  });
  const goal =
    plan?.goal ||
    input.taskTitle ||
    events.find((e) => e.kind === 'instruction')?.text ||
    'No goal recorded yet.';
  const checkpoint: ActiveCheckpoint = {
    version: ACTIVE_CHECKPOINT_VERSION,
    sessionId: input.sessionId,
    taskId: input.taskId,
    goal,
    latestInstruction: latest,
    earlierInstructions: earlier,
    decisions,
    files,
    validations,
    blocker,
    openBlockers,
    openQuestions,
    answers,
    plan: plan && {
      goal: plan.goal,
      steps: plan.steps.map(({ id, n, what, why, state }) => ({ id, n, what, why, state })),
    },
    lastProgress,
    agentPlan,
    intention,
    intentionRan,
    lastAction: null,
    nextAction,
    lastEventId: events.length === 0 ? null : (events[events.length - 1] as SessionEvent).id,
    eventCount: events.length,
  };
  return { checkpoint, verdicts };
}

// plan-compression.ts before the fold

export interface ReferencePlanInput extends ReferenceInput {
  readonly limits?: Partial<CompressionLimits>;
  /** The summary in force before this compression (its size counts in "before"). */
  readonly previousSummaryChars?: number;
  readonly render?: RenderOptions;
}

export function referencePlanCompression(input: ReferencePlanInput): CompressionPlan {
  const limits = { ...defaultCompressionLimits, ...input.limits };
  const { checkpoint, verdicts } = referenceExtract(input);
  const markdown = renderSessionSummary(checkpoint, input.render);
  const active = [...input.events].filter((e) => e.compressedAt === null).sort((a, b) => a.id - b.id);
  const tail = chooseTail(active, limits);
  const inTail = new Set<EventId>(tail.map((e) => e.id));
  const compress = active.filter((e) => !inTail.has(e.id));
  const item = (e: SessionEvent, reason: string): BudgetItem => ({
    eventId: e.id,
    kind: e.kind,
    reason,
    chars: lineChars(e),
  });
  const kept: BudgetItem[] = [];
  const dropped: BudgetItem[] = [];
  for (const e of compress) {
    const verdict = verdicts.get(e.id);
    if (verdict?.keep) kept.push(item(e, verdict.reason));
    else dropped.push(item(e, verdict?.reason ?? 'not needed for the next step'));
  }
  const tailItems = tail.map((e) => item(e, verdicts.get(e.id)?.reason ?? 'recent'));
  const sum = (items: readonly BudgetItem[]) => items.reduce((n, i) => n + i.chars, 0);
  const beforeChars = sum(kept) + sum(dropped) + sum(tailItems) + (input.previousSummaryChars ?? 0);
  const tailChars = sum(tailItems);
  const budget: ContextBudget = {
    kept,
    dropped,
    tail: tailItems,
    before: { events: active.length, chars: beforeChars, approxTokens: approxTokens(beforeChars) },
    after: {
      summaryChars: markdown.length,
      tailEvents: tail.length,
      tailChars,
      chars: markdown.length + tailChars,
      approxTokens: approxTokens(markdown.length + tailChars),
    },
  };
  return { checkpoint, markdown, budget, compress, tail };
}

// The engine's validationsDone before the fold (src/engine/compression/resume.ts)

/** Every check's latest passed run (per name and plan step), with the files changed since that can affect it. */
export function referenceValidationsDone(all: readonly SessionEvent[]): ResumeValidation[] {
  const latest = new Map<string, ResumeValidation>();
  for (const e of [...all].sort((a, b) => a.id - b.id)) {
    if (e.kind !== 'validation' || e.baseline) continue;
    latest.set(`${e.planStepId ?? ''}\u0000${e.name}`, {
      eventId: e.id,
      name: e.name,
      command: e.command ?? e.name,
      result: e.result,
      planStepId: e.planStepId,
      at: e.createdAt,
      changedSince: referenceChangedSince(all, e.id),
    });
  }
  return [...latest.values()].filter((v) => v.result === 'passed');
}
