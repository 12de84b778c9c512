/**
 * Lifecycle API: which tasks keep their heavy data and why, cleanup with a log, a fast storage audit, and space
 * upkeep. Plain data only (times epoch ms, sizes in bytes).
 */
import type { BrainErrorData } from '../errors';
import type { SessionId, TaskId } from '../ids';
import type { TaskState } from '../model';
import type { CleanReason, KeepReason, SkipReason } from '../retention/types';
import type { AutoCleanupSettings, AutoCleanupStatus } from '../retention/scheduler';

export type { CleanReason, KeepReason, RetentionReason, SkipReason } from '../retention/types';
export type { AutoCleanupSettings, AutoCleanupStatus } from '../retention/scheduler';

/** A task's heavy data as it stands: steps, and checkpoint entries with the bytes their bodies take. */
export interface HeavyData {
  readonly steps: number;
  /** UTF-8 bytes of the steps' tool, params and result. */
  readonly stepBytes: number;
  readonly checkpointEntries: number;
  /** Bytes of the bodies its entries use, as stored (compressed) and raw. Bodies shared with other tasks count here too. */
  readonly checkpointStoredBytes: number;
  readonly checkpointRawBytes: number;
  /** The part of checkpointStoredBytes no other task uses: about what removing the task's checkpoints frees. */
  readonly checkpointExclusiveStoredBytes: number;
}

interface PlannedTaskBase {
  readonly taskId: TaskId;
  readonly sessionId: SessionId | null;
  readonly title: string;
  readonly state: TaskState;
  readonly pinned: boolean;
  readonly heavyRemovedAt: number | null;
  /** The first reason, in words. */
  readonly reasonText: string;
  readonly heavy: HeavyData;
  /** Bytes a cleanup would free for this task: step bytes + exclusive stored checkpoint bytes (0 unless the verdict is clean). */
  readonly freesBytes: number;
}

export type PlannedTask = PlannedTaskBase &
  (
    | { readonly verdict: 'keep'; readonly reasons: readonly KeepReason[] }
    | { readonly verdict: 'clean'; readonly reasons: readonly CleanReason[] }
    | { readonly verdict: 'skip'; readonly reasons: readonly SkipReason[] }
  );

/** A task whose row is gone but whose checkpoint entries remain: an orphan, cleaned a few a pass. */
export interface PlannedVanishedTask {
  readonly taskId: TaskId;
  readonly verdict: 'clean' | 'skip';
  readonly reasons: readonly (CleanReason | SkipReason)[];
  readonly reasonText: string;
  readonly heavy: HeavyData;
  readonly freesBytes: number;
}

export interface CleanupPlan {
  readonly at: number;
  /** Every task, ordered by id. */
  readonly tasks: readonly PlannedTask[];
  /** Tasks whose row is gone but whose checkpoint entries remain, ordered by id. */
  readonly vanishedTasks: readonly PlannedVanishedTask[];
  /** Verdicts over tasks and vanished tasks together. */
  readonly counts: { readonly keep: number; readonly clean: number; readonly skip: number };
  readonly freesBytes: number;
}

/** What cleanup removed from one task, when and why: one record per task, kept in the cleanup log. */
export interface CleanupLogEntry {
  readonly id: number;
  readonly taskId: TaskId;
  readonly at: number;
  readonly reason: CleanReason;
  readonly reasonText: string;
  readonly stepsRemoved: number;
  readonly stepBytesRemoved: number;
  readonly checkpointEntriesRemoved: number;
  readonly bodiesRemoved: number;
  readonly storedBytesRemoved: number;
  readonly rawBytesRemoved: number;
}

export interface CleanupReport {
  readonly startedAt: number;
  readonly finishedAt: number;
  /** Tasks the plan marked clean. */
  readonly planned: number;
  /** One record per task cleaned, in order (each was its own transaction). */
  readonly cleaned: readonly CleanupLogEntry[];
  /** Tasks whose cleanup failed and was rolled back: they are untouched. */
  readonly failed: readonly { readonly taskId: TaskId; readonly error: BrainErrorData }[];
  /** Orphans left for a later pass (at most 4 a pass). */
  readonly deferred: number;
  /** Tasks the plan marked clean that this call left for the next one (`maxTasks`). */
  readonly remaining: number;
  /** Step bytes + stored checkpoint bytes removed (bodies actually deleted). */
  readonly bytesFreed: number;
}

export interface CleanupOptions {
  /** Clean at most this many tasks in this call (the rest stay for the next). Default: all. */
  readonly maxTasks?: number;
}

/** Where a `cleanup()` call stands, reported after each task it handles. */
export interface CleanupProgress {
  /** Tasks handled so far in this call: cleaned + failed. */
  readonly done: number;
  /**
   * done + the tasks still to clean in this call by the latest plan (each turn re-plans, so calls made meanwhile
   * can add or remove some).
   */
  readonly total: number;
  readonly cleaned: number;
  readonly failed: number;
  /** Step bytes + stored checkpoint bytes removed so far. */
  readonly bytesFreed: number;
  /** The task just handled. */
  readonly taskId: TaskId;
}

export type CleanupProgressListener = (progress: CleanupProgress) => void;

