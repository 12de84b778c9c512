/**
 * The fold's state as JSON, saved with each compression so the next one resumes it. Versioned: a state of
 * another format, of other limits, or that does not read back is refused (`null`), and the caller folds again
 * from the first event — slower once, never wrong.
 */
import type { EventId } from '../ids';
import {
  checkKey,
  initialFold,
  normaliseInstruction,
  type AgentPlanFold,
  type AnswerFold,
  type CheckFold,
  type BaselineFold,
  type CompressionFold,
  type FileFold,
  type FoldLimits,
  type ProgressFold,
} from './fold';
import type { CheckpointDecision, CheckpointText } from './model';

/** Bump when the state's shape or meaning changes: older saved states are then folded again from the start. */
export const FOLD_FORMAT = 4;

interface FoldJson {
  readonly format: number;
  readonly limits: FoldLimits;
  readonly eventCount: number;
  readonly lastEventId: number | null;
  readonly lastTaskId: number | null;
  readonly firstInstruction: string | null;
  readonly instructions: readonly CheckpointText[];
  readonly decisions: readonly CheckpointDecision[];
  readonly retired: readonly (readonly [number, readonly number[]])[];
  readonly files: readonly FileFold[];
  readonly lastFileChange: number;
  readonly checks: readonly CheckFold[];
  readonly latestCheckByName: readonly (readonly [string, string])[];
  readonly baselines: readonly BaselineFold[];
  readonly openBlockers: readonly CheckpointText[];
  readonly openQuestions: readonly CheckpointText[];
  readonly questionTexts: readonly (readonly [number, string])[];
  readonly answers: readonly AnswerFold[];
  readonly lastProgress: ProgressFold | null;
  readonly lastIntention: CheckpointText | null;
  readonly lastIntentionRan: boolean;
  readonly agentPlan: AgentPlanFold | null;
}

export function foldToJson(state: CompressionFold): string {
  const json: FoldJson = {
    format: FOLD_FORMAT,
    limits: state.limits,
    eventCount: state.eventCount,
    lastEventId: state.lastEventId,
    lastTaskId: state.lastTaskId,
    firstInstruction: state.firstInstruction,
    instructions: [...state.instructions.values()],
    decisions: [...state.decisions.values()],
    retired: [...state.retired],
    files: [...state.files.values()],
    lastFileChange: state.lastFileChange,
    checks: [...state.checks.values()],
    latestCheckByName: [...state.latestCheckByName],
    baselines: [...state.baselines.values()],
    openBlockers: [...state.openBlockers.values()],
    openQuestions: [...state.openQuestions.values()],
    questionTexts: [...state.questionTexts],
    answers: state.answers,
    lastProgress: state.lastProgress,
    lastIntention: state.lastIntention,
    lastIntentionRan: state.lastIntentionRan,
    agentPlan: state.agentPlan,
  };
  return JSON.stringify(json);
}

type Check = (value: unknown) => boolean;
const isInt: Check = (v) => Number.isSafeInteger(v);
const isId: Check = (v) => isInt(v) && (v as number) > 0;
const isString: Check = (v) => typeof v === 'string';
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);
const isArrayOf =
  (check: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(check);
const isPair =
  (a: Check, b: Check): Check =>
  (v) =>
    Array.isArray(v) && v.length === 2 && a(v[0]) && b(v[1]);
const isRecord =
  (shape: Record<string, Check>): Check =>
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.entries(shape).every(([key, check]) => check((v as Record<string, unknown>)[key]));
const isOneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);

