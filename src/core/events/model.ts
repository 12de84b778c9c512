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
};
export type ValidationEvent = EventCommon & {
  readonly kind: 'validation';
  /** What was run, e.g. `npm test` or `typecheck`: validations with the same name are the same check. */
  readonly name: string;
  readonly result: ValidationResult;
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
    }
  | { readonly kind: 'validation'; readonly name: string; readonly result: ValidationResult }
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
  readonly result?: ValidationResult;
  readonly next?: string;
  readonly outside?: true;
  readonly said?: true;
  readonly todos?: AgentTodos;
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
  const textRequired = ![
    'file_change',
    'validation',
    'plan_step_started',
    'plan_step_done',
    'blocker_resolved',
    'answer',
  ].includes(kind);
  const text =
    textRequired || raw['text'] !== undefined
      ? textRequired
        ? requireNonEmpty(raw['text'], `The ${kind} text`, limits.maxTextChars)
        : requireText(raw['text'], `The ${kind} text`, limits.maxTextChars)
      : '';
  const base = {
    sessionId: asSessionId(requireId(raw['sessionId'], 'sessionId')),
    taskId: optionalId(raw['taskId'], 'taskId', asTaskId),
    stepId: optionalId(raw['stepId'], 'stepId', asStepId),
    planStepId: optionalId(raw['planStepId'], 'planStepId', asPlanStepId),
    kind,
    text,
    refEventId: null as EventId | null,
    path: null as string | null,
    checkpointEntryId: null as CheckpointEntryId | null,
  };
  switch (kind) {
    case 'instruction':
    case 'blocker':
    case 'question':
      return { ...base, data: {} };
    case 'note':
      return {
        ...base,
        data: {
          ...(raw['said'] === true ? { said: true as const } : {}),
          ...(raw['todos'] === undefined || raw['todos'] === null
            ? {}
            : { todos: parseAgentTodos(raw['todos']) }),
        },
      };
    case 'decision': {
      const why =
        raw['why'] === undefined || raw['why'] === null
          ? undefined
          : requireText(raw['why'], 'Decision why', limits.maxTextChars);
      return {
        ...base,
        refEventId: optionalId(raw['supersedes'], 'supersedes', asEventId),
        data: why === undefined || why.trim() === '' ? {} : { why: why.trim() },
      };
    }
    case 'file_change':
      return {
        ...base,
        path: requireNonEmpty(raw['path'], 'File path', limits.maxNameChars),
        checkpointEntryId: optionalId(raw['checkpointEntryId'], 'checkpointEntryId', asCheckpointEntryId),
        data: {
          change: raw['change'] === undefined ? 'modified' : parseFileChangeKind(raw['change']),
          ...(raw['outside'] === true ? { outside: true as const } : {}),
        },
      };
    case 'validation':
      return {
        ...base,
        data: {
          name: requireNonEmpty(raw['name'], 'Validation name', limits.maxNameChars),
          result: parseValidationResult(raw['result']),
        },
      };
    case 'blocker_resolved':
      return { ...base, refEventId: asEventId(requireId(raw['resolves'], 'resolves')), data: {} };
    case 'answer':
      return { ...base, refEventId: asEventId(requireId(raw['answers'], 'answers')), data: {} };
    case 'plan_step_started':
    case 'plan_step_done':
      if (base.planStepId === null)
        throw new BrainError('InvalidArgument', `A ${kind} event needs the planStepId.`);
      return { ...base, data: {} };
    case 'progress': {
      const next =
        raw['next'] === undefined || raw['next'] === null
          ? ''
          : requireText(raw['next'], 'Progress next', limits.maxTextChars).trim();
      return { ...base, data: next === '' ? {} : { next } };
    }
  }
}

/** Rebuilds the typed event from its stored columns (the inverse of `parseEventInput`). */
export function eventFromRecord(
  record: EventRecord & {
    readonly id: EventId;
    readonly createdAt: number;
    readonly compressedAt: number | null;
  },
): SessionEvent {
  const common = {
    id: record.id,
    sessionId: record.sessionId,
    taskId: record.taskId,
    stepId: record.stepId,
    planStepId: record.planStepId,
    text: record.text,
    createdAt: record.createdAt,
    compressedAt: record.compressedAt,
  };
  const ref = () => {
    if (record.refEventId === null)
      throw new BrainError('CorruptDatabase', `Event ${record.id} (${record.kind}) lost its reference.`);
    return record.refEventId;
  };
  switch (record.kind) {
    case 'instruction':
    case 'blocker':
    case 'question':
      return { ...common, kind: record.kind };
    case 'note':
      return {
        ...common,
        kind: 'note',
        ...(record.data.said === true ? { said: true as const } : {}),
        ...(record.data.todos === undefined ? {} : { todos: record.data.todos }),
      };
    case 'decision':
      return { ...common, kind: 'decision', why: record.data.why ?? null, supersedes: record.refEventId };
    case 'file_change':
      return {
        ...common,
        kind: 'file_change',
        path: record.path ?? '',
        change: record.data.change ?? 'modified',
        checkpointEntryId: record.checkpointEntryId,
        ...(record.data.outside === true ? { outside: true as const } : {}),
      };
    case 'validation':
      return {
        ...common,
        kind: 'validation',
        name: record.data.name ?? '',
        result: record.data.result ?? 'error',
      };
    case 'blocker_resolved':
      return { ...common, kind: 'blocker_resolved', resolves: ref() };
    case 'answer':
      return { ...common, kind: 'answer', answers: ref() };
    case 'plan_step_started':
    case 'plan_step_done':
      if (record.planStepId === null)
        throw new BrainError('CorruptDatabase', `Event ${record.id} lost its plan step.`);
      return { ...common, kind: record.kind, planStepId: record.planStepId };
    case 'progress':
      return { ...common, kind: 'progress', next: record.data.next ?? null };
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
      return `${event.name}: ${event.result}${event.text ? ` — ${event.text}` : ''}`;
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
