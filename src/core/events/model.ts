/**
 * Structured session events: what an agent did, typed so that compression can keep what the next step needs and
 * drop the rest without a model. Free text is allowed everywhere (`text`), but the structure (kinds, links to the
 * events a decision supersedes or a resolution resolves, checkpoint entries, validation results, plan steps) is
 * what the extractor relies on.
 */
import { BrainError } from '../errors';
import type { CheckpointEntryId, EventId, SessionId, StepId, TaskId } from '../ids';
import { asCheckpointEntryId, asEventId, asSessionId, asStepId, asTaskId } from '../ids';
import { requireId, requireText } from '../model';
import { parseAgentTodos, type AgentTodos } from './agent-notes';

export const eventKinds = [
  'instruction',
  'decision',
  'file_change',
  'validation',
  'blocker',
  'blocker_resolved',
  'question',
  'answer',
  'plan_step_started',
  'plan_step_done',
  'progress',
  'note',
] as const;
export type EventKind = (typeof eventKinds)[number];

export const validationResults = ['passed', 'failed', 'error'] as const;
export type ValidationResult = (typeof validationResults)[number];

export const fileChangeKinds = ['created', 'modified', 'deleted'] as const;
export type FileChangeKind = (typeof fileChangeKinds)[number];

/** A plan step's identity: stable while the plan is edited (its position may change, its id does not). */
export type PlanStepId = number & { readonly __planStepId: true };
export const asPlanStepId = (n: number) => n as PlanStepId;

interface EventCommon {
  readonly id: EventId;
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  /** The recorded tool step this event came from, when there is one. */
  readonly stepId: StepId | null;
  /** The plan step the agent was working on, when known. */
  readonly planStepId: PlanStepId | null;
  readonly text: string;
  readonly createdAt: number;
  /** When a compression moved it out of the active context (it stays in agent.db and the search index). */
  readonly compressedAt: number | null;
}

export type InstructionEvent = EventCommon & { readonly kind: 'instruction' };
export type DecisionEvent = EventCommon & {
  readonly kind: 'decision';
  readonly why: string | null;
  /** The earlier decision this one replaces: that one is no longer in force. */
  readonly supersedes: EventId | null;
};
export type FileChangeEvent = EventCommon & {
  readonly kind: 'file_change';
  readonly path: string;
  readonly change: FileChangeKind;
  /** The checkpoint entry holding the before/after bodies (its diff), when the file was checkpointed. */
  readonly checkpointEntryId: CheckpointEntryId | null;
  /** The file lies outside the project root the agent worked in: its change never makes a check stale. */
  readonly outside?: true;
  /**
   * Seen, not made, at this step: a diff or status the agent printed (or its final submission) shows the file
   * changed at some earlier step the log does not hold (a script rewrote it). When it changed is not known, so it
   * never makes a check stale.
   */
  readonly shown?: true;
};
export type ValidationEvent = EventCommon & {
  readonly kind: 'validation';
  /** What was run, e.g. `npm test` or `typecheck`: validations with the same name are the same check. */
  readonly name: string;
  /**
   * The command as the agent typed it (`python3 -m pytest tests/test_x.py -q`), when it differs from the name —
   * a recorded check's name is its normalised identity (`pytest tests/test_x.py`). Shown and quoted, never used
   * to tell checks apart.
   */
  readonly command?: string;
  readonly result: ValidationResult;
  /** Run with the agent's changes set aside (a `git stash` before it): what failed here failed before the change. */
  readonly baseline?: true;
};
export type BlockerEvent = EventCommon & { readonly kind: 'blocker' };
export type BlockerResolvedEvent = EventCommon & {
  readonly kind: 'blocker_resolved';
  readonly resolves: EventId;
};
export type QuestionEvent = EventCommon & { readonly kind: 'question' };
export type AnswerEvent = EventCommon & { readonly kind: 'answer'; readonly answers: EventId };
export type PlanStepEvent = EventCommon & {
  readonly kind: 'plan_step_started' | 'plan_step_done';
  readonly planStepId: PlanStepId;
};
export type ProgressEvent = EventCommon & { readonly kind: 'progress'; readonly next: string | null };
export type NoteEvent = EventCommon & {
  readonly kind: 'note';
  /**
   * Present only on a stand-in: a stored event that could not be read back (its row was changed outside
   * agent-brain) is returned as a note whose text names the event and why, e.g. "Event 17 could not be read: its
   * data is not valid JSON." This holds what of the row could still be read; the other fields are the row's.
   */
  readonly unreadable?: { readonly kind: string; readonly text: string };
  /** The agent's own words (its reasoning or message): the latest is its stated intention (agent-notes.ts). */
  readonly said?: true;
  /** The agent's todo list as its plan tool wrote it: the plan while the task has none (agent-notes.ts). */
  readonly todos?: AgentTodos;
};

