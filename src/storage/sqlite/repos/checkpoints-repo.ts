/**
 * Checkpoint entries and their bodies in SQL. The body algorithms (dedupe, codec, delta chains, verification,
 * rebasing collection) live in storage/blobs; this file gives them rows and keeps entries.
 */
import { BrainError } from '../../../core/errors';
import {
  asCheckpointEntryId,
  asStepId,
  asTaskId,
  type CheckpointEntryId,
  type StepId,
  type TaskId,
} from '../../../core/ids';
import {
  createBodyStore,
  type BodyMeta,
  type BodyRows,
  type BodyStoreOptions,
  type StoredForm,
} from '../../blobs/body-store';
import type { BodyCodec } from '../../blobs/codec';
import { createRemovalsRepo, NEXT_ENTRY_ID } from './checkpoint-removals';
import type { SqlDriver } from '../driver';

export type EntrySideKind = 'absent' | 'text' | 'bytes' | 'too-large' | 'unknown';

/** One side of a new entry: its kind, and for stored kinds the raw bytes. */
export type NewEntrySide =
  | { readonly kind: 'absent' | 'unknown' }
  | { readonly kind: 'too-large'; readonly size: number }
  | { readonly kind: 'text' | 'bytes'; readonly raw: Uint8Array };

export interface NewEntry {
  readonly taskId: TaskId;
  readonly stepId: StepId | null;
  readonly path: string;
  readonly before: NewEntrySide;
  readonly after: NewEntrySide;
  readonly binary: boolean;
  readonly now: number;
  /** The change as a unified diff (UTF-8), for an entry whose sides are both `unknown`. */
  readonly patch?: Uint8Array;
}

export interface EntryRecord {
  readonly id: CheckpointEntryId;
  readonly taskId: TaskId;
  readonly stepId: StepId | null;
  readonly path: string;
  readonly before: { readonly kind: EntrySideKind; readonly size: number | null };
  readonly after: { readonly kind: EntrySideKind; readonly size: number | null };
  /** The entry holds its change as a unified diff of this many bytes (its sides are `unknown`). */
  readonly patch: { readonly size: number } | null;
  readonly binary: boolean;
  readonly createdAt: number;
  readonly removed: { readonly at: number; readonly reason: string } | null;
}

export interface RemovalReport {
  /** Entries marked removed by this call. */
  readonly entries: number;
  readonly bodiesRemoved: number;
  readonly storedBytesRemoved: number;
  readonly rawBytesRemoved: number;
}

export interface CheckpointTotals {
  readonly entries: number;
  readonly removedEntries: number;
  readonly bodies: number;
  readonly storedBytes: number;
  readonly rawBytes: number;
}

export interface TaskCheckpointBytes {
  readonly taskId: TaskId;
  readonly entries: number;
  readonly removedEntries: number;
  /** Distinct bodies the task's live entries use, and their stored and raw bytes. */
  readonly bodies: number;
  readonly storedBytes: number;
  readonly rawBytes: number;
  /** The part of those no other task uses: about what removing the task's checkpoints frees. */
  readonly exclusiveStoredBytes: number;
  readonly exclusiveRawBytes: number;
}

interface BodyRow {
  id: number;
  hash: Uint8Array;
  codec: BodyCodec;
  raw_size: number;
  stored_size: number;
  stored_crc: number;
  base_id: number | null;
  depth: number;
}

type SqlSideKind = 'absent' | 'text' | 'bytes' | 'too_large' | 'unknown';

interface EntryRow {
  id: number;
  task_id: number;
  step_id: number | null;
  path: string;
  before_kind: SqlSideKind;
  before_size: number | null;
  before_body_id: number | null;
  after_kind: SqlSideKind;
  after_size: number | null;
  after_body_id: number | null;
  patch_size: number | null;
  patch_body_id: number | null;
  binary: number;
  created_at: number;
  removed_at: number | null;
  removed_reason: string | null;
}

const BODY_COLUMNS = 'id, hash, codec, raw_size, stored_size, stored_crc, base_id, depth';
const ENTRY_COLUMNS =
  'id, task_id, step_id, path, before_kind, before_size, before_body_id, after_kind, after_size, after_body_id, patch_size, patch_body_id, binary, created_at, removed_at, removed_reason';

