/**
 * Removed checkpoint entries, kept slim: one `checkpoint_removals` row per task removal (migration 5) with the
 * when and why once and the entries packed column-wise as JSON (~25 bytes an entry instead of a ~100-byte row
 * each). Cleanup writes a record and deletes the entry rows in its per-task transaction; reads decode it, so
 * `listCheckpoints` still shows a removed entry (path, sizes, time) and a read of it raises `CheckpointRemoved`.
 */
import { BrainError } from '../../../core/errors';
import {
  asCheckpointEntryId,
  asStepId,
  asTaskId,
  type CheckpointEntryId,
  type TaskId,
} from '../../../core/ids';
import type { SqlDriver } from '../driver';

export type RemovedSideKind = 'absent' | 'text' | 'bytes' | 'too-large' | 'unknown';

/** A removed entry as decoded from its removal record (the shape of checkpoints-repo's EntryRecord). */
export interface RemovedEntry {
  readonly id: CheckpointEntryId;
  readonly taskId: TaskId;
  readonly stepId: ReturnType<typeof asStepId> | null;
  readonly path: string;
  readonly before: { readonly kind: RemovedSideKind; readonly size: number | null };
  readonly after: { readonly kind: RemovedSideKind; readonly size: number | null };
  readonly patch: { readonly size: number } | null;
  readonly binary: boolean;
  readonly createdAt: number;
  readonly removed: { readonly at: number; readonly reason: string };
}

interface RemovalRow {
  last_entry_id: number;
  first_entry_id: number;
  task_id: number;
  entries: number;
  at: number;
  reason: string;
  detail: string;
}

/** The packed entries (see migration 5; `patch` since migration 12, patch checkpoints). */
interface Detail {
  paths: string[];
  id: number[];
  path: number[];
  kind: string;
  before: (number | null)[];
  after: (number | null)[];
  binary: string;
  at: number[];
  step: (number | null)[] | null;
  /** Patch sizes (null: no patch), or left out / null when no entry had a patch (records before migration 12). */
  patch?: (number | null)[] | null;
}

const kinds: Record<string, RemovedSideKind> = {
  a: 'absent',
  t: 'text',
  b: 'bytes',
  l: 'too-large',
  u: 'unknown',
};

const kindChar = (column: string) =>
  `CASE ${column} WHEN 'absent' THEN 'a' WHEN 'text' THEN 't' WHEN 'bytes' THEN 'b' WHEN 'unknown' THEN 'u' ELSE 'l' END`;

/**
 * Packs the live entries of task ?1 into one removal record (when ?2, why ?3). The same packing as migration 5
 * applies to the tombstones it converts, there grouped per task and removal.
 */
const PACK_TASK = `
WITH e AS (
  SELECT id, step_id, path, before_kind, before_size, after_kind, after_size, patch_size, binary,
    id - lag(id, 1, id) OVER w AS d_id,
    created_at - lag(created_at, 1, 0) OVER w AS d_at,
    min(id) OVER (PARTITION BY path) AS path_first
  FROM checkpoint_entries WHERE task_id = ?1 AND removed_at IS NULL
  WINDOW w AS (ORDER BY id)
),
r AS (SELECT *, dense_rank() OVER (ORDER BY path_first) - 1 AS p FROM e)
INSERT INTO checkpoint_removals (last_entry_id, first_entry_id, task_id, entries, at, reason, detail)
SELECT max(id), min(id), ?1, count(*), ?2, ?3, json_object(
    'paths', json_group_array(path ORDER BY id) FILTER (WHERE id = path_first),
    'id', json_group_array(d_id ORDER BY id),
    'path', json_group_array(p ORDER BY id),
    'kind', group_concat(${kindChar('before_kind')} || ${kindChar('after_kind')}, '' ORDER BY id),
    'before', json_group_array(before_size ORDER BY id),
    'after', json_group_array(after_size ORDER BY id),
    'binary', group_concat(binary, '' ORDER BY id),
    'at', json_group_array(d_at ORDER BY id),
    'step', json(CASE WHEN count(step_id) > 0 THEN json_group_array(step_id ORDER BY id) END),
    'patch', json(CASE WHEN count(patch_size) > 0 THEN json_group_array(patch_size ORDER BY id) END))
FROM r HAVING count(*) > 0`;

function corrupt(row: RemovalRow, what: string): BrainError {
  return new BrainError(
    'CorruptBody',
    `The record of the checkpoint entries cleanup removed from task ${row.task_id} (entries ${row.first_entry_id}–${row.last_entry_id}) is damaged: ${what}.`,
    { taskId: row.task_id, firstEntryId: row.first_entry_id, lastEntryId: row.last_entry_id },
  );
}