const text = { eventId: isId, text: isString, at: isInt };
const isText = isRecord(text);
const isLimits = isRecord({
  maxEarlierInstructions: isInt,
  maxAnswers: isInt,
  maxItems: isInt,
  maxLinks: isInt,
  maxChecks: isInt,
});
const change = isOneOf('created', 'modified', 'deleted');
const isFoldJson = isRecord({
  format: (v) => v === FOLD_FORMAT,
  limits: isLimits,
  eventCount: isInt,
  lastEventId: orNull(isId),
  lastTaskId: orNull(isId),
  firstInstruction: orNull(isString),
  instructions: isArrayOf(isText),
  decisions: isArrayOf(isRecord({ ...text, why: orNull(isString), replaces: isArrayOf(isId) })),
  retired: isArrayOf(isPair(isId, isArrayOf(isId))),
  files: isArrayOf(
    isRecord({
      path: isString,
      first: change,
      last: change,
      edits: isInt,
      entries: isArrayOf(isId),
      lastEventId: isId,
      lastText: isString,
      madeAt: orNull(isId),
      outside: (v) => typeof v === 'boolean',
    }),
  ),
  lastFileChange: isInt,
  checks: isArrayOf(
    isRecord({
      latest: isRecord({
        ...text,
        name: isString,
        command: isString,
        result: isOneOf('passed', 'failed', 'error'),
        planStepId: orNull(isId),
      }),
      runs: isInt,
      failed: isInt,
      firstEventId: isId,
    }),
  ),
  latestCheckByName: isArrayOf(isPair(isString, isString)),
  baselines: isArrayOf(isRecord({ ...text, name: isString, result: isOneOf('passed', 'failed', 'error') })),
  openBlockers: isArrayOf(isText),
  openQuestions: isArrayOf(isText),
  questionTexts: isArrayOf(isPair(isId, isString)),
  answers: isArrayOf(isRecord({ ...text, question: isString })),
  lastProgress: orNull(isRecord({ ...text, next: orNull(isString) })),
  lastIntention: orNull(isText),
  lastIntentionRan: (v) => typeof v === 'boolean',
  agentPlan: orNull(
    isRecord({
      eventId: isId,
      at: isInt,
      items: isArrayOf(
        isRecord({
          text: isString,
          state: isOneOf('todo', 'started', 'done', 'skipped'),
          id: orNull(isString),
        }),
      ),
    }),
  ),
});

const sameLimits = (a: FoldLimits, b: FoldLimits) =>
  (Object.keys(b) as (keyof FoldLimits)[]).every((key) => a[key] === b[key]);

/** The saved state, or null when it is of another format or other limits, or does not read back whole. */
export function foldFromJson(text: string, limits: Partial<FoldLimits> = {}): CompressionFold | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isFoldJson(json)) return null;
  const saved = json as FoldJson;
  const state = initialFold(limits);
  if (!sameLimits(saved.limits, state.limits)) return null;
  state.eventCount = saved.eventCount;
  state.lastEventId = saved.lastEventId as EventId | null;
  state.lastTaskId = saved.lastTaskId as CompressionFold['lastTaskId'];
  state.firstInstruction = saved.firstInstruction;
  state.lastFileChange = saved.lastFileChange;
  state.lastProgress = saved.lastProgress;
  state.lastIntention = saved.lastIntention;
  state.lastIntentionRan = saved.lastIntentionRan;
  state.agentPlan = saved.agentPlan;
  for (const i of saved.instructions) state.instructions.set(normaliseInstruction(i.text), i);
  for (const d of saved.decisions) state.decisions.set(d.eventId, d);
  for (const [id, replaces] of saved.retired) state.retired.set(id as EventId, replaces as EventId[]);
  for (const f of saved.files) state.files.set(f.path, f);
  for (const c of saved.checks) state.checks.set(checkKey(c.latest.planStepId, c.latest.name), c);
  for (const [name, key] of saved.latestCheckByName) state.latestCheckByName.set(name, key);
  for (const b of saved.baselines) state.baselines.set(b.name, b);
  for (const b of saved.openBlockers) state.openBlockers.set(b.eventId, b);
  for (const q of saved.openQuestions) state.openQuestions.set(q.eventId, q);
  for (const [id, question] of saved.questionTexts) state.questionTexts.set(id as EventId, question);
  state.answers.push(...saved.answers);
  return state;
}