const toMeta = (row: BodyRow): BodyMeta => ({
  id: row.id,
  hash: row.hash,
  codec: row.codec,
  rawSize: row.raw_size,
  storedSize: row.stored_size,
  storedCrc: row.stored_crc,
  baseId: row.base_id,
  depth: row.depth,
});

const kindFromSql = (kind: EntryRow['before_kind']): EntrySideKind =>
  kind === 'too_large' ? 'too-large' : kind;
const kindToSql = (kind: EntrySideKind) => (kind === 'too-large' ? 'too_large' : kind);

function toRecord(row: EntryRow): EntryRecord {
  return {
    id: asCheckpointEntryId(row.id),
    taskId: asTaskId(row.task_id),
    stepId: row.step_id === null ? null : asStepId(row.step_id),
    path: row.path,
    before: { kind: kindFromSql(row.before_kind), size: row.before_size },
    after: { kind: kindFromSql(row.after_kind), size: row.after_size },
    patch: row.patch_size === null ? null : { size: row.patch_size },
    binary: row.binary === 1,
    createdAt: row.created_at,
    removed: row.removed_at === null ? null : { at: row.removed_at, reason: row.removed_reason ?? '' },
  };
}

const idsJson = (ids: readonly number[]) => JSON.stringify(ids);

function createBodyRows(db: SqlDriver, now: () => number): BodyRows {
  return {
    async byHash(hash) {
      const row = await db.get<BodyRow>(`SELECT ${BODY_COLUMNS} FROM checkpoint_bodies WHERE hash = ?`, [
        hash,
      ]);
      return row && toMeta(row);
    },
    async chain(id, limit) {
      const rows = await db.all<BodyRow>(
        `WITH RECURSIVE chain(id, n) AS (
           SELECT ?, 0
           UNION ALL
           SELECT b.base_id, c.n + 1 FROM checkpoint_bodies b JOIN chain c ON b.id = c.id
           WHERE b.base_id IS NOT NULL AND c.n + 1 < ?
         )
         SELECT ${BODY_COLUMNS.replace(/(\w+)/g, 'b.$1')} FROM chain c JOIN checkpoint_bodies b ON b.id = c.id ORDER BY c.n`,
        [id, limit],
      );
      return rows.map(toMeta);
    },
    async stored(ids) {
      const found = new Map<number, Uint8Array>();
      if (ids.length === 0) return found;
      const rows = await db.all<{ body_id: number; bytes: Uint8Array | null }>(
        'SELECT body_id, bytes FROM checkpoint_body_data WHERE body_id IN (SELECT value FROM json_each(?))',
        [idsJson(ids)],
      );
      for (const row of rows) found.set(row.body_id, row.bytes ?? new Uint8Array());
      return found;
    },
    async insert(hash, rawSize, form) {
      const { lastInsertRowid } = await db.run(
        `INSERT INTO checkpoint_bodies (hash, codec, raw_size, stored_size, stored_crc, base_id, depth, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [hash, form.codec, rawSize, form.stored.length, form.storedCrc, form.baseId, form.depth, now()],
      );
      // A zero-length blob binds as NULL; X'' keeps it a blob.
      await db.run(`INSERT INTO checkpoint_body_data (body_id, bytes) VALUES (?, coalesce(?, X''))`, [
        lastInsertRowid,
        form.stored,
      ]);
      return lastInsertRowid;
    },
    async rewrite(id, form: StoredForm) {
      await db.run(
        'UPDATE checkpoint_bodies SET codec = ?, stored_size = ?, stored_crc = ?, base_id = ?, depth = ? WHERE id = ?',
        [form.codec, form.stored.length, form.storedCrc, form.baseId, form.depth, id],
      );
      await db.run(`UPDATE checkpoint_body_data SET bytes = coalesce(?, X'') WHERE body_id = ?`, [
        form.stored,
        id,
      ]);
    },
    async latestForPath(path) {
      const row = await db.get<BodyRow>(
        `SELECT ${BODY_COLUMNS.replace(/(\w+)/g, 'b.$1')} FROM checkpoint_entries e
         JOIN checkpoint_bodies b ON b.id = coalesce(e.after_body_id, e.before_body_id)
         WHERE e.path = ? AND e.removed_at IS NULL ORDER BY e.id DESC LIMIT 1`,
        [path],
      );
      return row && toMeta(row);
    },
    async unreferenced() {
      return (await db.all<BodyRow>(`SELECT ${BODY_COLUMNS} FROM checkpoint_bodies WHERE refs = 0`)).map(
        toMeta,
      );
    },
    async dependentsOutside(ids) {
      const rows = await db.all<BodyRow>(
        `WITH gone(id) AS (SELECT value FROM json_each(?))
         SELECT ${BODY_COLUMNS} FROM checkpoint_bodies
         WHERE base_id IN (SELECT id FROM gone) AND id NOT IN (SELECT id FROM gone)`,
        [idsJson(ids)],
      );
      return rows.map(toMeta);
    },
    async remove(ids) {
      // One statement: the foreign keys are checked once its last row is gone, so order does not matter.
      await db.run('DELETE FROM checkpoint_bodies WHERE id IN (SELECT value FROM json_each(?))', [
        idsJson(ids),
      ]);
    },
    async refreshDepths(ids) {
      await db.run(
        `WITH RECURSIVE
           up(start, id, n) AS (
             SELECT value, value, 0 FROM json_each(?)
             UNION ALL
             SELECT up.start, b.base_id, up.n + 1 FROM up JOIN checkpoint_bodies b ON b.id = up.id
             WHERE b.base_id IS NOT NULL AND up.n < 100
           ),
           starts(id, depth) AS (SELECT start, max(n) FROM up GROUP BY start),
           down(id, depth) AS (
             SELECT id, depth FROM starts
             UNION ALL
             SELECT b.id, down.depth + 1 FROM checkpoint_bodies b JOIN down ON b.base_id = down.id WHERE down.depth < 100
           )
         UPDATE checkpoint_bodies SET depth = (SELECT max(depth) FROM down WHERE down.id = checkpoint_bodies.id)
         WHERE id IN (SELECT id FROM down)`,
        [idsJson(ids)],
      );
    },
  };
}

export type CheckpointsRepoOptions = BodyStoreOptions & { readonly now?: () => number };

export function createCheckpointsRepo(db: SqlDriver, options: CheckpointsRepoOptions = {}) {
  const bodies = createBodyStore(createBodyRows(db, options.now ?? Date.now), options);
  const removals = createRemovalsRepo(db);

  async function storeSide(side: NewEntrySide, path: string, baseId: number | null): Promise<number | null> {
    if (side.kind !== 'text' && side.kind !== 'bytes') return null;
    return (await bodies.put(side.raw, path, baseId ?? undefined)).id;
  }

  const sizeOf = (side: NewEntrySide) =>
    side.kind === 'too-large'
      ? side.size
      : side.kind === 'text' || side.kind === 'bytes'
        ? side.raw.length
        : null;

  /** The live row, or the removed entry as its removal record keeps it (cleanup deleted its row). */
  async function getRow(id: CheckpointEntryId): Promise<EntryRow | EntryRecord> {
    const row = await db.get<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM checkpoint_entries WHERE id = ?`, [id]);
    if (row) return row;
    const removed = await removals.find(id);
    if (removed) return removed;
    throw new BrainError('NotFound', `Checkpoint entry ${id} does not exist.`, { entryId: id });
  }
  const recordOf = (row: EntryRow | EntryRecord): EntryRecord => ('task_id' in row ? toRecord(row) : row);

  const repo = {
    /** Stores the entry and its bodies. Run inside a transaction (the feature wraps a batch in one). */
    async insert(entry: NewEntry): Promise<CheckpointEntryId> {
      // Before first: it is usually the previous version, and the after body deltas against it.
      const beforeBody = await storeSide(entry.before, entry.path, null);
      const afterBody = await storeSide(entry.after, entry.path, beforeBody);
      const patchBody = entry.patch ? (await bodies.put(entry.patch, entry.path, null)).id : null;
      // The id explicitly above every removed entry's: an id once given out never names another entry.
      const { lastInsertRowid } = await db.run(
        `INSERT INTO checkpoint_entries (id, task_id, step_id, path, before_kind, before_size, before_body_id,
           after_kind, after_size, after_body_id, patch_size, patch_body_id, binary, created_at)
         VALUES (${NEXT_ENTRY_ID}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          entry.taskId,
          entry.stepId,
          entry.path,
          kindToSql(entry.before.kind),
          sizeOf(entry.before),
          beforeBody,
          kindToSql(entry.after.kind),
          sizeOf(entry.after),
          afterBody,
          entry.patch?.length ?? null,
          patchBody,
          entry.binary,
          entry.now,
        ],
      );
      return asCheckpointEntryId(lastInsertRowid);
    },

    async get(id: CheckpointEntryId): Promise<EntryRecord> {
      return recordOf(await getRow(id));
    },

    /** Live and removed entries, oldest first. */
    async list(taskId: TaskId): Promise<EntryRecord[]> {
      const rows = await db.all<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM checkpoint_entries WHERE task_id = ? ORDER BY id`,
        [taskId],
      );
      const removed: EntryRecord[] = await removals.listTask(taskId);
      return removed.length === 0
        ? rows.map(toRecord)
        : [...rows.map(toRecord), ...removed].sort((a, b) => a.id - b.id);
    },

    /**
     * The verified raw bytes of both sides (null for absent, too-large and unknown sides) and, `withPatch`, of
     * the patch (else null, as for an entry without one). Throws `CheckpointRemoved` for a removed entry and
     * `CorruptBody` naming the entry, path and side (`before`, `after`, `patch`) when verification fails.
     */
    async readBodies(
      id: CheckpointEntryId,
      { withPatch = false }: { readonly withPatch?: boolean } = {},
    ): Promise<{
      record: EntryRecord;
      before: Uint8Array | null;
      after: Uint8Array | null;
      patch: Uint8Array | null;
    }> {
      const row = await getRow(id);
      const record = recordOf(row);
      const { removed } = record;
      if (removed) {
        throw new BrainError(
          'CheckpointRemoved',
          `Checkpoint entry ${id} (${record.path}) of task ${record.taskId} was removed on ` +
            `${new Date(removed.at).toISOString()} (${removed.reason}); its file bodies are no longer stored.`,
          {
            entryId: id,
            path: record.path,
            taskId: record.taskId,
            removedAt: removed.at,
            reason: removed.reason,
          },
        );
      }
      // Only a removal record has no row, and it always says when and why.
      if (!('task_id' in row)) throw new BrainError('Internal', `Checkpoint entry ${id} has no row.`);
      const read = async (bodyId: number | null, side: 'before' | 'after' | 'patch') => {
        if (bodyId === null) return null;
        const what = side === 'patch' ? 'The patch' : `The ${side} body`;
        try {
          return await bodies.read(bodyId, `${what} of checkpoint entry ${id} (${row.path})`);
        } catch (error) {
          if (error instanceof BrainError) {
            throw new BrainError(error.code, error.message, {
              ...error.details,
              entryId: id,
              path: row.path,
              side,
            });
          }
          throw error;
        }
      };
      return {
        record,
        before: await read(row.before_body_id, 'before'),
        after: await read(row.after_body_id, 'after'),
        patch: withPatch ? await read(row.patch_body_id, 'patch') : null,
      };
    },

    /** The step's task, or undefined when the step does not exist. */
    async taskOfStep(stepId: StepId): Promise<TaskId | undefined> {
      const row = await db.get<{ task_id: number }>('SELECT task_id FROM steps WHERE id = ?', [stepId]);
      return row && asTaskId(row.task_id);
    },

    /**
     * For cleanup, inside its per-task transaction: replaces every live entry of the task by one removal record
     * (paths, sizes and times stay readable; when and why are stored once), which drops their body references,
     * and deletes the bodies no one needs any more (rebasing any surviving body that used one of them as its
     * delta base).
     */
    async removeTaskCheckpoints(
      taskId: TaskId,
      removal: { readonly at: number; readonly reason: string },
    ): Promise<RemovalReport> {
      if (typeof removal.reason !== 'string' || removal.reason.trim() === '') {
        throw new BrainError('InvalidArgument', 'A checkpoint removal needs a reason.');
      }
      return db.transaction(async () => {
        const changes = await removals.removeTask(taskId, removal);
        const collected = await bodies.collect();
        return {
          entries: changes,
          bodiesRemoved: collected.bodiesRemoved,
          storedBytesRemoved: collected.storedBytesRemoved,
          rawBytesRemoved: collected.rawBytesRemoved,
        };
      });
    },

    /** Task ids that have entries but no task row any more (orphans cleanup removes a few at a time). */
    async orphanTaskIds(limit: number): Promise<TaskId[]> {
      const rows = await db.all<{ task_id: number }>(
        `SELECT DISTINCT task_id FROM checkpoint_entries e
         WHERE e.removed_at IS NULL AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = e.task_id)
         ORDER BY task_id LIMIT ?`,
        [limit],
      );
      return rows.map((row) => asTaskId(row.task_id));
    },

    /** Whole-store figures from metadata only (no blob is read). */
    async totals(): Promise<CheckpointTotals> {
      const bodyRow = await db.get<{ bodies: number; stored: number; raw: number }>(
        'SELECT count(*) AS bodies, coalesce(sum(stored_size), 0) AS stored, coalesce(sum(raw_size), 0) AS raw FROM checkpoint_bodies',
      );
      const entryRow = await db.get<{ entries: number; removed: number }>(
        `SELECT count(*) + (SELECT coalesce(sum(entries), 0) FROM checkpoint_removals) AS entries,
           (SELECT coalesce(sum(entries), 0) FROM checkpoint_removals) AS removed
         FROM checkpoint_entries`,
      );
      return {
        entries: entryRow?.entries ?? 0,
        removedEntries: entryRow?.removed ?? 0,
        bodies: bodyRow?.bodies ?? 0,
        storedBytes: bodyRow?.stored ?? 0,
        rawBytes: bodyRow?.raw ?? 0,
      };
    },

    /** Per-task figures from metadata only; `taskId` narrows it to one task. */
    async bytesByTask(taskId?: TaskId): Promise<TaskCheckpointBytes[]> {
      const only = taskId === undefined ? '' : 'WHERE task_id = ?';
      const params = taskId === undefined ? [] : [taskId];
      const counts = await db.all<{ task_id: number; entries: number; removed: number }>(
        `SELECT task_id, sum(live) + sum(removed) AS entries, sum(removed) AS removed FROM (
           SELECT task_id, 1 AS live, 0 AS removed FROM checkpoint_entries ${only}
           UNION ALL
           SELECT task_id, 0, entries FROM checkpoint_removals ${only}
         ) GROUP BY task_id ORDER BY task_id`,
        [...params, ...params],
      );
      const bytes = await db.all<{
        task_id: number;
        bodies: number;
        stored: number;
        raw: number;
        x_stored: number;
        x_raw: number;
      }>(
        `WITH sides AS (
           SELECT task_id, before_body_id AS body_id FROM checkpoint_entries WHERE before_body_id IS NOT NULL
           UNION
           SELECT task_id, after_body_id FROM checkpoint_entries WHERE after_body_id IS NOT NULL
           UNION
           SELECT task_id, patch_body_id FROM checkpoint_entries WHERE patch_body_id IS NOT NULL
         ),
         sharing AS (SELECT body_id, count(*) AS tasks FROM sides GROUP BY body_id)
         SELECT s.task_id, count(*) AS bodies, sum(b.stored_size) AS stored, sum(b.raw_size) AS raw,
           sum(CASE WHEN h.tasks = 1 THEN b.stored_size ELSE 0 END) AS x_stored,
           sum(CASE WHEN h.tasks = 1 THEN b.raw_size ELSE 0 END) AS x_raw
         FROM sides s JOIN checkpoint_bodies b ON b.id = s.body_id JOIN sharing h ON h.body_id = s.body_id
         ${taskId === undefined ? '' : 'WHERE s.task_id = ?'}
         GROUP BY s.task_id`,
        params,
      );
      const bytesByTaskId = new Map(bytes.map((row) => [row.task_id, row]));
      return counts.map((row) => {
        const b = bytesByTaskId.get(row.task_id);
        return {
          taskId: asTaskId(row.task_id),
          entries: row.entries,
          removedEntries: row.removed,
          bodies: b?.bodies ?? 0,
          storedBytes: b?.stored ?? 0,
          rawBytes: b?.raw ?? 0,
          exclusiveStoredBytes: b?.x_stored ?? 0,
          exclusiveRawBytes: b?.x_raw ?? 0,
        };
      });
    },
  };
  return repo;
}

export type CheckpointsRepo = ReturnType<typeof createCheckpointsRepo>;
