/**
 * A rollback journal for the length of one piece of work on a WAL database. An import is one large transaction of
 * pages that are almost all new: a rollback journal saves only the few pages that existed before, and each new page
 * is written once, into the database; in WAL mode every page is written to the log and again into the database at
 * the WAL checkpoint, and read back from the log in between. Measured on the 500 MB import bench: 0.46–0.55× the
 * native anchor in WAL mode against 0.74–0.76× with the journal (test/bench/README.md, "Importing agent
 * transcripts").
 *
 * Switching is safe at any instant: `journal_mode = DELETE` checkpoints and empties the WAL first (one
 * connection, the exclusive lock held); a kill during the work leaves a hot journal that SQLite rolls back at the
 * next open before that open switches to WAL again (open.ts); the way back to WAL is a rollback-journal transaction
 * of its own (the header's two version bytes).
 */
import { BrainError } from '../../core/errors';
import type { SqlDriver } from './driver';

/**
 * Puts the connection in `mode` and checks the mode SQLite answers with: a refusal (a VFS without WAL support, an
 * open transaction) must not pass silently. `what` names the database in the error.
 */
export async function setJournalMode(db: SqlDriver, mode: 'DELETE' | 'WAL', what: string): Promise<void> {
  const row = await db.get<{ journal_mode: string }>(`PRAGMA journal_mode = ${mode}`);
  if (row?.journal_mode !== mode.toLowerCase()) {
    throw new BrainError(
      'Internal',
      `${what} could not be put in ${mode} journal mode (it is in ${row?.journal_mode ?? 'no'} mode).`,
    );
  }
}

/**
 * Runs `work` in rollback-journal mode when the connection is in WAL mode, then back to WAL — also when `work`
 * throws (its error is the one that reaches the caller).
 */
export async function withRollbackJournal<T>(db: SqlDriver, work: () => Promise<T>): Promise<T> {
  const row = await db.get<{ journal_mode: string }>('PRAGMA journal_mode');
  if (row?.journal_mode !== 'wal') return work();
  await setJournalMode(db, 'DELETE', 'The database');
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await setJournalMode(db, 'WAL', 'The database').catch(() => undefined);
    throw error;
  }
  await setJournalMode(db, 'WAL', 'The database');
  return result;
}
