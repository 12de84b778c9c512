import { BrainError } from '../../../core/errors';
import { asSessionId, asTaskId, type TaskId } from '../../../core/ids';
import type { ReferenceKind, TaskState } from '../../../core/model';
import {
  describeReason,
  type CleanReason,
  type RetentionState,
  type RetentionTask,
} from '../../../core/retention/index';
import type { CleanupLogEntry } from '../../../core/api/lifecycle';
import { createCheckpointsRepo } from './checkpoints-repo';
import { createHistoryRepo } from './history-repo';
import type { SqlDriver } from '../driver';

/** What the checkpoint store removed for one task (its `removeTaskCheckpoints`). */
export interface CheckpointRemoval {
  readonly entries: number;
  readonly bodiesRemoved: number;
  readonly storedBytesRemoved: number;
  readonly rawBytesRemoved: number;
}

/** Checkpoint figures of one task (or of the whole store), from metadata only: live entries and their bodies' bytes. */
export interface CheckpointBytes {
  readonly entries: number;
  readonly storedBytes: number;
  readonly rawBytes: number;
  /** The part of storedBytes no other task uses: about what removing the task's checkpoints frees. */
  readonly exclusiveStoredBytes: number;
}

/**
 * The checkpoint store as cleanup sees it. `removeTaskCheckpoints` runs inside the caller's transaction: it
 * replaces the task's entries by one removal record (listing them still works; reads raise CheckpointRemoved with
 * `at`, `reason` and the task) and deletes the bodies no other entry needs, keeping delta bases readable.
 */
export interface CheckpointCleanupPort {
  removeTaskCheckpoints(
    taskId: TaskId,
    removal: { readonly at: number; readonly reason: string },
  ): Promise<CheckpointRemoval>;
  totals(): Promise<Omit<CheckpointBytes, 'exclusiveStoredBytes'>>;
  byTask(): Promise<Map<TaskId, CheckpointBytes>>;
  /** Ids of tasks whose row is gone but whose live entries remain, lowest first. */
  vanishedTaskIds(limit: number): Promise<TaskId[]>;
}

/**
 * The checkpoint store in agent.db as cleanup uses it: removal through the store (checkpoints-repo.ts), figures
 * from the trigger-kept counters of migration 3 (a few hundred rows, never a scan of every entry).
 */
export function checkpointCleanup(db: SqlDriver): CheckpointCleanupPort {
  const repo = createCheckpointsRepo(db);
  return {
    removeTaskCheckpoints: (taskId, removal) => repo.removeTaskCheckpoints(taskId, removal),
    async totals() {
      const row = await db.get<{ entries: number; stored: number; raw: number }>(
        'SELECT live_entries AS entries, stored_bytes AS stored, raw_bytes AS raw FROM checkpoint_totals WHERE id = 1',
      );
      return { entries: row?.entries ?? 0, storedBytes: row?.stored ?? 0, rawBytes: row?.raw ?? 0 };
    },
    async byTask() {
      const rows = await db.all<{
        task_id: number;
        entries: number;
        stored: number;
        raw: number;
        exclusive: number;
      }>(
        `SELECT task_id, entries, stored_bytes AS stored, raw_bytes AS raw, exclusive_stored_bytes AS exclusive
         FROM checkpoint_task_bytes WHERE entries > 0 OR bodies > 0`,
      );
      return new Map(
        rows.map((r) => [
          asTaskId(r.task_id),
          { entries: r.entries, storedBytes: r.stored, rawBytes: r.raw, exclusiveStoredBytes: r.exclusive },
        ]),
      );
    },
    async vanishedTaskIds(limit) {
      const rows = await db.all<{ task_id: number }>(
        `SELECT task_id FROM checkpoint_task_bytes c
         WHERE c.entries > 0 AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = c.task_id) ORDER BY task_id LIMIT ?`,
        [limit],
      );
      return rows.map((r) => asTaskId(r.task_id));
    },
  };
}

export interface StepCounts {
  readonly rows: number;
  readonly bytes: number;
}

