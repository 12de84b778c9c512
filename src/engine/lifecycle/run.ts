/**
 * Lifecycle, running: applies the cleanup plan, one transaction per task, in turns on the engine's queue.
 *
 * A whole cleanup of a large backlog takes seconds to minutes on OPFS (60–80 ms a task), and every engine call
 * runs alone on the one connection. So `cleanup()` is not one engine call: each turn cleans one task (its own
 * transaction) and lets the calls queued meanwhile run before the next turn — a call made during a cleanup waits
 * for one task, not for the pass (issue 32: up to 4.5 s when a turn cleaned for 100 ms and a commit crossed the
 * WAL's autocheckpoint). The plan is made again when something that decides protection changed (a task state,
 * pin, reference, session or an import: `changed()`). On OPFS the WAL is copied into agent.db by a turn of its
 * own once the pass has written `walCheckpointBytes` since the last one, so no task's commit crosses SQLite's
 * autocheckpoint (a 32 MiB copy inside one commit) and a call waits at most for a small copy. Progress goes to an
 * optional listener after each task.
 *
 * Automatic passes also give pages back (`giveBackPiledUp`). A pass waits for its debounce, so an agent whose
 * tasks are shorter than that supersedes several before it runs, and the file grows to hold them all (steps,
 * their search index, checkpoints); SQLite reuses free pages but never returns them, so without this the file kept
 * that high-water mark for good — it is what raised the bench's file in steps (issue 32: 1.7–3.3× from task 10 to
 * 100, after passes that found up to 10 tasks waiting). A pass that cleaned several tasks returns the file to the
 * size the work needs in step with cleanup (`steadyPages`, learnt from the passes that cleaned one task), by an
 * incremental vacuum in each task's own turn (at most `giveBackTurnPages`). The trade-off: only what piled up goes
 * back. A pass in step with the agent (one task) gives nothing back — the next task reuses those pages, and the
 * free pages the search index's merges leave come and go with its merge phase; returning them every task would
 * move the current task's pages down the file each time (writes of its size again, on the agent's time), and the
 * file would swing with that phase instead of staying at its high-water mark in step. A manual `cleanup()` gives
 * nothing back (`maintain()` does, when asked).
 */
import { BrainError, isBrainError, type BrainErrorData } from '../../core/errors';
import type { TaskId } from '../../core/ids';
import { removalNote, type CleanReason } from '../../core/retention/index';
import type { CleanupRepo } from '../../storage/sqlite/repos/cleanup-repo';
import type { EngineContext } from '../context';
import type {
  CleanupLogEntry,
  CleanupOptions,
  CleanupProgressListener,
  CleanupReport,
} from '../../core/api/lifecycle';
import type { CleanupPlanner } from './cleanup-plan';

/**
 * Page bytes the pass may write (to the WAL) before a turn copies the WAL into agent.db: 2 MiB, ~512 pages, a
 * copy of a few hundred ms on OPFS at worst (SQLite's own autocheckpoint comes at 32 MiB, open.ts).
 */
export const walCheckpointBytes = 2 * 1024 * 1024;

/**
 * Free pages a give-back may return in one turn: 256 pages (1 MiB at 4 KiB pages), an incremental vacuum of tens of
 * ms on OPFS (~0.3 ms a page: test/bench/README.md, Lifecycle (b)). More waits for the next turns.
 */
export const giveBackTurnPages = 256;

/** What a give-back needs of the file: its page counts, and an incremental vacuum returning up to n free pages. */
export interface CleanupSpace {
  pages(): Promise<{ readonly pageCount: number; readonly freelistCount: number }>;
  /** Returns up to `pages` free pages to the file system; resolves to how many it returned. */
  giveBack(pages: number): Promise<number>;
}

/** What a pass needs of the WAL: page bytes written so far (any meter that only grows), and a WAL checkpoint. */
export interface CleanupWal {
  written(): number;
  checkpoint(): Promise<void>;
}

/**
 * Lets the worker's event loop run: the engine's calls are microtasks end to end (the OPFS VFS is synchronous), so
 * without a macrotask between two turns a call arriving from the page would wait for the whole cleanup.
 */
const nextMacrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function errorData(error: unknown): BrainErrorData {
  if (isBrainError(error)) return error.toData();
  return { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

/** One `cleanup()` call's state across its turns. */
interface Run {
  readonly maxTasks: number;
  readonly onProgress: CleanupProgressListener | undefined;
  readonly startedAt: number;
  planned: number | null;
  /** The plan of the last turn, and the `generation` it was made at: made again when protection changed. */
  current: { generation: number; value: Awaited<ReturnType<CleanupPlanner['currentPlan']>> } | null;
  /** `wal.written()` at the pass's last WAL checkpoint (or its start). */
  walMark: number;
  readonly cleaned: CleanupLogEntry[];
  readonly failed: { taskId: TaskId; error: BrainErrorData }[];
  /** Tasks this call handled (cleaned, failed, or found cleaned already): never tried twice in one call. */
  readonly handled: Set<TaskId>;
  deferred: number;
  remaining: number;
  /** Whether the last turn left more to do. */
  more: boolean;
  /**
   * Give-back (automatic passes only; null: none): pages still to give back in the next turns, the pages the
   * pass's tasks freed (their cleanup transactions' own; for the room of a task when no pass has set
   * `steadyPages` yet), free pages at its start.
   */
  giveBack: { left: number; freed: number; freeAtStart: number | null } | null;
}

type Cleanup = (options?: CleanupOptions, onProgress?: CleanupProgressListener) => Promise<CleanupReport>;

function requireMaxTasks(input: CleanupOptions | undefined): number {
  const maxTasks = input?.maxTasks ?? Infinity;
  if (maxTasks !== Infinity && (!Number.isSafeInteger(maxTasks) || maxTasks < 1)) {
    throw new BrainError('InvalidArgument', 'maxTasks must be a whole number ≥ 1.');
  }
  return maxTasks;
}

export function createCleanupRunner(
  ctx: EngineContext,
  deps: {
    readonly repo: CleanupRepo;
    readonly planner: CleanupPlanner;
    readonly wal?: CleanupWal;
    readonly space?: CleanupSpace;
  },
) {
  const { db, clock } = ctx;
  const { repo, planner, wal, space } = deps;
  /** Runs started by `inTurns`: only these continue across calls (a cloned object from a client is not one). */
  const live = new WeakSet<Run>();
  /** Bumped by `changed()`: a plan made at an older generation is made again. */
  let generation = 0;
  /**
   * The file's size (pages) the agent's work needs in step with cleanup: at the end of each automatic pass that
   * cleaned one task, the file less the free pages left unused since the last pass (free at the pass's start) —
   * the current task, the task just cleaned (its pages the next one reuses), the search index with its merges;
   * the most seen. null until such a pass (or a pile's fallback, `giveBackPiledUp`).
   */
  let steadyPages: number | null = null;

  function newRun(
    input: CleanupOptions | undefined,
    onProgress: CleanupProgressListener | undefined,
    giveBack = false,
  ): Run {
    return {
      maxTasks: requireMaxTasks(input),
      onProgress: typeof onProgress === 'function' ? onProgress : undefined,
      startedAt: clock.now(),
      planned: null,
      current: null,
      walMark: wal?.written() ?? 0,
      cleaned: [],
      failed: [],
      handled: new Set(),
      deferred: 0,
      remaining: 0,
      more: true,
      giveBack: giveBack && space ? { left: 0, freed: 0, freeAtStart: null } : null,
    };
  }

  const freePages = async () => (space ? (await space.pages()).freelistCount : 0);

  /**
   * Free pages given back after an automatic pass that cleaned several tasks (they piled up while the pass waited
   * for its debounce): the file goes back to `steadyPages`, as far as free pages allow, at most
   * `giveBackTurnPages` in this turn (the rest in the next turns). Recounted from the file each time: the agent's
   * writes between two turns may have reused some already.
   */
  async function giveBackPiledUp(run: Run, last: boolean) {
    if (!run.giveBack || !space || run.cleaned.length < 2) return;
    // No steady size yet (the engine's first passes found tasks piled up): once the pile is cleaned (before, the
    // pages in use still hold it), the pages in use and room for two of its tasks (what one freed on average, the
    // room of the task just cleaned and of the next — a heuristic: a task's search entries are freed only when the
    // index's merges meet them, so what its cleanup frees understates what it needs).
    if (steadyPages === null && !last) return;
    const file = await space.pages();
    steadyPages ??=
      file.pageCount - file.freelistCount + 2 * Math.ceil(run.giveBack.freed / run.cleaned.length);
    const want = Math.min(file.pageCount - steadyPages, file.freelistCount);
    run.giveBack.left = 0;
    if (want <= 0) return;
    const returned = await space.giveBack(Math.min(want, giveBackTurnPages));
    // Nothing returned (a file without incremental auto-vacuum): no give-back turns.
    if (returned > 0) run.giveBack.left = want - returned;
  }

  function progress(run: Run, taskId: TaskId, left: number) {
    if (!run.onProgress) return;
    const done = run.cleaned.length + run.failed.length;
    const report = {
      done,
      total: done + Math.min(left, run.maxTasks - run.handled.size),
      cleaned: run.cleaned.length,
      failed: run.failed.length,
      bytesFreed: bytesFreed(run),
      taskId,
    };
    try {
      // A listener in a closed page rejects (it is a proxy): the cleanup goes on without it.
      const pending = run.onProgress(report) as unknown;
      if (pending instanceof Promise) pending.catch(() => undefined);
    } catch {
      // A throwing listener does not stop the cleanup either.
    }
  }

  const bytesFreed = (run: Run) =>
    run.cleaned.reduce((sum, r) => sum + r.stepBytesRemoved + r.storedBytesRemoved, 0);

  /** The plan, made again when protection changed since the last turn's. */
  async function planOf(run: Run) {
    if (run.current?.generation !== generation) {
      const at = generation;
      run.current = { generation: at, value: await planner.currentPlan() };
    }
    return run.current.value;
  }

  /**
   * One turn: the WAL copied into agent.db when the pass has written enough since the last copy, or else one
   * task cleaned in one transaction. True while there is more to do. `whole`: every task in this one call (an
   * engine used without its queue), no WAL turns.
   */
  async function turn(run: Run, whole = false): Promise<boolean> {
    if (!whole && wal && wal.written() - run.walMark >= walCheckpointBytes) {
      await wal.checkpoint();
      run.walMark = wal.written();
      return true;
    }
    if (run.giveBack && run.giveBack.left > 0) {
      await giveBackPiledUp(run, true);
      return true;
    }
    if (run.giveBack && run.giveBack.freeAtStart === null) run.giveBack.freeAtStart = await freePages();
    const { plan, tasksById } = await planOf(run);
    run.planned ??= plan.clean.length;
    const all = [...plan.verdicts, ...plan.vanished];
    run.deferred = all.filter((v) => v.verdict === 'skip' && v.reasons[0].kind === 'orphan-deferred').length;
    const toClean = all
      .filter((v) => v.verdict === 'clean' && !run.handled.has(v.taskId))
      .sort((a, b) => a.taskId - b.taskId);
    let left = toClean.length;
    for (const verdict of toClean) {
      if (run.handled.size >= run.maxTasks) break;
      if (!whole && left < toClean.length) break;
      if (verdict.verdict !== 'clean') continue;
      left--;
      run.handled.add(verdict.taskId);
      const reason: CleanReason = verdict.reasons[0];
      try {
        // One transaction per task: a failure or a killed tab leaves it fully cleaned or untouched.
        // Its steps' search documents go with them; a step still waiting for its document (recordToolCalls
        // indexes just behind the writes) never gets one: the indexer only looks for steps that exist.
        const freeBefore = run.giveBack ? await freePages() : 0;
        const record = await db.transaction(() =>
          repo.cleanTask(verdict.taskId, clock.now(), reason, removalNote(reason)),
        );
        if (!record) continue;
        if (run.giveBack) run.giveBack.freed += Math.max(0, (await freePages()) - freeBefore);
        run.cleaned.push(record);
        // In the same turn: what this task freed goes back before the next call, the pass's last task included.
        await giveBackPiledUp(run, left === 0);
        const sessionId = tasksById.get(verdict.taskId)?.sessionId ?? null;
        ctx.emit({
          topic: 'cleanup',
          taskId: verdict.taskId,
          ...(sessionId === null ? {} : { sessionId }),
        });
      } catch (error) {
        if (isBrainError(error, 'Closed') || isBrainError(error, 'OpenElsewhere')) throw error;
        run.failed.push({ taskId: verdict.taskId, error: errorData(error) });
      }
      progress(run, verdict.taskId, left);
    }
    run.remaining = left;
    const more = (left > 0 && run.handled.size < run.maxTasks) || (run.giveBack?.left ?? 0) > 0;
    if (!more && run.giveBack && run.cleaned.length === 1 && space) {
      // The pages the work used: the file less the free pages it left unused until this pass (free at its start).
      const used = (await space.pages()).pageCount - (run.giveBack.freeAtStart ?? 0);
      steadyPages = Math.max(steadyPages ?? 0, used);
    }
    return more;
  }

  function report(run: Run): CleanupReport {
    return {
      startedAt: run.startedAt,
      finishedAt: clock.now(),
      planned: run.planned ?? 0,
      cleaned: run.cleaned,
      failed: run.failed,
      deferred: run.deferred,
      remaining: run.remaining,
      bytesFreed: bytesFreed(run),
    };
  }

  return {
    /** Something that decides protection changed: the next turn of every pass makes its plan again. */
    changed() {
      generation++;
    },

    /**
     * The engine method. Called by `inTurns` with its run, it does one turn of that run; called otherwise
     * (an engine used without its queue) it does the whole cleanup in one go.
     */
    async cleanup(
      input?: CleanupOptions,
      onProgress?: CleanupProgressListener,
      run?: unknown,
    ): Promise<CleanupReport> {
      if (live.has(run as Run)) {
        (run as Run).more = await turn(run as Run);
        return report(run as Run);
      }
      const all = newRun(input, onProgress);
      while (await turn(all, true));
      return report(all);
    },

    /**
     * `cleanup()` as callers get it: turns of `queued` (the engine method on the serialised engine), each its own
     * engine call, so calls made meanwhile run between two tasks.
     */
    inTurns(queued: Cleanup, options: { readonly giveBack?: boolean } = {}): Cleanup {
      const withRun = queued as (
        o?: CleanupOptions,
        p?: CleanupProgressListener,
        run?: Run,
      ) => Promise<unknown>;
      return async (input, onProgress) => {
        const run = newRun(input, onProgress, options.giveBack === true);
        live.add(run);
        try {
          while (await withRun(input, onProgress, run).then(() => run.more)) await nextMacrotask();
          return report(run);
        } finally {
          live.delete(run);
        }
      };
    },
  };
}
