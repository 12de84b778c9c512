import { BrainError } from '../../core/errors';
import { asPlanStepId } from '../../core/events/model';
import { toFtsQuery } from '../../core/events/search';
import { asEventId, asSessionId } from '../../core/ids';
import { requireId, requireText } from '../../core/model';
import type { HistoryApi, HistoryHit, SearchHistoryOptions } from '../../core/api/memory';
import { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import type { EventLog } from '../events/log';
import { createPendingSteps } from './pending-steps';
import { backfillStepIndex } from './step-index';

const DEFAULT_LIMIT = 20;
// Search is bound by the page cache (a 100 000-event index is tens of MiB): every connection gets 32 MiB, set
// where it is opened (storage/sqlite/vfs/open.ts, PAGE_CACHE_KIB).
const MAX_LIMIT = 200;

/**
 * What recall uses of the event log: the connection and the history repo. Typed apart so that a caller with only
 * these — the history bench's native anchor (test/bench/lib/history-native.ts) — is checked by the compiler.
 */
export interface HistoryDeps {
  readonly ctx: Pick<EventLog['ctx'], 'db'>;
  readonly repos: Pick<EventLog['repos'], 'history'>;
}

/**
 * Recall: full-text search (SQLite FTS5, bm25-ranked) over events, compressed summaries and recorded tool steps
 * (their params and results as decoded text, indexed when recorded, or just behind for recordToolCall(s): any
 * step still waiting is indexed before a search runs). Each hit links back to its session, task,
 * plan step, tool step and — for a file change — its checkpoint entry, whose diff `diffCheckpoint` opens.
 */
export function createHistoryFeature(log: HistoryDeps) {
  const { history } = log.repos;
  const transcript = createTranscriptRepo(log.ctx.db);
  const pendingSteps = createPendingSteps(log.ctx.db, history);
  return {
    async searchHistory(query: string, options: SearchHistoryOptions = {}) {
      const text = requireText(query, 'Search query', 1_000);
      const fts = toFtsQuery(text);
      if (fts === null) return { hits: [], matched: 'none' as const };
      const limit = options.limit === undefined ? DEFAULT_LIMIT : requireId(options.limit, 'limit');
      if (limit > MAX_LIMIT)
        throw new BrainError('InvalidArgument', `limit is at most ${MAX_LIMIT}; got ${limit}.`);
      if (options.kinds !== undefined && !Array.isArray(options.kinds)) {
        throw new BrainError('InvalidArgument', 'kinds must be an array of event kinds (or summary, step).');
      }
      // A database from before record-time step indexing catches up here, once, a page per transaction.
      await backfillStepIndex(log.ctx.db, history, transcript);
      // Steps recorded by recordToolCall(s) and not indexed yet (the engine was not idle since): indexed now.
      await pendingSteps.catchUp();
      const { hits, matched } = await history.search(fts, {
        limit,
        ...(options.sessionId === undefined
          ? {}
          : { sessionId: asSessionId(requireId(options.sessionId, 'sessionId')) }),
        ...(options.kinds === undefined
          ? {}
          : { kinds: options.kinds.map((k) => requireText(k, 'kind', 50)) }),
      });
      return {
        matched: hits.length === 0 ? ('none' as const) : matched,
        hits: hits.map((hit): HistoryHit => ({
          source: hit.source,
          sourceId: hit.sourceId,
          eventId: hit.source === 'event' ? asEventId(hit.sourceId) : null,
          sessionId: hit.sessionId,
          taskId: hit.taskId,
          stepId: hit.stepId,
          planStepId: hit.planStepId === null ? null : asPlanStepId(hit.planStepId),
          kind: hit.kind,
          path: hit.path,
          checkpointEntryId: hit.checkpointEntryId,
          title: hit.title,
          snippet: hit.snippet,
          score: hit.score,
          createdAt: hit.createdAt,
        })),
      };
    },
  } satisfies HistoryApi;
}
