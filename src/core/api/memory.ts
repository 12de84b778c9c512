/**
 * The memory part of the engine API: structured session events, plans, context compression, resume, history
 * search and skills. Plain data only (it crosses the worker). The README's API reference documents every method.
 */
import type { ActiveCheckpoint, ContextBudget } from '../compression/model';
import type {
  EventKind,
  FileChangeKind,
  NewEventInput,
  PlanStepId,
  SessionEvent,
  ValidationResult,
} from '../events/model';
import type { CheckpointEntryId, EventId, SessionId, StepId, SummaryId, TaskId } from '../ids';
import type { Plan, PlanStep, PlanStepInput } from '../plan/model';
import type { Task } from '../model';

export type {
  ActiveCheckpoint,
  ContextBudget,
  BudgetItem,
  CheckpointFile,
  CheckpointValidation,
  NextAction,
} from '../compression/model';
export type {
  EventKind,
  FileChangeKind,
  NewEventInput,
  PlanStepId,
  SessionEvent,
  ValidationResult,
  InstructionEvent,
  DecisionEvent,
  FileChangeEvent,
  ValidationEvent,
  BlockerEvent,
  BlockerResolvedEvent,
  QuestionEvent,
  AnswerEvent,
  PlanStepEvent,
  ProgressEvent,
  NoteEvent,
} from '../events/model';
export type { EventId, CheckpointEntryId } from '../ids';
export type { Plan, PlanStep, PlanStepInput, PlanStepState } from '../plan/model';

/** What happened to the event's line in `.agent/SESSION.jsonl`. */
export type SessionFileStatus = 'appended' | 'no-folder' | 'failed';

export interface RecordedEvent {
  readonly id: EventId;
  readonly event: SessionEvent;
  /** `failed` leaves agent.db complete; the next compressContext rewrites the file from it. */
  readonly sessionFile: SessionFileStatus;
  readonly sessionFileError?: string;
  /** The session's active context passed its bound (200 events or 200 000 characters) and was compressed. */
  readonly autoCompressed?: true;
  /** That automatic compression failed (the event itself is recorded). */
  readonly autoCompressError?: string;
}

export interface RecordedBatch {
  readonly ids: readonly EventId[];
  readonly sessionFile: SessionFileStatus;
  readonly sessionFileError?: string;
  readonly autoCompressed?: true;
}

interface EventTarget {
  readonly sessionId: SessionId;
  readonly taskId?: TaskId;
  readonly stepId?: StepId;
  readonly planStepId?: PlanStepId;
}

export interface ListEventsOptions {
  readonly taskId?: TaskId;
  readonly kinds?: readonly EventKind[];
  readonly afterId?: EventId;
  /** Only events still in the active context (not compressed away). Default false: the whole log. */
  readonly activeOnly?: boolean;
  readonly limit?: number;
}

export interface EventsApi {
  recordEvent(input: NewEventInput): Promise<RecordedEvent>;
  /** Up to 10 000 events in one transaction (all or none), e.g. a replay or an import. */
  recordEvents(inputs: readonly NewEventInput[]): Promise<RecordedBatch>;
  recordInstruction(input: EventTarget & { readonly text: string }): Promise<RecordedEvent>;
  recordDecision(
    input: EventTarget & { readonly text: string; readonly why?: string; readonly supersedes?: EventId },
  ): Promise<RecordedEvent>;
  recordFileChange(
    input: EventTarget & {
      readonly path: string;
      readonly change?: FileChangeKind;
      readonly checkpointEntryId?: CheckpointEntryId;
      readonly text?: string;
    },
  ): Promise<RecordedEvent>;
  recordValidation(
    input: EventTarget & {
      readonly name: string;
      /** The command as typed, when the name is not it (`name` stays the check's identity). */
      readonly command?: string;
      readonly result: ValidationResult;
      readonly text?: string;
    },
  ): Promise<RecordedEvent>;
  raiseBlocker(input: EventTarget & { readonly text: string }): Promise<RecordedEvent>;
  resolveBlocker(
    input: EventTarget & { readonly blockerId: EventId; readonly text?: string },
  ): Promise<RecordedEvent>;
  askQuestion(input: EventTarget & { readonly text: string }): Promise<RecordedEvent>;
  answerQuestion(
    input: EventTarget & { readonly questionId: EventId; readonly text: string },
  ): Promise<RecordedEvent>;
  recordNote(input: EventTarget & { readonly text: string }): Promise<RecordedEvent>;
  /**
   * An event whose stored row cannot be read back as its kind reads as a note saying which and why, with
   * `unreadable` set (`NoteEvent`), so one damaged row never hides the rest of the session.
   */
  listEvents(sessionId: SessionId, options?: ListEventsOptions): Promise<SessionEvent[]>;
  /** As in `listEvents`: a damaged row reads as a note with `unreadable` set. */
  getEvent(id: EventId): Promise<SessionEvent>;
}

