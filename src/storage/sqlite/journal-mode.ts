/**
 * A rollback journal for the length of one piece of work on a WAL database. An import is one large transaction of
 * pages that are almost all new: a rollback journal saves only the few pages that existed before, and each new page
 * is written once, into the database; in WAL mode every page is written to the log and again into the database at
 * the checkpoint, and read back from the log in between. Measured on the 500 MB import bench: 0.46–0.55× the native
 * anchor in WAL mode against 0.62–0.96× with the journal (test/bench/README.md, "Importing agent transcripts").
 *
 * Switching is safe at any instant: `journal_mode = DELETE` checkpoints and empties the WAL first (one
 * connection, the exclusive lock held); a kill during the work leaves a hot journal that SQLite rolls back at the
 * next open before that open switches to WAL again (open.ts); the way back to WAL is a rollback-journal transaction
 * of its own (the header's two version bytes).
 */
import { BrainError } from '../../core/errors';
import type { SqlDriver } from './driver';

async function journalMode(db: SqlDriver, to?: 'DELETE' | 'WAL'): Promise<string | undefined> {
  const row = await db.get<{ journal_mode: string }>(`PRAGMA journal_mode${to ? ` = ${to}` : ''}`);
  return row?.journal_mode;
}

async function backToWal(db: SqlDriver): Promise<void> {
  const back = await journalMode(db, 'WAL');
  if (back !== 'wal')
    throw new BrainError(
      'Internal',
      `The database could not return to WAL mode (it is in ${back ?? 'no'} mode).`,
    );
}

/**
 * Runs `work` in rollback-journal mode when the connection is in WAL mode, then back to WAL — also when `work`
 * throws (its error is the one that reaches the caller).
 */
export async function withRollbackJournal<T>(db: SqlDriver, work: () => Promise<T>): Promise<T> {
  if ((await journalMode(db)) !== 'wal') return work();
  if ((await journalMode(db, 'DELETE')) !== 'delete')
    throw new BrainError(
      'Internal',
      'The database could not leave WAL mode for this work; nothing was changed.',
    );
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await backToWal(db).catch(() => undefined);
    throw error;
  }
  await backToWal(db);
  return result;
}