export type SessionEvent =
  | InstructionEvent
  | DecisionEvent
  | FileChangeEvent
  | ValidationEvent
  | BlockerEvent
  | BlockerResolvedEvent
  | QuestionEvent
  | AnswerEvent
  | PlanStepEvent
  | ProgressEvent
  | NoteEvent;

/** What a caller sends to record an event (`recordEvent`); the engine adds id, time and session checks. */
export type NewEventInput = {
  readonly sessionId: SessionId;
  readonly taskId?: TaskId | null;
  readonly stepId?: StepId | null;
  readonly planStepId?: PlanStepId | null;
  readonly text?: string;
} & (
  | { readonly kind: 'instruction' | 'blocker' | 'question' }
  | { readonly kind: 'note'; readonly said?: boolean; readonly todos?: AgentTodos }
  | { readonly kind: 'decision'; readonly why?: string | null; readonly supersedes?: EventId | null }
  | {
      readonly kind: 'file_change';
      readonly path: string;
      readonly change?: FileChangeKind;
      readonly checkpointEntryId?: CheckpointEntryId | null;
      readonly outside?: boolean;
      readonly shown?: boolean;
    }
  | {
      readonly kind: 'validation';
      readonly name: string;
      readonly command?: string | null;
      readonly result: ValidationResult;
      readonly baseline?: boolean;
    }
  | { readonly kind: 'blocker_resolved'; readonly resolves: EventId }
  | { readonly kind: 'answer'; readonly answers: EventId }
  | { readonly kind: 'plan_step_started' | 'plan_step_done'; readonly planStepId: PlanStepId }
  | { readonly kind: 'progress'; readonly next?: string | null }
);

/**
 * A validated event, flattened to the columns it is stored in: `refEventId` is what a decision supersedes, a
 * resolution resolves, an answer answers; `data` holds the few kind-specific fields without a column.
 */
export interface EventRecord {
  readonly sessionId: SessionId;
  readonly taskId: TaskId | null;
  readonly stepId: StepId | null;
  readonly planStepId: PlanStepId | null;
  readonly kind: EventKind;
  readonly text: string;
  readonly refEventId: EventId | null;
  readonly path: string | null;
  readonly checkpointEntryId: CheckpointEntryId | null;
  readonly data: EventData;
}

export interface EventData {
  readonly why?: string;
  readonly change?: FileChangeKind;
  readonly name?: string;
  readonly command?: string;
  readonly result?: ValidationResult;
  readonly next?: string;
  readonly outside?: true;
  readonly shown?: true;
  readonly said?: true;
  readonly todos?: AgentTodos;
  readonly baseline?: true;
}

export interface EventLimits {
  readonly maxTextChars: number;
  readonly maxNameChars: number;
}

export const defaultEventLimits: EventLimits = { maxTextChars: 100_000, maxNameChars: 500 };

function oneOf<T extends string>(values: readonly T[], value: unknown, what: string): T {
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw new BrainError(
    'InvalidArgument',
    `${what} must be one of ${values.join(', ')}; got ${JSON.stringify(value)}.`,
  );
}

export const parseEventKind = (value: unknown) => oneOf(eventKinds, value, 'Event kind');
export const parseValidationResult = (value: unknown) => oneOf(validationResults, value, 'Validation result');
export const parseFileChangeKind = (value: unknown) => oneOf(fileChangeKinds, value, 'File change');

const optionalId = <T>(value: unknown, what: string, as: (n: number) => T): T | null =>
  value === undefined || value === null ? null : as(requireId(value, what));

function requireNonEmpty(value: unknown, what: string, max: number): string {
  const text = requireText(value, what, max).trim();
  if (text === '') throw new BrainError('InvalidArgument', `${what} must not be empty.`);
  return text;
}

/** Kinds whose text may be empty (their other fields say what happened). */
const textOptional: ReadonlySet<EventKind> = new Set([
  'file_change',
  'validation',
  'plan_step_started',
  'plan_step_done',
  'blocker_resolved',
  'answer',
]);