export interface CreatePlanInput {
  readonly taskId: TaskId;
  readonly goal: string;
  readonly steps: readonly PlanStepInput[];
}

/** Whether PLAN.md / PROGRESS.md were written (`no-folder` when no project folder is open; agent.db has it all). */
export interface PlanFileStatus {
  readonly planFile: 'written' | 'no-folder' | 'failed';
  readonly planFileError?: string;
}

export interface PlanChange extends PlanFileStatus {
  readonly plan: Plan;
  /** The step the call changed (absent for createPlan/addPlanSteps). */
  readonly step?: PlanStep;
  /** False when the step already was in that state (nothing recorded: calls are idempotent). */
  readonly changed: boolean;
}

export interface PlanApi {
  createPlan(input: CreatePlanInput): Promise<PlanChange>;
  getPlan(taskId: TaskId): Promise<Plan | null>;
  /** Inserts steps after `afterStepId` (default: at the end). */
  addPlanSteps(input: {
    readonly taskId: TaskId;
    readonly steps: readonly PlanStepInput[];
    readonly afterStepId?: PlanStepId;
  }): Promise<PlanChange>;
  startPlanStep(planStepId: PlanStepId, input?: { readonly note?: string }): Promise<PlanChange>;
  completePlanStep(planStepId: PlanStepId, input?: { readonly note?: string }): Promise<PlanChange>;
  skipPlanStep(planStepId: PlanStepId, input: { readonly reason: string }): Promise<PlanChange>;
  /** Appends to PROGRESS.md and records a `progress` event: what happened, and what comes next. */
  appendProgress(input: {
    readonly taskId: TaskId;
    readonly text: string;
    readonly next?: string;
    readonly planStepId?: PlanStepId;
  }): Promise<RecordedEvent & PlanFileStatus>;
}

export interface CompressOptions {
  /** Events kept verbatim in SESSION.jsonl after the summary (default 40, at most 500). */
  readonly keepTail?: number;
  /** Prose a model wrote on top of the active checkpoint (see compressWithProse in src/lib). */
  readonly prose?: string;
  /** The `lastEventId` of the active checkpoint the prose was written for; newer events mark the prose as stale. */
  readonly proseFor?: EventId | null;
}

export interface FilesWritten {
  readonly summary: boolean;
  readonly session: boolean;
  readonly history: boolean;
  readonly plan: boolean;
  /** Cut-short lines of the engine's own (a crash mid-append) left out of SESSION.jsonl; agent.db has their events. */
  readonly droppedFragments: number;
  /** `no-folder` when no project folder is open (agent.db still holds everything). */
  readonly status: 'written' | 'no-folder' | 'failed';
  readonly error?: string;
}

export interface CompressionResult {
  readonly compressionId: number;
  readonly summaryId: SummaryId;
  readonly checkpoint: ActiveCheckpoint;
  readonly budget: ContextBudget;
  /** SESSION_SUMMARY.md as written. */
  readonly markdown: string;
  readonly movedToHistory: number;
  readonly files: FilesWritten;
}

export interface ResumeValidation {
  readonly eventId: EventId;
  /** The check's identity (runs with the same name are the same check). */
  readonly name: string;
  /** The command as the agent typed it (the name when it recorded none). */
  readonly command: string;
  readonly result: ValidationResult;
  readonly planStepId: PlanStepId | null;
  readonly at: number;
  /** Files changed after this run that may affect it (not `.agent/`, outside-root or scratch files). */
  readonly changedSince: readonly string[];
}

