/**
 * Tool steps indexed just behind the writes (migration 11). `recordToolCall(s)` commits its steps with a durable
 * pending mark instead of their search documents; this module writes those documents — a chunk at a time when the
 * engine is idle (`indexChunk`), or all of them before something reads the index (`catchUp`). A
 * document is built from the stored step exactly as `recordStep` builds it at once (core/events/step-text.ts), so
 * a step has the same one document either way, and no caller can see a recorded step missing from search. A step
 * that cleanup removes while it waits never gets one (only steps that exist are indexed): a step's document has its
 * step's lifetime (lifecycle/run.ts).
 */
import type { EngineContext } from '../context';
import type { SqlDriver } from '../../storage/sqlite/driver';
import type { HistoryRepo } from '../../storage/sqlite/repos/history-repo';
import { storedStepDocument } from './step-index';

/**
 * One idle chunk: at most this many steps, and past the first, this many bytes of their JSON. A call that comes in
 * waits for at most one (~150 ms for 1,000 SWE-bench-shaped steps in the bench's worker on OPFS). Smaller chunks
 * cost more in all: a transaction on OPFS has a fixed price (250-step chunks took 3.4× as long to index 5,000).
 */
export const INDEX_CHUNK = { steps: 1_000, bytes: 4 * 1024 * 1024 };
/** A reader waiting for the index takes bigger chunks (fewer transactions and FTS5 segments), memory bounded. */
export const CATCH_UP_CHUNK = { steps: 2_000, bytes: 8 * 1024 * 1024 };

type Chunk = typeof INDEX_CHUNK;

export function createPendingSteps(
  db: SqlDriver,
  history: HistoryRepo,
  sizes: { idle: Chunk; catchUp: Chunk } = { idle: INDEX_CHUNK, catchUp: CATCH_UP_CHUNK },
) {
  /** Indexes the next chunk in the caller's transaction; true when steps may be left. */
  async function indexNext(chunk: Chunk): Promise<boolean> {
    const from = await history.pendingFrom();
    if (from === null) return false;
    const { steps, rest } = await history.unindexedSteps(from, chunk.steps, chunk.bytes);
    await history.indexSteps(steps.map(storedStepDocument));
    const last = steps.at(-1);
    await history.setPendingFrom(rest && last !== undefined ? last.id + 1 : null);
    return rest;
  }

  return {
    /** Marks the steps from `firstStepId` on as waiting; call in the transaction that inserts them. */
    mark: (firstStepId: number) => history.markStepsPending(firstStepId),

    /** One chunk in a transaction of its own; true when more may be left. Cheap when nothing is pending. */
    async indexChunk(): Promise<boolean> {
      if ((await history.pendingFrom()) === null) return false;
      return db.transaction(() => indexNext(sizes.idle));
    },

    /** Every pending step indexed, a chunk a transaction (nested in the caller's, if one is open). */
    async catchUp(): Promise<void> {
      if ((await history.pendingFrom()) === null) return;
      for (let more = true; more;) more = await db.transaction(() => indexNext(sizes.catchUp));
    },
  };
}

export type PendingSteps = ReturnType<typeof createPendingSteps>;

/** Past this many steps recorded and not indexed yet, idle indexing starts without waiting for a quiet time. */
export const MAX_BACKLOG = 5_000;

/**
 * Asks the engine to index recorded steps when it is idle: after a quiet time (calls coming back to back are not
 * slowed), or at the next free turn once the backlog passes MAX_BACKLOG (a search never has much to catch up on).
 */
export function createIdleStepIndexing(ctx: EngineContext, pending: PendingSteps) {
  let backlog = 0;
  const job = async () => {
    const more = await pending.indexChunk();
    backlog = more ? Math.max(0, backlog - INDEX_CHUNK.steps) : 0;
    return more;
  };
  return (steps: number): void => {
    backlog += steps;
    ctx.whenIdle?.(job, backlog > MAX_BACKLOG ? 0 : undefined);
  };
}
