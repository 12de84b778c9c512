import { finishFold } from '../../core/compression/fold-finish';
import { lastActionOf } from '../../core/tool-calls/records';
import type { Task } from '../../core/model';
import { planCompressionFromFold, type CompressionPlan } from '../../core/compression/plan-compression';
import { renderSessionSummary } from '../../core/compression/render';
import { eventLine, readSessionLog, rewriteSessionLog } from '../../core/compression/session-file';
import { asSessionId, type SessionId } from '../../core/ids';
import { requireId, requireText } from '../../core/model';
import { syncPlanText } from '../../core/plan/plan-file';
import { createImportsRepo } from '../../storage/sqlite/repos/imports-repo';
import { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import type { CompressionApi, CompressOptions, FilesWritten, ResumePoint } from '../../core/api/memory';
import { errorText, type EventLog } from '../events/log';
import { readFolder, validationsDone } from './resume';
import { createSessionFolds, type SessionState } from './session-fold';
import { memoryPaths, updateFile, type MemoryFiles, type MemoryFilesProvider } from '../memory-files';

export const SUMMARY_KIND = 'session_checkpoint';

/** When the active context of a session passes either bound, the next recorded event compresses it. */
export const autoCompressAt = { events: 200, chars: 200_000 };

const MAX_TAIL = 500;

/**
 * compressContext, activeCheckpoint and resumePoint. agent.db is the source of truth and is written first, in one
 * transaction; the `.agent` files follow (HISTORY.jsonl appended, SESSION.jsonl trimmed to the tail,
 * SESSION_SUMMARY.md and PLAN.md rewritten), so a failure there loses nothing and the next compression repeats it.
 */
export function createCompressionFeature(log: EventLog, files: MemoryFilesProvider) {
  const { events, history } = log.repos;
  const { db, clock } = log.ctx;
  const transcript = createTranscriptRepo(db);
  const imports = createImportsRepo(db);
  const folds = createSessionFolds(log);

  /**
   * What the task is about, as the checkpoint's goal: its title — except an imported session's main task, whose
   * title is a list label (≤ 80 characters, cut, the agent's session id first: importers/naming.ts): its goal is
   * the person's first instruction, whole (a real Claude Code session's goal read "624a4a58 · @src/…/
   * ARCHITECTURE-REFACTORING.md review old…" where the person asked to review the old and current
   * implementation of the metrics sync and make sure it tracks every change).
   */
  async function goalOf(sessionId: SessionId, state: SessionState): Promise<string | null> {
    const task = state.task;
    if (task === null) return null;
    const imported = await imports.bySession(sessionId);
    return imported?.taskId === task.id ? (state.fold.firstInstruction ?? task.title) : task.title;
  }

  /** What the checkpoint needs beside the fold: the task's state and what ran last in it. */
  async function taskContext(task: Task | null) {
    if (task === null) return { taskState: null, lastAction: null };
    const step = await transcript.lastStep(task.id);
    return { taskState: task.state, lastAction: step === null ? null : lastActionOf(step) };
  }

  async function plannedCompression(sessionId: SessionId, options: CompressOptions, now: number) {
    const state = await folds.sessionState(sessionId);
    const known = await taskContext(state.task);
    const previous = await history.lastCompression(sessionId);
    const keepTail =
      options.keepTail === undefined
        ? undefined
        : Math.min(MAX_TAIL, Math.max(0, Math.floor(options.keepTail)));
    const lastId = state.fold.lastEventId;
    const prose = options.prose === undefined ? null : requireText(options.prose, 'Prose', 200_000);
    const compressionPlan = planCompressionFromFold({
      sessionId,
      taskId: state.task?.id ?? null,
      taskTitle: await goalOf(sessionId, state),
      ...known,
      fold: state.fold,
      active: state.active,
      plan: state.plan,
      previousSummaryChars: previous?.summary?.length ?? 0,
      ...(keepTail === undefined ? {} : { limits: { keepTail } }),
      render: {
        taskTitle: state.task?.title ?? null,
        compressedAt: now,
        prose,
        proseStale: prose !== null && options.proseFor !== undefined && options.proseFor !== lastId,
      },
    });
    return { state, compressionPlan };
  }

  async function writeFiles(
    folder: MemoryFiles,
    sessionId: SessionId,
    state: SessionState,
    compressionPlan: CompressionPlan,
    written: {
      summary: boolean;
      session: boolean;
      history: boolean;
      plan: boolean;
      droppedFragments: number;
    },
  ) {
    // Lines still in SESSION.jsonl whose events an earlier compression already moved (its file step failed).
    const inFile = readSessionLog((await folder.read(memoryPaths.session))?.text ?? null, sessionId);
    const moving = new Set(compressionPlan.compress.map((e) => e.id));
    const leftover = await events.compressedAmong(
      sessionId,
      inFile.events.filter((e) => !moving.has(e.id)).map((e) => e.id),
    );
    const toHistory = [...compressionPlan.compress, ...leftover].sort((a, b) => a.id - b.id);
    if (toHistory.length > 0) await folder.appendLines(memoryPaths.history, toHistory.map(eventLine));
    written.history = true;
    await updateFile(folder, memoryPaths.session, (text) => {
      const rewritten = rewriteSessionLog(text, sessionId, compressionPlan.tail);
      written.droppedFragments = rewritten.dropped;
      return rewritten.text;
    });
    written.session = true;
    await updateFile(folder, memoryPaths.summary, () => compressionPlan.markdown);
    written.summary = true;
    if (state.plan && state.task) {
      const { plan: taskPlan, task } = state;
      await updateFile(folder, memoryPaths.plan, (text) => syncPlanText(text, taskPlan, task.title));
      written.plan = true;
    }
    return written;
  }

  async function compress(sessionId: SessionId, options: CompressOptions = {}) {
    const now = clock.now();
    const { state, compressionPlan } = await plannedCompression(sessionId, options, now);
    const ids = await db.transaction(async () => {
      const summaryId = await transcript.addSummary({
        sessionId,
        taskId: state.task?.id ?? null,
        kind: SUMMARY_KIND,
        content: compressionPlan.markdown,
        createdAt: now,
      });
      await history.indexPendingSummaries(sessionId, SUMMARY_KIND, state.saved?.summariesIndexedUpto);
      await history.indexPendingSteps(sessionId, state.saved?.stepsIndexedUpto);
      const newest = await folds.newestIds();
      const moved = await events.markCompressed(
        compressionPlan.compress.map((e) => e.id),
        now,
      );
      const compressionId = await history.addCompression({
        sessionId,
        summaryId,
        uptoEventId: compressionPlan.checkpoint.lastEventId,
        checkpoint: JSON.stringify(compressionPlan.checkpoint),
        budget: JSON.stringify(compressionPlan.budget),
        createdAt: now,
      });
      // The next compression resumes from here: it folds only the events after this one.
      await folds.save(sessionId, state.fold, {
        stepsIndexedUpto: newest.step,
        summariesIndexedUpto: newest.summary,
      });
      return { summaryId, compressionId, moved };
    });
    log.ctx.emit({ topic: 'summaries', sessionId });
    log.ctx.emit({ topic: 'events', sessionId });
    let written: FilesWritten;
    const folder = await files(sessionId);
    if (!folder)
      written = {
        summary: false,
        session: false,
        history: false,
        plan: false,
        droppedFragments: 0,
        status: 'no-folder',
      };
    else {
      const done = { summary: false, session: false, history: false, plan: false, droppedFragments: 0 };
      try {
        await writeFiles(folder, sessionId, state, compressionPlan, done);
        written = { ...done, status: 'written' };
      } catch (error) {
        written = { ...done, status: 'failed', error: errorText(error) };
      }
    }
    return {
      compressionId: ids.compressionId,
      summaryId: ids.summaryId,
      checkpoint: compressionPlan.checkpoint,
      budget: compressionPlan.budget,
      markdown: compressionPlan.markdown,
      movedToHistory: ids.moved,
      files: written,
    };
  }

  async function resumePoint(sessionId: SessionId): Promise<ResumePoint> {
    const state = await folds.sessionState(sessionId);
    await folds.saveIfLong(sessionId, state);
    const checkpoint = finishFold(state.fold, {
      sessionId,
      taskId: state.task?.id ?? null,
      taskTitle: await goalOf(sessionId, state),
      plan: state.plan,
      ...(await taskContext(state.task)),
    });
    const { active } = state;
    const folder = await files(sessionId);
    const folderView = folder
      ? await readFolder(folder, sessionId, active)
      : { view: null, present: [] as string[] };
    return {
      sessionId,
      task: state.task,
      goal: checkpoint.goal,
      plan: state.plan,
      checkpoint,
      firstUnfinishedAction: checkpoint.nextAction,
      validationsDone: validationsDone(state.fold),
      filesChanged: checkpoint.files,
      load: {
        summaryMarkdown: renderSessionSummary(checkpoint, { taskTitle: state.task?.title ?? null }),
        tail: active,
        files: folderView.present,
      },
      folder: folderView.view,
    };
  }

  return {
    feature: {
      async activeCheckpoint(sessionId: SessionId) {
        const id = asSessionId(requireId(sessionId, 'sessionId'));
        const { state, compressionPlan } = await plannedCompression(id, {}, clock.now());
        await folds.saveIfLong(id, state);
        return {
          checkpoint: compressionPlan.checkpoint,
          budget: compressionPlan.budget,
          markdown: compressionPlan.markdown,
        };
      },
      compressContext: (sessionId: SessionId, options?: CompressOptions) => {
        const id = asSessionId(requireId(sessionId, 'sessionId'));
        if (options?.proseFor !== undefined && options.proseFor !== null)
          requireId(options.proseFor, 'proseFor');
        return compress(id, options ?? {});
      },
      resumePoint: (sessionId: SessionId) => resumePoint(asSessionId(requireId(sessionId, 'sessionId'))),
    } satisfies CompressionApi,

    /** Compresses when the session's active context passed its bound; true when it did. */
    async maybeCompress(sessionId: SessionId): Promise<boolean> {
      const active = await events.activeSize(sessionId);
      if (active.events < autoCompressAt.events && active.chars < autoCompressAt.chars) return false;
      await compress(sessionId);
      return true;
    },
  };
}
