import { BrainError } from '../../../core/errors';
import { asSessionId, asTaskId, type SessionId, type TaskId } from '../../../core/ids';
import type { ReferenceKind, Task, TaskReference, TaskState } from '../../../core/model';
import type { SqlDriver } from '../driver';

interface TaskRow {
  id: number;
  session_id: number | null;
  parent_task_id: number | null;
  title: string;
  state: TaskState;
  pinned: number;
  created_at: number;
  updated_at: number;
  heavy_removed_at: number | null;
}

interface RefRow {
  from_task_id: number;
  to_task_id: number;
  kind: ReferenceKind;
}

function toTask(row: TaskRow, references: readonly TaskReference[]): Task {
  return {
    id: asTaskId(row.id),
    sessionId: row.session_id === null ? null : asSessionId(row.session_id),
    title: row.title,
    state: row.state,
    parentTaskId: row.parent_task_id === null ? null : asTaskId(row.parent_task_id),
    pinned: row.pinned === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    references,
    heavyRemovedAt: row.heavy_removed_at,
  };
}

export interface NewTask {
  readonly sessionId: SessionId;
  readonly title: string;
  readonly parentTaskId: TaskId | null;
  readonly references: readonly TaskReference[];
  readonly now: number;
}

export function createTasksRepo(db: SqlDriver) {
  async function refsFrom(taskIds: readonly number[]): Promise<Map<number, TaskReference[]>> {
    const byTask = new Map<number, TaskReference[]>();
    if (taskIds.length === 0) return byTask;
    const rows = await db.all<RefRow>(
      `SELECT from_task_id, to_task_id, kind FROM task_refs
       WHERE from_task_id IN (SELECT value FROM json_each(?)) ORDER BY to_task_id`,
      [JSON.stringify(taskIds)],
    );
    for (const row of rows) {
      const list = byTask.get(row.from_task_id) ?? [];
      list.push({ to: asTaskId(row.to_task_id), kind: row.kind });
      byTask.set(row.from_task_id, list);
    }
    return byTask;
  }

  async function withRefs(rows: TaskRow[]): Promise<Task[]> {
    const refs = await refsFrom(rows.map((row) => row.id));
    return rows.map((row) => toTask(row, refs.get(row.id) ?? []));
  }

  const repo = {
    /** Inserts the task and its references; a parent gets a `child` reference to it. Run inside a transaction. */
    async insert(task: NewTask): Promise<TaskId> {
      const { lastInsertRowid } = await db.run(
        `INSERT INTO tasks (session_id, parent_task_id, title, state, created_at, updated_at)
         VALUES (?, ?, ?, 'running', ?, ?)`,
        [task.sessionId, task.parentTaskId, task.title, task.now, task.now],
      );
      const id = asTaskId(lastInsertRowid);
      if (task.parentTaskId !== null) await repo.addReference(task.parentTaskId, id, 'child');
      for (const ref of task.references) await repo.addReference(id, ref.to, ref.kind);
      return id;
    },

    async addReference(from: TaskId, to: TaskId, kind: ReferenceKind): Promise<void> {
      if (from === to) throw new BrainError('InvalidArgument', `Task ${from} cannot reference itself.`);
      await repo.get(to);
      await db.run('INSERT OR IGNORE INTO task_refs (from_task_id, to_task_id, kind) VALUES (?, ?, ?)', [
        from,
        to,
        kind,
      ]);
    },

    async get(id: TaskId): Promise<Task> {
      const row = await db.get<TaskRow>('SELECT * FROM tasks WHERE id = ?', [id]);
      if (!row) throw new BrainError('NotFound', `Task ${id} does not exist.`, { taskId: id });
      const [task] = await withRefs([row]);
      return task as Task;
    },

    async list(sessionId: SessionId): Promise<Task[]> {
      return withRefs(
        await db.all<TaskRow>('SELECT * FROM tasks WHERE session_id = ? ORDER BY id', [sessionId]),
      );
    },

    async listAll(): Promise<Task[]> {
      return withRefs(await db.all<TaskRow>('SELECT * FROM tasks ORDER BY id'));
    },

    async setState(id: TaskId, state: TaskState, now: number): Promise<void> {
      const { changes } = await db.run('UPDATE tasks SET state = ?, updated_at = ? WHERE id = ?', [
        state,
        now,
        id,
      ]);
      if (changes === 0) throw new BrainError('NotFound', `Task ${id} does not exist.`, { taskId: id });
    },

    async setPinned(id: TaskId, pinned: boolean, now: number): Promise<void> {
      const { changes } = await db.run('UPDATE tasks SET pinned = ?, updated_at = ? WHERE id = ?', [
        pinned,
        now,
        id,
      ]);
      if (changes === 0) throw new BrainError('NotFound', `Task ${id} does not exist.`, { taskId: id });
    },
  };
  return repo;
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