export interface ResumePoint {
  readonly sessionId: SessionId;
  readonly task: Task | null;
  readonly goal: string;
  readonly plan: Plan | null;
  readonly checkpoint: ActiveCheckpoint;
  /** Shortcut to `checkpoint.nextAction`: what to do first. */
  readonly firstUnfinishedAction: ActiveCheckpoint['nextAction'];
  /**
   * Every check whose latest run passed, with `changedSince`: empty means nothing since could affect it (do not
   * run it again); otherwise the listed files changed after it.
   */
  readonly validationsDone: readonly ResumeValidation[];
  readonly filesChanged: ActiveCheckpoint['files'];
  /** What to put in the agent's context: the summary, the active tail, and which .agent files hold more. */
  readonly load: {
    readonly summaryMarkdown: string;
    readonly tail: readonly SessionEvent[];
    readonly files: readonly string[];
  };
  /** What was read from the project folder (null when none is open). */
  readonly folder: {
    readonly sessionLines: number;
    readonly tornLine: boolean;
    readonly malformedLines: readonly number[];
    /** Events in agent.db's active tail missing from SESSION.jsonl (a failed append; fixed by compressContext). */
    readonly missingFromFile: number;
  } | null;
}

export interface CompressionApi {
  /** The active checkpoint as it stands (no writes): what compressContext would keep. */
  activeCheckpoint(
    sessionId: SessionId,
  ): Promise<{ checkpoint: ActiveCheckpoint; budget: ContextBudget; markdown: string }>;
  compressContext(sessionId: SessionId, options?: CompressOptions): Promise<CompressionResult>;
  resumePoint(sessionId: SessionId): Promise<ResumePoint>;
}

export interface SearchHistoryOptions {
  readonly sessionId?: SessionId;
  readonly kinds?: readonly string[];
  /** Default 20, at most 200. */
  readonly limit?: number;
}

export interface HistoryHit {
  readonly source: 'event' | 'summary' | 'step';
  /** The event, summary or step id (by `source`). */
  readonly sourceId: number;
  readonly eventId: EventId | null;
  readonly sessionId: SessionId | null;
  readonly taskId: TaskId | null;
  readonly stepId: StepId | null;
  readonly planStepId: PlanStepId | null;
  readonly kind: string;
  readonly path: string | null;
  /** For file changes: open its diff with diffCheckpoint(checkpointEntryId). */
  readonly checkpointEntryId: CheckpointEntryId | null;
  readonly title: string;
  /** The matching text with hits in [brackets]. */
  readonly snippet: string;
  /** bm25: lower is better. Hits come best first. */
  readonly score: number;
  readonly createdAt: number;
}

export interface HistoryApi {
  searchHistory(
    query: string,
    options?: SearchHistoryOptions,
  ): Promise<{ hits: HistoryHit[]; matched: 'all' | 'any' | 'none' }>;
}

export interface SkillDraftResult {
  readonly taskId: TaskId;
  /** The skill name (from the task title unless given) and where saveSkill would put it. */
  readonly name: string;
  readonly path: string;
  readonly description: string;
  /** The SKILL.md draft: front matter (name, description) and the instructions. */
  readonly text: string;
  readonly steps: readonly string[];
  readonly validations: readonly {
    readonly name: string;
    readonly runs: number;
    readonly failedRuns: number;
  }[];
  /** A skill of that name exists already (saving with expectedVersion null would be a Conflict); null with no folder. */
  readonly exists: boolean | null;
}

export interface SkillsApi {
  /** A SKILL.md draft from a finished task whose validation passed; `Conflict` for any other task. Writes nothing. */
  draftSkillFromTask(taskId: TaskId, options?: { readonly name?: string }): Promise<SkillDraftResult>;
}

/** Everything issue 6 adds to the engine API. */
export type MemoryApi = EventsApi & PlanApi & CompressionApi & HistoryApi & SkillsApi;
