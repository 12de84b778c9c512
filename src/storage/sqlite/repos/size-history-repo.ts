import type { SizeFigures, SizeSampleCause } from '../../../core/size-history';
import { createAuditRepo } from './audit-repo';
import { checkpointCleanup } from './cleanup-repo';
import type { SqlDriver } from '../driver';

export interface StoredSizeSample extends SizeFigures {
  readonly id: number;
  readonly at: number;
  readonly cause: SizeSampleCause;
}

interface SampleRow {
  id: number;
  at: number;
  cause: SizeSampleCause;
  page_size: number;
  page_count: number;
  freelist_count: number;
  checkpoint_bytes: number;
  step_bytes: number;
  light_bytes: number;
}

const columns =
  'id, at, cause, page_size, page_count, freelist_count, checkpoint_bytes, step_bytes, light_bytes';

function fromRow(row: SampleRow): StoredSizeSample {
  return {
    id: row.id,
    at: row.at,
    cause: row.cause,
    pageSize: row.page_size,
    pageCount: row.page_count,
    freelistCount: row.freelist_count,
    checkpointBytes: row.checkpoint_bytes,
    stepBytes: row.step_bytes,
    lightBytes: row.light_bytes,
  };
}

/**
 * The `size_samples` table (migration 6), and the figures a sample holds — read the way audit() reads them
 * (pragmas, trigger-kept counters: a few small queries, no content), so taking one is cheap.
 */
export function createSizeHistoryRepo(db: SqlDriver) {
  const audits = createAuditRepo(db);
  const checkpoints = checkpointCleanup(db);
  return {
    async measure(): Promise<SizeFigures> {
      const file = await audits.file();
      const totals = await audits.totals();
      const stored = await checkpoints.totals();
      // Light = every counted kind but steps (messages, summaries, and whatever else the audit counts).
      let lightBytes = 0;
      for (const [kind, counted] of Object.entries(totals)) if (kind !== 'steps') lightBytes += counted.bytes;
      return {
        pageSize: file.pageSize,
        pageCount: file.pageCount,
        freelistCount: file.freelistCount,
        checkpointBytes: stored.storedBytes,
        stepBytes: totals.steps.bytes,
        lightBytes,
      };
    },

    /** Rows inserted, updated or deleted on this connection since it opened: a cheap "anything written?" test. */
    async totalChanges(): Promise<number> {
      return (await db.get<{ n: number }>('SELECT total_changes() AS n'))?.n ?? 0;
    },

    async latest(): Promise<StoredSizeSample | null> {
      const row = await db.get<SampleRow>(
        `SELECT ${columns} FROM size_samples ORDER BY at DESC, id DESC LIMIT 1`,
      );
      return row ? fromRow(row) : null;
    },

    /** Oldest first. */
    async list(since = 0): Promise<StoredSizeSample[]> {
      const rows = await db.all<SampleRow>(
        `SELECT ${columns} FROM size_samples WHERE at >= ? ORDER BY at, id`,
        [since],
      );
      return rows.map(fromRow);
    },

    async times(): Promise<{ id: number; at: number }[]> {
      return db.all<{ id: number; at: number }>('SELECT id, at FROM size_samples');
    },

    async insert(at: number, cause: SizeSampleCause, f: SizeFigures): Promise<number> {
      const result = await db.run(
        `INSERT INTO size_samples (at, cause, page_size, page_count, freelist_count, checkpoint_bytes, step_bytes, light_bytes)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [at, cause, f.pageSize, f.pageCount, f.freelistCount, f.checkpointBytes, f.stepBytes, f.lightBytes],
      );
      return result.lastInsertRowid;
    },

    /** Updates a sample's cause and figures; its time stays. */
    async update(id: number, cause: SizeSampleCause, f: SizeFigures): Promise<void> {
      await db.run(
        `UPDATE size_samples SET cause = ?, page_size = ?, page_count = ?, freelist_count = ?, checkpoint_bytes = ?,
           step_bytes = ?, light_bytes = ? WHERE id = ?`,
        [cause, f.pageSize, f.pageCount, f.freelistCount, f.checkpointBytes, f.stepBytes, f.lightBytes, id],
      );
    },

    async remove(ids: readonly number[]): Promise<void> {
      // Few at a time (thinning drops one or two per sample); a JSON array keeps it one bound parameter.
      if (ids.length === 0) return;
      await db.run('DELETE FROM size_samples WHERE id IN (SELECT value FROM json_each(?))', [
        JSON.stringify(ids),
      ]);
    },
  };
}

export type SizeHistoryRepo = ReturnType<typeof createSizeHistoryRepo>;
