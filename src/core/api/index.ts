/**
 * The one contract between the engine (in the worker) and its callers (the app, embedding playgrounds).
 * Everything here is plain data: times are epoch ms, bytes are Uint8Array, ids are opaque numbers.
 * The worker's object `satisfies BrainApi`; the client holds a Comlink `Remote` of it.
 */
import type { SessionId, TaskId, MessageId, StepId, SummaryId } from '../ids';
import type {
  Json,
  Message,
  MessageRole,
  ReferenceKind,
  Session,
  Step,
  StepStatus,
  Summary,
  Task,
  TaskState,
} from '../model';
import type { CheckpointsApi } from './checkpoints';

export type { SessionId, TaskId, MessageId, StepId, SummaryId } from '../ids';
export type {
  Json,
  Message,
  MessageRole,
  ReferenceKind,
  Session,
  Step,
  StepStatus,
  Summary,
  Task,
  TaskState,
} from '../model';
export type { BrainErrorData, ErrorCode } from '../errors';
export * from './lifecycle';
import type { LifecycleApi } from './lifecycle';
export * from './memory';
import type { MemoryApi } from './memory';
export * from './project';
import type { ProjectApi } from './project';
export * from './checkpoints';
export * from './archive';
import type { ArchiveApi } from './archive';
export * from './size-history';
import type { ProgressApi, SizeHistoryApi } from './size-history';
export * from './tool-calls';
import type { ToolCallsApi } from './tool-calls';
export * from './importers';
import type { ImportersApi } from './importers';
export * from './follow';
import type { FollowApi } from './follow';
export * from './sessions';
import type { SessionsOverviewApi } from './sessions';

export type ChangeTopic =
  | 'sessions'
  | 'tasks'
  | 'messages'
  | 'steps'
  | 'summaries'
  | 'checkpoints'
  | 'cleanup'
  | 'database'
  | 'events'
  | 'plans'
  | 'project'
  /** A size sample was recorded (see `sizeHistory`). */
  | 'sizes'
  /** A followed folder was looked at, followed or unfollowed (see `listFollowedFolders`). */
  | 'follow';

export interface BrainChange {
  readonly topic: ChangeTopic;
  /** For `project`: the file that changed (absent when the whole project did: opened, closed, imported). */
  readonly path?: string;
  readonly sessionId?: SessionId;
  readonly taskId?: TaskId;
}

export type ChangeListener = (change: BrainChange) => void;

export interface BrainInfo {
  /** The database file name in OPFS (one per brain, so several brains can coexist). */
  readonly dbName: string;
  readonly storage: 'opfs' | 'memory';
  readonly schemaVersion: number;
  readonly fileBytes: number;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freelistCount: number;
  /** From navigator.storage.estimate(), when the browser reports it. */
  readonly quota: { readonly usage: number; readonly quota: number } | null;
  readonly persisted: boolean | null;
}

export interface StartTaskInput {
  readonly sessionId: SessionId;
  readonly title: string;
  readonly parentTaskId?: TaskId;
  readonly references?: readonly { readonly to: TaskId; readonly kind: ReferenceKind }[];
  /** Make it the session's current task (default true). */
  readonly makeCurrent?: boolean;
}

export interface RecordMessageInput {
  readonly sessionId: SessionId;
  readonly taskId?: TaskId;
  readonly role: MessageRole;
  readonly content: string;
}

export interface RecordStepInput {
  readonly taskId: TaskId;
  readonly tool: string;
  readonly params?: Json;
  readonly result?: Json;
  readonly status: StepStatus;
}

export interface RecordSummaryInput {
  readonly sessionId: SessionId;
  readonly taskId?: TaskId;
  readonly kind: string;
  readonly content: string;
}

export interface ImportReport {
  readonly schemaVersion: number;
  readonly migrated: readonly number[];
  readonly bytes: number;
}

export interface CoreApi {
  info(): Promise<BrainInfo>;
  startSession(input?: { readonly title?: string }): Promise<{ id: SessionId }>;
  listSessions(): Promise<Session[]>;
  getSession(id: SessionId): Promise<Session>;
  deleteSession(id: SessionId): Promise<void>;
  startTask(input: StartTaskInput): Promise<{ id: TaskId }>;
  getTask(id: TaskId): Promise<Task>;
  listTasks(sessionId: SessionId): Promise<Task[]>;
  setTaskState(taskId: TaskId, state: TaskState): Promise<void>;
  setCurrentTask(sessionId: SessionId, taskId: TaskId | null): Promise<void>;
  pinTask(taskId: TaskId, pinned: boolean): Promise<void>;
  addTaskReference(from: TaskId, to: TaskId, kind: ReferenceKind): Promise<void>;
  recordMessage(input: RecordMessageInput): Promise<{ id: MessageId }>;
  listMessages(sessionId: SessionId, taskId?: TaskId): Promise<Message[]>;
  /** `params`/`result`: plain JSON, at most `maxJsonDepth` (64) levels and `maxStepJsonChars` characters. */
  recordStep(input: RecordStepInput): Promise<{ id: StepId }>;
  /** A step whose stored params or result cannot be read back lists with that part null and `unreadable` set. */
  /** The task's steps in order; `last`: only the latest n (a live view's timeline). */
  listSteps(taskId: TaskId, options?: { readonly last?: number }): Promise<Step[]>;
  recordSummary(input: RecordSummaryInput): Promise<{ id: SummaryId }>;
  listSummaries(sessionId: SessionId): Promise<Summary[]>;
  /** `['ok']` for a sound database, else SQLite's list of problems. */
  integrityCheck(): Promise<string[]>;
  /** The listener is called after every committed change; the returned function unsubscribes. */
  subscribe(listener: ChangeListener): Promise<() => void>;
}

export interface DatabaseFileApi {
  /** A consistent copy of agent.db: a valid SQLite file. */
  exportDatabase(): Promise<Uint8Array>;
  /**
   * Replaces agent.db with `bytes` after validating them (SQLite header, integrity_check, schema version).
   * A bad file is refused with a typed error and the current database is kept as it was.
   */
  importDatabase(bytes: Uint8Array): Promise<ImportReport>;
}

export type BrainApi = CoreApi &
  SessionsOverviewApi &
  DatabaseFileApi &
  MemoryApi &
  CheckpointsApi &
  ProjectApi &
  LifecycleApi &
  ArchiveApi &
  SizeHistoryApi &
  ProgressApi &
  ToolCallsApi &
  ImportersApi &
  FollowApi;
