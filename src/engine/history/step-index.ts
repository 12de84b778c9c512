import { stepTitle, storedStepSearchText } from '../../core/events/step-text';
import type { SessionId, StepId, TaskId } from '../../core/ids';
import type { StepStatus } from '../../core/model';
import type { SqlDriver } from '../../storage/sqlite/driver';
import type { HistoryDoc, HistoryRepo } from '../../storage/sqlite/repos/history-repo';
import type { TranscriptRepo, StepToIndex } from '../../storage/sqlite/repos/transcript-repo';

/** The search document of a tool step, its body already decoded (core/events/step-text.ts). */
export function stepDocument(
  step: {
    readonly id: StepId;
    readonly taskId: TaskId;
    readonly sessionId: SessionId | null;
    readonly seq: number;
    readonly tool: string;
    readonly status: StepStatus;
    readonly createdAt: number;
  },
  body: string,
): HistoryDoc {
  return {
    source: 'step',
    sourceId: step.id,
    sessionId: step.sessionId,
    taskId: step.taskId,
    stepId: step.id,
    planStepId: null,
    kind: 'step',
    path: null,
    checkpointEntryId: null,
    title: stepTitle(step),
    body,
    createdAt: step.createdAt,
  };
}

export const storedStepDocument = (step: StepToIndex) =>
  stepDocument(step, storedStepSearchText(step.params, step.result));

/** A page of the backfill: at most this many steps, and past the first, this many bytes of their JSON. */
export const BACKFILL_PAGE = { steps: 200, bytes: 4 * 1024 * 1024, orphanDocs: 500 };

/**
 * Brings the history index of a database from before record-time step indexing up to date (migration 8): first
 * the documents of steps cleanup removed are removed too (a step's document has its step's lifetime; that build
 * kept them), then every step up to the mark is indexed, newest first, each page its own transaction — so the work is done once, a page at a time, never in one transaction
 * that would hold the whole of it. Returns the number of pages (0 when there was nothing to do).
 */
export async function backfillStepIndex(
  db: SqlDriver,
  history: HistoryRepo,
  transcript: TranscriptRepo,
  page = BACKFILL_PAGE,
): Promise<number> {
  // The common case, read without a transaction: nothing to catch up on.
  if ((await history.backfillMark()) === null) return 0;
  let pages = 0;
  for (;;) {
    const more = await db.transaction(async () => {
      const mark = await history.backfillMark();
      if (mark === null) return false;
      if (mark.docsUpto > 0) {
        const lowest = await history.removeOrphanStepDocs(mark.docsUpto, page.orphanDocs);
        await history.setBackfillMark({ ...mark, docsUpto: lowest === null ? 0 : lowest - 1 });
        return true;
      }
      const steps = await transcript.stepsToIndex(mark.stepsUpto, page.steps, page.bytes);
      await history.indexSteps(steps.map(storedStepDocument));
      const last = steps.at(-1);
      await history.setBackfillMark({ docsUpto: 0, stepsUpto: last === undefined ? 0 : last.id - 1 });
      return true;
    });
    if (!more) return pages;
    pages++;
  }
}
