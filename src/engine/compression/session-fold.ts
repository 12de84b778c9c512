/**
 * The compression fold of a session as the engine keeps it: the state saved by the last compression (table
 * `compression_state`) plus the events recorded since, folded on load. Its cost follows the events since the
 * last compression, not the session's age. A session without a readable saved state (a database from before
 * migration 7, or a state of another format) is folded from its first event, a page at a time, once: the next
 * compression saves the result (a read that had to fold many events saves it too).
 */
import { foldEvents, initialFold, type CompressionFold } from '../../core/compression/fold';
import { foldFromJson, foldToJson } from '../../core/compression/fold-json';
import { isBrainError } from '../../core/errors';
import type { SessionId } from '../../core/ids';
import {
  createCompressionStateRepo,
  type CompressionState,
} from '../../storage/sqlite/repos/compression-state-repo';
import type { EventLog } from '../events/log';

/** Events read per query when folding from an old point (bounds memory, not the work). */
const FOLD_PAGE = 5_000;
/** A read (activeCheckpoint, resumePoint) that folded at least this many events saves the state. */
export const SAVE_FOLD_AFTER = 1_000;

export function createSessionFolds(log: EventLog) {
  const { sessions, tasks, events, plans } = log.repos;
  const { db, clock } = log.ctx;
  const states = createCompressionStateRepo(db);

  function restored(saved: CompressionState | null): CompressionFold | null {
    if (!saved) return null;
    const fold = foldFromJson(saved.fold);
    return fold && fold.lastEventId === saved.foldUptoEventId ? fold : null;
  }

  /** The saved fold with every later event folded in; `folded`: how many events that took. */
  async function load(sessionId: SessionId) {
    const saved = await states.get(sessionId);
    const fold = restored(saved) ?? initialFold();
    // A subagent's thread (a child task) speaks to its parent agent, not for the session (fold.ts FoldOptions).
    const childTasks = new Set(
      (await tasks.list(sessionId)).filter((t) => t.parentTaskId !== null).map((t) => t.id),
    );
    let folded = 0;
    for (;;) {
      const after = fold.lastEventId;
      const page = await events.list(sessionId, {
        ...(after === null ? {} : { afterId: after }),
        limit: FOLD_PAGE,
      });
      foldEvents(fold, page, { childTasks });
      folded += page.length;
      if (page.length < FOLD_PAGE) break;
    }
    return { fold, saved, folded };
  }

  /**
   * What a compression or a resume reads: the session, its task (its current one, else the task of its latest
   * event) with its plan, the fold up to the newest event, and the events still in the active context.
   */
  async function sessionState(sessionId: SessionId) {
    const session = await sessions.get(sessionId);
    const { fold, saved, folded } = await load(sessionId);
    const taskId = session.currentTaskId ?? fold.lastTaskId;
    const task =
      taskId === null
        ? null
        : await tasks.get(taskId).catch((error: unknown) => {
            // The task of an old event may be gone (removed with its parent); the session then has none.
            if (isBrainError(error, 'NotFound')) return null;
            throw error;
          });
    const plan = task === null ? null : await plans.get(task.id);
    const active = await events.list(sessionId, { activeOnly: true });
    return { session, task, plan, fold, saved, folded, active };
  }

  /** Saves the fold (inside the caller's transaction when there is one); index marks only when given. */
  async function save(
    sessionId: SessionId,
    fold: CompressionFold,
    marks: Partial<Pick<CompressionState, 'stepsIndexedUpto' | 'summariesIndexedUpto'>> = {},
  ) {
    await states.save(
      sessionId,
      { fold: foldToJson(fold), foldUptoEventId: fold.lastEventId, ...marks },
      clock.now(),
    );
  }

  /** After a read: keeps the work of a long fold (a database from before the saved state, say). */
  async function saveIfLong(sessionId: SessionId, state: { fold: CompressionFold; folded: number }) {
    if (state.folded >= SAVE_FOLD_AFTER) await db.transaction(() => save(sessionId, state.fold));
  }

  return { sessionState, save, saveIfLong, newestIds: states.newestIds };
}

export type SessionState = Awaited<ReturnType<ReturnType<typeof createSessionFolds>['sessionState']>>;