interface LogRow {
  id: number;
  task_id: number;
  at: number;
  reason: string;
  steps_removed: number;
  step_bytes_removed: number;
  checkpoint_entries_removed: number;
  bodies_removed: number;
  stored_bytes_removed: number;
  raw_bytes_removed: number;
}

/** The reason is stored as data only; its words are describeReason's (migration 5 dropped the stored copy). */
const toRecord = (row: LogRow): CleanupLogEntry => {
  let reason: CleanReason;
  try {
    reason = JSON.parse(row.reason) as CleanReason;
  } catch {
    // No reason would be honest in its place; the engine writes this row in the cleanup's own transaction and
    // importDatabase refuses a file where it is not JSON, so only an edit outside agent-brain gets here.
    throw new BrainError(
      'CorruptDatabase',
      `Cleanup record ${row.id} (task ${row.task_id}) has a reason that is not valid JSON; the database was changed outside agent-brain.`,
      { cleanupLogId: row.id },
    );
  }
  return {
    id: row.id,
    taskId: asTaskId(row.task_id),
    at: row.at,
    reason,
    reasonText: describeReason(reason),
    stepsRemoved: row.steps_removed,
    stepBytesRemoved: row.step_bytes_removed,
    checkpointEntriesRemoved: row.checkpoint_entries_removed,
    bodiesRemoved: row.bodies_removed,
    storedBytesRemoved: row.stored_bytes_removed,
    rawBytesRemoved: row.raw_bytes_removed,
  };
};