/** Validates what a caller sent (it crossed a worker boundary: trust nothing) into the stored shape. */
export function parseEventInput(input: unknown, limits: EventLimits = defaultEventLimits): EventRecord {
  if (typeof input !== 'object' || input === null) {
    throw new BrainError(
      'InvalidArgument',
      'An event must be an object with at least `sessionId` and `kind`.',
    );
  }
  const raw = input as Record<string, unknown>;
  const kind = parseEventKind(raw['kind']);
  const textRequired = !textOptional.has(kind);
  const text =
    textRequired || raw['text'] !== undefined
      ? textRequired
        ? requireNonEmpty(raw['text'], `The ${kind} text`, limits.maxTextChars)
        : requireText(raw['text'], `The ${kind} text`, limits.maxTextChars)
      : '';
  // Built once with every key in place, then the kind's fields set: no object spread on this path (in Node 20 a
  // spread with further keys costs microseconds; the record's key order is unchanged).
  const record: Mutable<EventRecord> = {
    sessionId: asSessionId(requireId(raw['sessionId'], 'sessionId')),
    taskId: optionalId(raw['taskId'], 'taskId', asTaskId),
    stepId: optionalId(raw['stepId'], 'stepId', asStepId),
    planStepId: optionalId(raw['planStepId'], 'planStepId', asPlanStepId),
    kind,
    text,
    refEventId: null,
    path: null,
    checkpointEntryId: null,
    data: {},
  };
  switch (kind) {
    case 'instruction':
    case 'blocker':
    case 'question':
      return record;
    case 'note': {
      const data: Mutable<EventData> = {};
      if (raw['said'] === true) data.said = true;
      if (raw['todos'] !== undefined && raw['todos'] !== null) data.todos = parseAgentTodos(raw['todos']);
      record.data = data;
      return record;
    }
    case 'decision': {
      const why =
        raw['why'] === undefined || raw['why'] === null
          ? undefined
          : requireText(raw['why'], 'Decision why', limits.maxTextChars);
      record.refEventId = optionalId(raw['supersedes'], 'supersedes', asEventId);
      if (why !== undefined && why.trim() !== '') record.data = { why: why.trim() };
      return record;
    }
    case 'file_change': {
      record.path = requireNonEmpty(raw['path'], 'File path', limits.maxNameChars);
      record.checkpointEntryId = optionalId(
        raw['checkpointEntryId'],
        'checkpointEntryId',
        asCheckpointEntryId,
      );
      const data: Mutable<EventData> = {
        change: raw['change'] === undefined ? 'modified' : parseFileChangeKind(raw['change']),
      };
      if (raw['outside'] === true) data.outside = true;
      if (raw['shown'] === true) data.shown = true;
      record.data = data;
      return record;
    }
    case 'validation': {
      const name = requireNonEmpty(raw['name'], 'Validation name', limits.maxNameChars);
      const command =
        raw['command'] === undefined || raw['command'] === null
          ? ''
          : requireText(raw['command'], 'Validation command', limits.maxTextChars).trim();
      record.data = {
        name,
        ...(command !== '' && command !== name ? { command } : {}),
        result: parseValidationResult(raw['result']),
        ...(raw['baseline'] === true ? { baseline: true as const } : {}),
      };
      return record;
    }
    case 'blocker_resolved':
      record.refEventId = asEventId(requireId(raw['resolves'], 'resolves'));
      return record;
    case 'answer':
      record.refEventId = asEventId(requireId(raw['answers'], 'answers'));
      return record;
    case 'plan_step_started':
    case 'plan_step_done':
      if (record.planStepId === null)
        throw new BrainError('InvalidArgument', `A ${kind} event needs the planStepId.`);
      return record;
    case 'progress': {
      const next =
        raw['next'] === undefined || raw['next'] === null
          ? ''
          : requireText(raw['next'], 'Progress next', limits.maxTextChars).trim();
      if (next !== '') record.data = { next };
      return record;
    }
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What every event has, in this key order, with its kind last: a fresh object the kind's fields are set on. */
function commonOf<E extends SessionEvent>(record: EventRecord & EventStamp, kind: E['kind']): Mutable<E> {
  return {
    id: record.id,
    sessionId: record.sessionId,
    taskId: record.taskId,
    stepId: record.stepId,
    planStepId: record.planStepId,
    text: record.text,
    createdAt: record.createdAt,
    compressedAt: record.compressedAt,
    kind,
  } as Mutable<E>;
}

interface EventStamp {
  readonly id: EventId;
  readonly createdAt: number;
  readonly compressedAt: number | null;
}

/** Rebuilds the typed event from its stored columns (the inverse of `parseEventInput`). */
export function eventFromRecord(record: EventRecord & EventStamp): SessionEvent {
  const ref = () => {
    if (record.refEventId === null)
      throw new BrainError('CorruptDatabase', `Event ${record.id} (${record.kind}) lost its reference.`);
    return record.refEventId;
  };
  switch (record.kind) {
    case 'instruction':
    case 'blocker':
    case 'question':
      return commonOf(record, record.kind);
    case 'note': {
      const note = commonOf<NoteEvent>(record, 'note');
      if (record.data.said === true) note.said = true;
      if (record.data.todos !== undefined) note.todos = record.data.todos;
      return note;
    }
    case 'decision': {
      const decision = commonOf<DecisionEvent>(record, 'decision');
      decision.why = record.data.why ?? null;
      decision.supersedes = record.refEventId;
      return decision;
    }
    case 'file_change': {
      const change = commonOf<FileChangeEvent>(record, 'file_change');
      change.path = record.path ?? '';
      change.change = record.data.change ?? 'modified';
      change.checkpointEntryId = record.checkpointEntryId;
      if (record.data.outside === true) change.outside = true;
      if (record.data.shown === true) change.shown = true;
      return change;
    }
    case 'validation': {
      const validation = commonOf<ValidationEvent>(record, 'validation');
      validation.name = record.data.name ?? '';
      if (record.data.command !== undefined) validation.command = record.data.command;
      validation.result = record.data.result ?? 'error';
      if (record.data.baseline === true) validation.baseline = true;
      return validation;
    }
    case 'blocker_resolved': {
      const resolved = commonOf<BlockerResolvedEvent>(record, 'blocker_resolved');
      resolved.resolves = ref();
      return resolved;
    }
    case 'answer': {
      const answer = commonOf<AnswerEvent>(record, 'answer');
      answer.answers = ref();
      return answer;
    }
    case 'plan_step_started':
    case 'plan_step_done': {
      if (record.planStepId === null)
        throw new BrainError('CorruptDatabase', `Event ${record.id} lost its plan step.`);
      return commonOf<PlanStepEvent>(record, record.kind);
    }
    case 'progress': {
      const progress = commonOf<ProgressEvent>(record, 'progress');
      progress.next = record.data.next ?? null;
      return progress;
    }
  }
}

/** One line of text for lists, search results and the summary (no markdown). */
export function describeEvent(event: SessionEvent): string {
  switch (event.kind) {
    case 'instruction':
      return `User: ${event.text}`;
    case 'decision':
      return `Decision: ${event.text}${event.why ? ` (why: ${event.why})` : ''}`;
    case 'file_change':
      return `${event.change === 'created' ? 'Created' : event.change === 'deleted' ? 'Deleted' : 'Changed'} ${event.path}${event.text ? `: ${event.text}` : ''}`;
    case 'validation':
      return `${event.command ?? event.name}${event.baseline ? ' (changes set aside)' : ''}: ${event.result}${event.text ? ` — ${event.text}` : ''}`;
    case 'blocker':
      return `Blocker: ${event.text}`;
    case 'blocker_resolved':
      return `Blocker #${event.resolves} resolved${event.text ? `: ${event.text}` : ''}`;
    case 'question':
      return `Question: ${event.text}`;
    case 'answer':
      return `Answer to #${event.answers}${event.text ? `: ${event.text}` : ''}`;
    case 'plan_step_started':
      return `Started plan step${event.text ? `: ${event.text}` : ''}`;
    case 'plan_step_done':
      return `Finished plan step${event.text ? `: ${event.text}` : ''}`;
    case 'progress':
      return `Progress: ${event.text}${event.next ? ` Next: ${event.next}` : ''}`;
    case 'note':
      return event.text;
  }
}

const kindTitles: Record<EventKind, string> = {
  instruction: 'Instruction',
  decision: 'Decision',
  file_change: 'File change',
  validation: 'Validation',
  blocker: 'Blocker',
  blocker_resolved: 'Blocker resolved',
  question: 'Question',
  answer: 'Answer',
  plan_step_started: 'Plan step started',
  plan_step_done: 'Plan step done',
  progress: 'Progress',
  note: 'Note',
};

/** The searchable form of an event: a short title (kind, path or check) and the text. */
export function eventDocument(event: SessionEvent): { title: string; body: string } {
  const kind = kindTitles[event.kind];
  const title =
    event.kind === 'file_change'
      ? `${kind} ${event.path}`
      : event.kind === 'validation'
        ? `${kind} ${event.name} ${event.result}`
        : kind;
  return { title, body: describeEvent(event) };
}
