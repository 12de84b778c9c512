import { BrainError } from '../../../core/errors';
import type { PlanStepId } from '../../../core/events/model';
import { asPlanStepId } from '../../../core/events/model';
import { asTaskId, type TaskId } from '../../../core/ids';
import type { Plan, PlanStep, PlanStepState } from '../../../core/plan/model';
import type { SqlDriver } from '../driver';

interface PlanRow {
  id: number;
  task_id: number;
  goal: string;
  created_at: number;
  updated_at: number;
}

interface StepRow {
  id: number;
  plan_id: number;
  position: number;
  what: string;
  why: string;
  state: PlanStepState;
  started_at: number | null;
  finished_at: number | null;
}

const toStep = (row: StepRow): PlanStep => ({
  id: asPlanStepId(row.id),
  n: row.position,
  what: row.what,
  why: row.why,
  state: row.state,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

/** One ordered checklist per task. Positions are 1..n without gaps; step ids never change. */
export function createPlansRepo(db: SqlDriver) {
  async function planRow(taskId: TaskId): Promise<PlanRow | undefined> {
    return db.get<PlanRow>('SELECT * FROM plans WHERE task_id = ?', [taskId]);
  }

  async function steps(planId: number): Promise<PlanStep[]> {
    return (
      await db.all<StepRow>('SELECT * FROM plan_steps WHERE plan_id = ? ORDER BY position', [planId])
    ).map(toStep);
  }

  const repo = {
    async get(taskId: TaskId): Promise<Plan | null> {
      const row = await planRow(taskId);
      if (!row) return null;
      return {
        taskId: asTaskId(row.task_id),
        goal: row.goal,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        steps: await steps(row.id),
      };
    },

    async create(taskId: TaskId, goal: string, now: number): Promise<number> {
      if (await planRow(taskId)) {
        throw new BrainError(
          'Conflict',
          `Task ${taskId} already has a plan; add or edit steps instead of creating another.`,
          {
            taskId,
          },
        );
      }
      const { lastInsertRowid } = await db.run(
        'INSERT INTO plans (task_id, goal, created_at, updated_at) VALUES (?, ?, ?, ?)',
        [taskId, goal, now, now],
      );
      return lastInsertRowid;
    },

    /** Inserts steps after position `after` (0 = at the top), shifting later steps down. */
    async insertSteps(
      taskId: TaskId,
      after: number,
      items: readonly { what: string; why: string }[],
      now: number,
    ): Promise<void> {
      const row = await planRow(taskId);
      if (!row) throw new BrainError('NotFound', `Task ${taskId} has no plan.`, { taskId });
      // Two passes keep UNIQUE(plan_id, position) satisfied while shifting.
      await db.run('UPDATE plan_steps SET position = -position WHERE plan_id = ? AND position > ?', [
        row.id,
        after,
      ]);
      await db.run('UPDATE plan_steps SET position = -position + ? WHERE plan_id = ? AND position < 0', [
        items.length,
        row.id,
      ]);
      let position = after;
      for (const item of items) {
        position++;
        await db.run(
          `INSERT INTO plan_steps (plan_id, position, what, why, state) VALUES (?, ?, ?, ?, 'todo')`,
          [row.id, position, item.what, item.why],
        );
      }
      await db.run('UPDATE plans SET updated_at = ? WHERE id = ?', [now, row.id]);
    },

    async step(id: PlanStepId): Promise<PlanStep & { taskId: TaskId }> {
      const row = await db.get<StepRow & { task_id: number }>(
        'SELECT s.*, p.task_id FROM plan_steps s JOIN plans p ON p.id = s.plan_id WHERE s.id = ?',
        [id],
      );
      if (!row) throw new BrainError('NotFound', `Plan step ${id} does not exist.`, { planStepId: id });
      return { ...toStep(row), taskId: asTaskId(row.task_id) };
    },

    async setState(id: PlanStepId, state: PlanStepState, now: number): Promise<void> {
      const sql: Record<PlanStepState, string> = {
        todo: `UPDATE plan_steps SET state = 'todo', started_at = NULL, finished_at = NULL WHERE id = ? AND ? IS NOT NULL`,
        started: `UPDATE plan_steps SET state = 'started', started_at = coalesce(started_at, ?2), finished_at = NULL WHERE id = ?1`,
        done: `UPDATE plan_steps SET state = 'done', started_at = coalesce(started_at, ?2), finished_at = ?2 WHERE id = ?1`,
        skipped: `UPDATE plan_steps SET state = 'skipped', finished_at = ?2 WHERE id = ?1`,
      };
      await db.run(sql[state], [id, now]);
      await db.run(
        'UPDATE plans SET updated_at = ? WHERE id = (SELECT plan_id FROM plan_steps WHERE id = ?)',
        [now, id],
      );
    },

    /** The first started step of the task's plan (the one the agent is on), if any. */
    async currentStep(taskId: TaskId): Promise<PlanStepId | null> {
      const row = await db.get<{ id: number }>(
        `SELECT s.id FROM plan_steps s JOIN plans p ON p.id = s.plan_id
         WHERE p.task_id = ? AND s.state = 'started' ORDER BY s.position LIMIT 1`,
        [taskId],
      );
      return row ? asPlanStepId(row.id) : null;
    },

    async setGoal(taskId: TaskId, goal: string, now: number): Promise<void> {
      await db.run('UPDATE plans SET goal = ?, updated_at = ? WHERE task_id = ?', [goal, now, taskId]);
    },
  };
  return repo;
}

export type PlansRepo = ReturnType<typeof createPlansRepo>;
