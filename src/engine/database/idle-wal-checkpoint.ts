/**
 * The WAL checkpointed while nobody waits. On OPFS a commit only appends to `agent.db-wal`
 * (storage/sqlite/vfs/open.ts); the WAL checkpoint writes those pages into agent.db — scattered writes, the costly
 * part — so it runs when the engine is idle: `WAL_CHECKPOINT_QUIET_MS` after the last call, on the engine's queue
 * between calls (history/idle.ts), never inside one. The search indexing put off behind the writes goes first: while
 * steps are pending, a turn of this job indexes one chunk of them (the pages it writes then go into the same WAL
 * checkpoint) and gives the queue back; the WAL checkpoint comes once they are all indexed. SQLite's autocheckpoint
 * bounds the log when the engine is never idle. In DELETE mode (memory databases) a turn costs two cheap reads and
 * does nothing.
 */
import { checkpointWal } from '../../storage/sqlite/database';
import { createHistoryRepo } from '../../storage/sqlite/repos/history-repo';
import type { EngineContext } from '../context';
import { createPendingSteps } from '../history/pending-steps';

/** Quiet time after the last call before the WAL checkpoint (longer than indexing's, so calls in a burst share one). */
export const WAL_CHECKPOINT_QUIET_MS = 200;

/** Returns `ask`: call it after every engine call; the WAL checkpoint then runs once the engine has been idle. */
export function createIdleWalCheckpoint(ctx: Pick<EngineContext, 'db' | 'whenIdle'>): () => void {
  const history = createHistoryRepo(ctx.db);
  const pending = createPendingSteps(ctx.db, history);
  const job = async (): Promise<boolean> => {
    if ((await history.pendingFrom()) !== null) {
      await pending.indexChunk();
      return true;
    }
    await checkpointWal(ctx.db);
    return false;
  };
  return () => ctx.whenIdle?.(job, WAL_CHECKPOINT_QUIET_MS);
}