/** Decodes a removal record into its entries, oldest first; checks the record is whole. */
function decode(row: RemovalRow): RemovedEntry[] {
  let d: Detail;
  try {
    d = JSON.parse(row.detail) as Detail;
  } catch {
    throw corrupt(row, 'not JSON');
  }
  const n = row.entries;
  const arrays = [d.id, d.path, d.before, d.after, d.at];
  if (
    !Array.isArray(d.paths) ||
    arrays.some((a) => !Array.isArray(a) || a.length !== n) ||
    typeof d.kind !== 'string' ||
    d.kind.length !== 2 * n ||
    typeof d.binary !== 'string' ||
    d.binary.length !== n ||
    (d.step !== null && (!Array.isArray(d.step) || d.step.length !== n)) ||
    (d.patch !== undefined && d.patch !== null && (!Array.isArray(d.patch) || d.patch.length !== n))
  ) {
    throw corrupt(row, `its columns do not hold ${n} entries`);
  }
  const out: RemovedEntry[] = [];
  let id = row.first_entry_id;
  let createdAt = 0;
  const removed = { at: row.at, reason: row.reason };
  for (let i = 0; i < n; i++) {
    id += d.id[i] as number;
    createdAt += d.at[i] as number;
    const path = d.paths[d.path[i] as number];
    const before = kinds[d.kind[2 * i] as string];
    const after = kinds[d.kind[2 * i + 1] as string];
    if (typeof path !== 'string' || !before || !after) throw corrupt(row, `entry ${id} does not decode`);
    const step = d.step?.[i] ?? null;
    const patch = d.patch?.[i] ?? null;
    if ((patch !== null) !== (before === 'unknown') || (patch !== null) !== (after === 'unknown'))
      throw corrupt(row, `entry ${id} does not decode`);
    out.push({
      id: asCheckpointEntryId(id),
      taskId: asTaskId(row.task_id),
      stepId: step === null ? null : asStepId(step),
      path,
      before: { kind: before, size: d.before[i] ?? null },
      after: { kind: after, size: d.after[i] ?? null },
      patch: patch === null ? null : { size: patch },
      binary: d.binary[i] === '1',
      createdAt,
      removed,
    });
  }
  if (id !== row.last_entry_id) throw corrupt(row, 'its entry ids do not end at its last id');
  return out;
}

const COLUMNS = 'last_entry_id, first_entry_id, task_id, entries, at, reason, detail';

export function createRemovalsRepo(db: SqlDriver) {
  return {
    /**
     * Packs the task's live entries into one removal record and deletes their rows (the counter and refcount
     * triggers follow). Run inside the cleanup's transaction, before collecting unreferenced bodies.
     * Returns the number of entries removed.
     */
    async removeTask(
      taskId: TaskId,
      removal: { readonly at: number; readonly reason: string },
    ): Promise<number> {
      await db.run(PACK_TASK, [taskId, removal.at, removal.reason]);
      const { changes } = await db.run(
        'DELETE FROM checkpoint_entries WHERE task_id = ? AND removed_at IS NULL',
        [taskId],
      );
      return changes;
    },

    /** The removed entry with this id, or undefined when no removal record holds it. */
    async find(id: CheckpointEntryId): Promise<RemovedEntry | undefined> {
      // Records whose id span covers the id: usually one (spans overlap only when tasks interleaved).
      const rows = await db.all<RemovalRow>(
        `SELECT ${COLUMNS} FROM checkpoint_removals WHERE last_entry_id IN (
           SELECT last_entry_id FROM checkpoint_removals INDEXED BY checkpoint_removals_by_first
           WHERE first_entry_id <= ?1 AND last_entry_id >= ?1)`,
        [id],
      );
      for (const row of rows) {
        const entry = decode(row).find((e) => e.id === id);
        if (entry) return entry;
      }
      return undefined;
    },

    /** The task's removed entries, oldest first. */
    async listTask(taskId: TaskId): Promise<RemovedEntry[]> {
      const rows = await db.all<RemovalRow>(
        `SELECT ${COLUMNS} FROM checkpoint_removals WHERE task_id = ? ORDER BY last_entry_id`,
        [taskId],
      );
      return rows.flatMap(decode).sort((a, b) => a.id - b.id);
    },

    /** Removed entries in all, and per task (exact, for checks; reads every record's count). */
    async counts(): Promise<Map<TaskId, number>> {
      const rows = await db.all<{ task_id: number; n: number }>(
        'SELECT task_id, sum(entries) AS n FROM checkpoint_removals GROUP BY task_id',
      );
      return new Map(rows.map((r) => [asTaskId(r.task_id), r.n]));
    },
  };
}

/** The id a new checkpoint entry gets: above every live and every removed entry, so no id is ever reused. */
export const NEXT_ENTRY_ID = `(SELECT max(coalesce((SELECT max(id) FROM checkpoint_entries), 0),
  coalesce((SELECT max(last_entry_id) FROM checkpoint_removals), 0)) + 1)`;