export interface CleanupLogQuery {
  readonly taskId?: TaskId;
  /** Default 100, at most 10,000. */
  readonly limit?: number;
  /** Records older than this log id (paging). */
  readonly beforeId?: number;
}

export interface LightBytes {
  readonly rows: number;
  readonly bytes: number;
}

export interface TaskBytes {
  readonly taskId: TaskId;
  readonly heavyRemovedAt: number | null;
  /** false for a vanished task (row gone, checkpoint entries left). */
  readonly exists: boolean;
  readonly stepBytes: number;
  readonly checkpointStoredBytes: number;
  readonly checkpointRawBytes: number;
  readonly messageBytes: number;
  readonly summaryBytes: number;
  /** stepBytes + checkpointStoredBytes. */
  readonly heavyBytes: number;
}

export interface StorageAudit {
  readonly at: number;
  /** How long the audit took inside the engine. */
  readonly elapsedMs: number;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly freelistCount: number;
  /** pageSize × pageCount: the size of agent.db on OPFS. */
  readonly fileBytes: number;
  /** Free pages × page size: space inside the file that new data reuses first. */
  readonly freeBytes: number;
  readonly autoVacuum: 'none' | 'full' | 'incremental';
  /** Bytes of content by kind: checkpoint bodies (stored and raw), steps, messages and summaries (UTF-8). */
  readonly bytes: {
    readonly checkpointStored: number;
    readonly checkpointRaw: number;
    readonly steps: number;
    readonly messages: number;
    readonly summaries: number;
  };
  readonly counts: {
    readonly tasks: number;
    readonly tasksCleaned: number;
    readonly steps: number;
    readonly messages: number;
    readonly summaries: number;
    readonly checkpointEntries: number;
  };
  /**
   * Light data, rows and UTF-8 bytes: session events (they go with their session), the documents history search
   * indexes as stored (a summary's with its text; a tool step's or an event's without, made from its row; the FTS5
   * index is not counted — a tool step's document goes with its step at cleanup, the others with their session),
   * and the records that keep removed checkpoint entries listable
   * (rows = entries; ~25 bytes an entry).
   */
  readonly light: {
    readonly events: LightBytes;
    readonly searchDocuments: LightBytes;
    readonly removedCheckpointEntries: LightBytes;
  };
  /** Every task that has any bytes, ordered by id. */
  readonly tasks: readonly TaskBytes[];
  /** What `cleanup()` would free now. */
  readonly reclaimable: {
    readonly tasks: number;
    readonly stepBytes: number;
    /** Exclusive stored bytes of the tasks' checkpoints (bodies shared with kept tasks stay). */
    readonly checkpointStoredBytes: number;
    readonly bytes: number;
  };
  readonly autoCleanup: AutoCleanupStatus;
}

export interface MaintainOptions {
  /** Time to spend, in ms (default 50, at most 10,000). Work is done in small steps and stops when it runs out. */
  readonly budgetMs?: number;
  /** Run even while a task is running (by default upkeep waits until none is). */
  readonly force?: boolean;
}

export interface MaintainReport {
  readonly pagesFreed: number;
  readonly bytesFreed: number;
  /** Free pages still in the file. */
  readonly freelistCount: number;
  readonly more: boolean;
  readonly elapsedMs: number;
  /** Present when nothing was done, saying why. */
  readonly skipped?:
    { readonly kind: 'task-running'; readonly taskId: TaskId } | { readonly kind: 'no-auto-vacuum' };
}

export interface CompactReport {
  readonly bytesBefore: number;
  readonly bytesAfter: number;
  readonly elapsedMs: number;
  /** The browser's estimate checked before starting; null where there is none (memory databases). */
  readonly quota: { readonly usage: number; readonly quota: number } | null;
}

export interface LifecycleApi {
  /** Dry run: every task with its verdict (keep / clean / skip), the reasons, and the bytes cleaning would free. */
  planCleanup(): Promise<CleanupPlan>;
  /**
   * Performs the plan, one transaction per task; returns what it did. Emits `cleanup` per task cleaned. Runs in
   * turns of about 100 ms (re-planning each turn), so other calls made meanwhile run between two tasks instead of
   * waiting for the whole pass; `onProgress` hears after each task.
   */
  cleanup(options?: CleanupOptions, onProgress?: CleanupProgressListener): Promise<CleanupReport>;
  /** Cleanup records, newest first. */
  cleanupLog(query?: CleanupLogQuery): Promise<CleanupLogEntry[]>;
  /** File and content sizes from pragmas and counters — no content is read. */
  audit(): Promise<StorageAudit>;
  /** Gives free pages back to the file system in small steps within a time budget. */
  maintain(options?: MaintainOptions): Promise<MaintainReport>;
  /** Full VACUUM, only on request; refused with `QuotaExceeded` when the browser has not ~2× the file free. */
  compact(): Promise<CompactReport>;
  /**
   * Automatic cleanup (a pass after task changes, debounced, and one when idle) for this engine: on/off and its
   * timings. Returns the settings in force and the last pass's outcome.
   */
  setAutoCleanup(settings: Partial<AutoCleanupSettings>): Promise<AutoCleanupStatus>;
}
