import { BrainError, isBrainError, type BrainErrorData } from '../../core/errors';
import {
  defaultSizeHistoryPolicy,
  decideSample,
  planThinning,
  type SizeHistoryPolicy,
  type SizeSampleCause,
} from '../../core/size-history';
import { createSizeHistoryRepo, type StoredSizeSample } from '../../storage/sqlite/repos/size-history-repo';
import type { EngineContext } from '../context';
import type { SizeHistory, SizeHistoryApi, SizeHistoryQuery, SizeSample } from '../../core/api/size-history';

/** Engine calls after which the sizes may have moved enough to record (when the figures changed). */
const causeOfCall: Readonly<Record<string, SizeSampleCause>> = {
  cleanup: 'cleanup',
  maintain: 'maintain',
  compact: 'compact',
  importDatabase: 'import',
  importBrain: 'import',
};

function toSample(s: StoredSizeSample): SizeSample {
  return {
    at: s.at,
    cause: s.cause,
    fileBytes: s.pageSize * s.pageCount,
    freeBytes: s.pageSize * s.freelistCount,
    heavyBytes: s.checkpointBytes + s.stepBytes,
    checkpointBytes: s.checkpointBytes,
    stepBytes: s.stepBytes,
    lightBytes: s.lightBytes,
    pageSize: s.pageSize,
    pageCount: s.pageCount,
    freelistCount: s.freelistCount,
  };
}

function errorData(error: unknown): BrainErrorData {
  if (isBrainError(error)) return error.toData();
  return { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Size history: samples taken around engine calls (the observer in observe.ts calls `before`/`after` inside
 * each call's turn on the serial queue, so a sample never interleaves with another call). Cheap by design: the
 * first call after open samples; a cleanup/upkeep/compaction/import samples if the figures changed; any other
 * call checks `total_changes()` at most once per `writeIntervalMs` and samples if something was written (policy
 * in core/size-history.ts). Each new sample is one small transaction that also thins the table. A failed sample never fails the call: it is kept
 * as `lastError` and shown by `sizeHistory()`.
 */
export function createSizeHistoryFeature(
  ctx: EngineContext,
  policy: SizeHistoryPolicy = defaultSizeHistoryPolicy,
) {
  const { db, clock } = ctx;
  const repo = createSizeHistoryRepo(db);
  let openSamplePending = true;
  let lastWriteCheck = -Infinity;
  let changesSeen: number | null = null;
  let lastError: BrainErrorData | null = null;

  async function sample(cause: SizeSampleCause): Promise<void> {
    try {
      const now = clock.now();
      const figures = await repo.measure();
      const last = await repo.latest();
      const decision = decideSample({
        cause,
        now,
        figures,
        last: last && { ...last, figures: last },
        policy,
      });
      if (decision.kind === 'replace') await repo.update(decision.id, cause, figures);
      else if (decision.kind === 'insert') {
        await db.transaction(async () => {
          await repo.insert(now, cause, figures);
          await repo.remove(planThinning(await repo.times(), now, policy));
        });
      }
      // Taken after the call's own change notices: a chart that fetched on those must fetch again.
      if (decision.kind !== 'skip') ctx.emit({ topic: 'sizes' });
      changesSeen = await repo.totalChanges();
      lastError = null;
    } catch (error) {
      lastError = errorData(error);
    }
  }

  const api = {
    async sizeHistory(query: SizeHistoryQuery = {}): Promise<SizeHistory> {
      if (typeof query !== 'object' || query === null)
        throw new BrainError('InvalidArgument', 'sizeHistory takes { since? } (epoch ms).');
      const since = query.since ?? 0;
      if (typeof since !== 'number' || !Number.isFinite(since) || since < 0)
        throw new BrainError('InvalidArgument', 'since must be a time in epoch milliseconds (a number ≥ 0).');
      const samples = (await repo.list(since)).map(toSample);
      return { samples, lastError };
    },
  } satisfies SizeHistoryApi;

  return {
    api,
    /** Before a call runs: the open sample (the state as this engine found it). */
    async before(): Promise<void> {
      if (!openSamplePending) return;
      openSamplePending = false;
      lastWriteCheck = clock.now();
      await sample('open');
    },
    /** After a call succeeded. */
    async after(method: string): Promise<void> {
      const cause = causeOfCall[method];
      if (cause) {
        await sample(cause);
        return;
      }
      const now = clock.now();
      if (now - lastWriteCheck < policy.writeIntervalMs) return;
      lastWriteCheck = now;
      try {
        // A replaced database (import) is a new connection: its count starts again, so compare for equality.
        if ((await repo.totalChanges()) === changesSeen) return;
      } catch (error) {
        lastError = errorData(error);
        return;
      }
      await sample('writes');
    },
  };
}
