import type { SqlDriver } from '../../src/storage/sqlite/driver';
import type { Database } from '../../src/storage/sqlite/database';
import type { BrainApi, TaskId } from '../../src/core/api';

/** A text body that differs per task and version, big enough that compression and deltas have work to do. */
export function body(taskId: number, version: number, lines = 200): string {
  return Array.from(
    { length: lines },
    (_, i) => `// task ${taskId} line ${i} ${i % 7 === version % 7 ? `edited v${version}` : 'same'}\n`,
  ).join('');
}

/** Gives a task heavy data: `steps` steps and `edits` successive edits of one file, each checkpointed. */
export async function makeHeavy(api: BrainApi, taskId: TaskId, steps = 3, edits = 3): Promise<number[]> {
  for (let i = 0; i < steps; i++) {
    await api.recordStep({
      taskId,
      tool: 'edit',
      params: { path: `src/t${taskId}.ts`, i },
      result: { output: 'x'.repeat(500 + i) },
      status: 'ok',
    });
  }
  const ids: number[] = [];
  for (let v = 0; v < edits; v++) {
    const { id } = await api.checkpointFile({
      taskId,
      path: `src/t${taskId}.ts`,
      before: v === 0 ? null : body(taskId, v - 1),
      after: body(taskId, v),
    });
    ids.push(id);
  }
  return ids;
}

/** Everything a test checks about a task's heavy data: steps, and each checkpoint entry readable or removed. */
export async function heavyState(api: BrainApi, taskId: TaskId) {
  const steps = (await api.listSteps(taskId)).length;
  const entries = await api.listCheckpoints(taskId);
  const reads = await Promise.all(
    entries.map((e) =>
      api.readCheckpoint(e.id).then(
        (c) => ({ ok: true as const, after: c.after }),
        (error: { code?: string }) => ({ ok: false as const, code: error.code }),
      ),
    ),
  );
  const task = await api.getTask(taskId);
  return { steps, entries: entries.length, reads, heavyRemovedAt: task.heavyRemovedAt };
}

/** The database with a driver that throws when `failOn(sql)` says so — a failure injected mid-transaction. */
export function faultyDatabase(database: Database, failOn: (sql: string) => boolean): Database {
  const driver = database.driver;
  const check = (sql: string) => {
    if (failOn(sql)) throw new Error(`injected failure at: ${sql.trim().slice(0, 40)}`);
  };
  const faulty: SqlDriver = {
    all: (sql, params) => (check(sql), driver.all(sql, params)),
    get: (sql, params) => (check(sql), driver.get(sql, params)),
    run: (sql, params) => (check(sql), driver.run(sql, params)),
    exec: (sql) => (check(sql), driver.exec(sql)),
    transaction: (fn) => driver.transaction(fn),
    close: () => driver.close(),
  };
  return {
    ...database,
    driver: faulty,
    get schemaVersion() {
      return database.schemaVersion;
    },
  };
}

/** Timers on a hand-moved clock for the automatic passes: the one the other tests use. */
export { manualTimers } from '../helpers/manual-timers';
