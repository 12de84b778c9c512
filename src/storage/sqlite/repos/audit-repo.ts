import { BrainError } from '../../../core/errors';
import { asTaskId, type TaskId } from '../../../core/ids';
import type { SqlDriver } from '../driver';
import { pageStats, type PageStats } from '../health';

export type ByteKind = 'steps' | 'messages' | 'summaries';
/** Light data counted by migration 5's `light_counters`: never deleted by cleanup. */
export type LightKind = 'events' | 'search_docs' | 'removed_entries';

export interface KindTotals {
  readonly rows: number;
  readonly bytes: number;
}

export interface TaskCounters {
  readonly steps: KindTotals;
  readonly messages: KindTotals;
  readonly summaries: KindTotals;
}

const autoVacuumModes = ['none', 'full', 'incremental'] as const;
export type AutoVacuumMode = (typeof autoVacuumModes)[number];

const empty: KindTotals = { rows: 0, bytes: 0 };

/**
 * File facts and byte counts without reading any content: pragmas for the pages, the trigger-kept
 * `byte_counters` for steps, messages and summaries. And the two ways to give free pages back to the file system.
 */
export function createAuditRepo(db: SqlDriver) {
  return {
    async file(): Promise<PageStats & { autoVacuum: AutoVacuumMode }> {
      const stats = await pageStats(db);
      const mode = await db.get<{ auto_vacuum: number }>('PRAGMA auto_vacuum');
      return { ...stats, autoVacuum: autoVacuumModes[mode?.auto_vacuum ?? 0] ?? 'none' };
    },

    async totals(): Promise<Record<ByteKind, KindTotals>> {
      const rows = await db.all<{ kind: ByteKind; rows: number; bytes: number }>(
        'SELECT kind, sum(rows) AS rows, sum(bytes) AS bytes FROM byte_counters GROUP BY kind',
      );
      const totals: Record<ByteKind, KindTotals> = { steps: empty, messages: empty, summaries: empty };
      for (const row of rows) totals[row.kind] = { rows: row.rows, bytes: row.bytes };
      return totals;
    },

    /** Session events, search documents and removed-entry records: rows and UTF-8 bytes (a few rows read). */
    async light(): Promise<Record<LightKind, KindTotals>> {
      const rows = await db.all<{ kind: LightKind; rows: number; bytes: number }>(
        'SELECT kind, rows, bytes FROM light_counters',
      );
      const totals: Record<LightKind, KindTotals> = {
        events: empty,
        search_docs: empty,
        removed_entries: empty,
      };
      for (const row of rows) totals[row.kind] = { rows: row.rows, bytes: row.bytes };
      return totals;
    },

    /** Per task (rows of no task are left out). */
    async byTask(): Promise<Map<TaskId, TaskCounters>> {
      const rows = await db.all<{ kind: ByteKind; task_id: number; rows: number; bytes: number }>(
        'SELECT kind, task_id, rows, bytes FROM byte_counters WHERE task_id > 0 AND rows > 0',
      );
      const byTask = new Map<TaskId, TaskCounters>();
      for (const row of rows) {
        const id = asTaskId(row.task_id);
        const counters = byTask.get(id) ?? { steps: empty, messages: empty, summaries: empty };
        byTask.set(id, { ...counters, [row.kind]: { rows: row.rows, bytes: row.bytes } });
      }
      return byTask;
    },

    /**
     * Gives up to `pages` free pages back to the file system (the file shrinks). Needs auto_vacuum=incremental;
     * returns the pages actually freed.
     */
    async incrementalVacuum(pages: number): Promise<number> {
      if (!Number.isSafeInteger(pages) || pages <= 0)
        throw new BrainError('InvalidArgument', 'incrementalVacuum takes a page count > 0.');
      const before = await pageStats(db);
      await db.exec(`PRAGMA incremental_vacuum(${pages})`);
      const after = await pageStats(db);
      return before.pageCount - after.pageCount;
    },

    /** Rebuilds the whole file; it also turns auto_vacuum=incremental on for a database made without it. */
    async vacuum(): Promise<void> {
      await db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      await db.exec('VACUUM');
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