/** Reads the retention state and applies one task's cleanup. Writes run inside the caller's transaction. */
export function createCleanupRepo(db: SqlDriver, checkpoints: CheckpointCleanupPort) {
  const history = createHistoryRepo(db);
  async function stepCounts(taskId: TaskId): Promise<StepCounts> {
    const row = await db.get<StepCounts>(
      `SELECT rows, bytes FROM byte_counters WHERE kind = 'steps' AND task_id = ?`,
      [taskId],
    );
    return row ?? { rows: 0, bytes: 0 };
  }

  return {
    /** Sessions, tasks and references: everything `planRetention` needs, plus titles for the dry run. */
    async loadState(orphanLimit?: number): Promise<{ state: RetentionState; titles: Map<TaskId, string> }> {
      const vanishedTaskIds = await checkpoints.vanishedTaskIds(10_000);
      const sessions = await db.all<{ id: number; current_task_id: number | null }>(
        'SELECT id, current_task_id FROM sessions',
      );
      const rows = await db.all<{
        id: number;
        session_id: number | null;
        title: string;
        state: TaskState;
        pinned: number;
        heavy_removed_at: number | null;
      }>('SELECT id, session_id, title, state, pinned, heavy_removed_at FROM tasks ORDER BY id');
      const refs = await db.all<{ from_task_id: number; to_task_id: number; kind: ReferenceKind }>(
        'SELECT from_task_id, to_task_id, kind FROM task_refs',
      );
      const refsByTask = new Map<number, { to: TaskId; kind: ReferenceKind }[]>();
      for (const ref of refs) {
        const list = refsByTask.get(ref.from_task_id) ?? [];
        list.push({ to: asTaskId(ref.to_task_id), kind: ref.kind });
        refsByTask.set(ref.from_task_id, list);
      }
      const titles = new Map<TaskId, string>();
      const tasks: RetentionTask[] = rows.map((row) => {
        titles.set(asTaskId(row.id), row.title);
        return {
          id: asTaskId(row.id),
          sessionId: row.session_id === null ? null : asSessionId(row.session_id),
          state: row.state,
          pinned: row.pinned === 1,
          references: refsByTask.get(row.id) ?? [],
          heavyRemovedAt: row.heavy_removed_at,
        };
      });
      const state: RetentionState = {
        sessions: sessions.map((s) => ({
          id: asSessionId(s.id),
          currentTaskId: s.current_task_id === null ? null : asTaskId(s.current_task_id),
        })),
        tasks,
        vanishedTaskIds,
        ...(orphanLimit === undefined ? {} : { orphanLimit }),
      };
      return { state, titles };
    },

    /** Steps rows and bytes per task, from the trigger-kept counters (no step is read). */
    async stepCountsByTask(): Promise<Map<TaskId, StepCounts>> {
      const rows = await db.all<{ task_id: number; rows: number; bytes: number }>(
        `SELECT task_id, rows, bytes FROM byte_counters WHERE kind = 'steps' AND rows > 0`,
      );
      return new Map(rows.map((r) => [asTaskId(r.task_id), { rows: r.rows, bytes: r.bytes }]));
    },

    /**
     * Removes one task's heavy data — its steps with their search documents, and its checkpoint entries (and the
     * bodies no one else needs) — marks the task and writes the log record. Keeps the task row, its messages,
     * summaries and events, and their search documents. Returns null when the task was cleaned already. Call
     * inside a transaction: the task is then either fully cleaned or untouched. `entryNote` is the short why its
     * removed checkpoint entries keep (stored once for the task).
     */
    async cleanTask(
      taskId: TaskId,
      at: number,
      reason: CleanReason,
      entryNote: string,
    ): Promise<CleanupLogEntry | null> {
      const task = await db.get<{ heavy_removed_at: number | null }>(
        'SELECT heavy_removed_at FROM tasks WHERE id = ?',
        [taskId],
      );
      // A vanished task (row gone, entries left) has only checkpoints to remove; any other task must exist.
      if (!task && reason.kind !== 'task-gone')
        throw new BrainError('NotFound', `Task ${taskId} does not exist.`, { taskId });
      if (task && task.heavy_removed_at !== null) return null;
      const before = await stepCounts(taskId);
      // The steps' search documents first: removed with the steps they index (not orphaned by the foreign key's
      // SET NULL, which would rewrite each document, body and all, only to keep it).
      await history.removeTaskStepDocs(taskId);
      const { changes: stepsRemoved } = await db.run('DELETE FROM steps WHERE task_id = ?', [taskId]);
      const after = await stepCounts(taskId);
      await db.run(`DELETE FROM byte_counters WHERE kind = 'steps' AND task_id = ? AND rows = 0`, [taskId]);
      const removed = await checkpoints.removeTaskCheckpoints(taskId, { at, reason: entryNote });
      // An all-zero counter row is recreated by the triggers if the task ever gets entries again.
      await db.run('DELETE FROM checkpoint_task_bytes WHERE task_id = ? AND entries = 0 AND bodies = 0', [
        taskId,
      ]);
      if (task) await db.run('UPDATE tasks SET heavy_removed_at = ? WHERE id = ?', [at, taskId]);
      const { lastInsertRowid } = await db.run(
        `INSERT INTO cleanup_log (task_id, at, reason, steps_removed, step_bytes_removed,
           checkpoint_entries_removed, bodies_removed, stored_bytes_removed, raw_bytes_removed)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          taskId,
          at,
          JSON.stringify(reason),
          stepsRemoved,
          before.bytes - after.bytes,
          removed.entries,
          removed.bodiesRemoved,
          removed.storedBytesRemoved,
          removed.rawBytesRemoved,
        ],
      );
      const row = await db.get<LogRow>('SELECT * FROM cleanup_log WHERE id = ?', [lastInsertRowid]);
      if (!row) throw new BrainError('Internal', `The cleanup record of task ${taskId} vanished.`);
      return toRecord(row);
    },

    /** Newest first. */
    async log(query: {
      readonly taskId?: TaskId;
      readonly limit: number;
      readonly beforeId?: number;
    }): Promise<CleanupLogEntry[]> {
      const rows = await db.all<LogRow>(
        `SELECT * FROM cleanup_log WHERE (?1 IS NULL OR task_id = ?1) AND (?2 IS NULL OR id < ?2) ORDER BY id DESC LIMIT ?3`,
        [query.taskId ?? null, query.beforeId ?? null, query.limit],
      );
      return rows.map(toRecord);
    },

    /** A live task in state running (orphans do not count: nobody can run them). */
    async runningTask(): Promise<TaskId | null> {
      const row = await db.get<{ id: number }>(
        `SELECT id FROM tasks WHERE state = 'running' AND session_id IS NOT NULL ORDER BY id LIMIT 1`,
      );
      return row ? asTaskId(row.id) : null;
    },
  };
}

export type CleanupRepo = ReturnType<typeof createCleanupRepo>;
