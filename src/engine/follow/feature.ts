/**
 * followFolder / pollFollowedFolder / …: a folder of an agent's histories followed while the agent writes them
 * (issue 30). Each look lists the folder's transcripts (sizes and modification times) and reads what is new in
 * each changed file, in turns of at most TURN_BYTES on the engine's queue (a call waits for at most one turn); a
 * `FileSystemObserver` starts a look when the browser reports a change, else the folder is polled every
 * POLL_VISIBLE_MS while the page is visible and POLL_HIDDEN_MS while it is hidden. Looks the observer starts are
 * at least `observedGapMs` apart (0 by default), and a change reported while a look runs gets a look of its own
 * after it. A turn runs with the checkpoint body cache bounded as an
 * import's is (it writes far more bodies than it reads back). The folder's handle lives in
 * this worker only while it is followed; its files' offsets live in agent.db (followed_files), so a reload — the
 * page hands the remembered handle back with the follow's id — reads on from where the brain stopped.
 */
import type {
  FollowApi,
  FollowedFolder,
  FollowId,
  FollowPace,
  FollowPollResult,
  FollowSource,
} from '../../core/api/follow';
import { BrainError } from '../../core/errors';
import type { SessionId } from '../../core/ids';
import type { AgentKind } from '../../core/importers/types';
import type { TimerPort } from '../../core/retention/index';
import { IMPORT_BODY_CACHE_BYTES } from '../../storage/blobs/cache';
import { handleFollowedFolder, type FollowedFolderPort } from '../../storage/followed-folder/handle';
import { createFollowRepo, type FollowedFileRow } from '../../storage/sqlite/repos/follow-repo';
import { createImportsRepo } from '../../storage/sqlite/repos/imports-repo';
import { createSessionsRepo } from '../../storage/sqlite/repos/sessions-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import type { CheckpointStore } from '../checkpoints/feature';
import type { EngineContext } from '../context';
import type { EventLog } from '../events/log';
import { publishImported } from '../importers/publish';
import { createBackupLookup } from '../importers/tool-call-input';
import { globalTimers } from '../timers';
import { createToolCallDeps } from '../tool-calls/feature';
import { createToolCallReplay } from '../tool-calls/replay';
import { transcriptFormats } from '../../core/importers/registry';
import { changed, fileView, readFollowedFile, settleRestingFile, type LiveFile } from './read-file';

/** Bytes of appended lines one turn reads, all files together (a 1 GB backlog is read in many turns). */
export const TURN_BYTES = 4 * 1024 * 1024;
export const POLL_VISIBLE_MS = 2_000;
export const POLL_HIDDEN_MS = 10_000;
/** With an observer, a slow poll still runs (an observer may miss a change, e.g. on some file systems). */
export const POLL_OBSERVED_MS = 30_000;
/**
 * The default shortest time between two looks the observer starts: none, a look per reported change. Each look is
 * a transaction (a WAL commit and its sync); on the follow bench (a 1 GB session growing by 1 MiB/s in appends
 * every 250 ms, test/bench/README.md) a look per append costs the worker 4.8–5.3 % of a core (p95 latency
 * 34–53 ms), one a second at most 3.1–3.3 % (p95 0.8–0.9 s). The bench's runs often failed with QuotaExceededError
 * on the brain's OPFS writes, with the 1 s gap in 5 of 7 runs, without it in 1 of 4 (not explained; OPFS is the
 * bench's stand-in for a picked folder): until that is understood the default is 0; `observedGapMs` sets it.
 */
export const OBSERVED_MIN_GAP_MS = 0;

export interface FollowOptions {
  /** Look at followed folders by themselves (default true); tests turn it off and call pollFollowedFolder. */
  readonly autoPoll?: boolean;
  readonly timers?: TimerPort;
  /** The shortest time between two looks the observer starts (default OBSERVED_MIN_GAP_MS). */
  readonly observedGapMs?: number;
}

interface Followed {
  readonly id: FollowId;
  readonly port: FollowedFolderPort;
  readonly lives: Map<string, LiveFile>;
  stopObserving: (() => void) | null;
  timer: unknown;
  /** When the last look started (the timer port's clock), and whether a change was reported since. */
  lastLookAt: number;
  changed: boolean;
  /** The background job (one per folder, so the idle runner keeps one turn of it in flight). */
  readonly job: () => Promise<boolean>;
  stopped: boolean;
}

function isDirectoryHandle(value: unknown): value is FileSystemDirectoryHandle {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'directory' &&
    typeof (value as { entries?: unknown }).entries === 'function'
  );
}

export function createFollowFeature(
  ctx: EngineContext,
  log: EventLog,
  store: CheckpointStore,
  options: FollowOptions = {},
) {
  const repo = createFollowRepo(ctx.db);
  const imports = createImportsRepo(ctx.db);
  const sessions = createSessionsRepo(ctx.db);
  const tasks = createTasksRepo(ctx.db);
  const transcript = createTranscriptRepo(ctx.db);
  const timers = options.timers ?? globalTimers;
  const autoPoll = options.autoPoll ?? true;
  const followed = new Map<FollowId, Followed>();
  let visible = true;

  const writerDeps = () => ({
    ctx,
    log,
    replay: createToolCallReplay(ctx, createToolCallDeps(ctx, log, store)),
    imports,
    sessions,
    tasks,
    transcript,
    backups: createBackupLookup(new Map()),
  });

  const paceOf = (f: Followed | undefined): FollowPace =>
    f === undefined
      ? 'stopped'
      : f.stopObserving !== null
        ? 'observer'
        : visible
          ? 'polling'
          : 'polling-hidden';

  async function view(id: FollowId): Promise<FollowedFolder> {
    const row = await repo.folder(id);
    if (row === null) throw new BrainError('NotFound', `No followed folder ${id}.`);
    return {
      id: row.id,
      name: row.name,
      startedAt: row.startedAt,
      pace: paceOf(followed.get(id)),
      lastPollAt: row.lastPollAt,
      files: (await repo.files(id)).map((r) => fileView(r, followed.get(id)?.lives.get(r.path))),
      bytesRead: row.bytesRead,
    };
  }

  const deps = {
    writerDeps,
    transaction: <T>(fn: () => Promise<T>) => ctx.db.transaction(fn),
    saveRow: (r: FollowedFileRow) => repo.saveFile(r),
  };

  /**
   * One turn: every changed file read on, at most TURN_BYTES in all — with the body cache bounded as for an import
   * (a catch-up of a 1 GB backlog otherwise fills its 64 MiB with bodies it never reads back: the follow bench's
   * worker peaked at 275–307 MiB, over the 256 MiB an import keeps to; 231–239 MiB with it). The page cache is left
   * as it is: with it bounded per turn too, none of three bench runs finished (QuotaExceededError on the brain's
   * OPFS writes; without it some failed too: test/bench/README.md, "Following a growing session", not explained).
   */
  function turn(f: Followed): Promise<FollowPollResult> {
    f.lastLookAt = timers.now();
    f.changed = false;
    return store.withBodyCacheAtMost(IMPORT_BODY_CACHE_BYTES, () => readTurn(f));
  }

  async function readTurn(f: Followed): Promise<FollowPollResult> {
    const listed = await f.port.list();
    const rows = new Map((await repo.files(f.id)).map((r) => [r.path, r]));
    let budget = TURN_BYTES;
    let bytesRead = 0;
    let filesRead = 0;
    let compactions = 0;
    let more = false;
    const reread: string[] = [];
    const touched = new Map<SessionId, AgentKind>();
    for (const info of listed) {
      const row = rows.get(info.path);
      const live = f.lives.get(info.path);
      // Unchanged, and not left with lines to read by an earlier turn (a torn last line waits for a change) — nor
      // with calls that waited for their result at the last look while this tab has no parser for it (a reload):
      // those lines are read again from the resume point, once, so the view knows what still waits.
      const waitedUnseen =
        live === undefined &&
        row !== undefined &&
        row.resumeOffset < row.readOffset &&
        transcriptFormats.some((f) => f.id === row.format && f.shape === 'lines');
      if (!changed(info, row) && live?.more !== true && !waitedUnseen) {
        const sessionId = (row?.sessionId ?? null) as SessionId | null;
        if (live !== undefined && (await settleRestingFile(deps, live, sessionId, info.path))) {
          touched.set(sessionId as SessionId, live.parser.meta().agent);
          await publishImported(ctx, log, [sessionId as SessionId], {
            steps: new Set(),
            checkpoints: new Set(),
          });
        }
        continue;
      }
      if (budget <= 0) {
        more = true;
        break;
      }
      let blob: Blob;
      try {
        blob = await f.port.file(info.path);
      } catch (error) {
        // Removed since the listing: the next look sees the folder as it is then.
        if (error instanceof BrainError && error.code === 'NotFound') continue;
        throw error;
      }
      const result = await readFollowedFile(deps, f.id, info, blob, row, f.lives, budget);
      budget -= result.bytesRead;
      bytesRead += result.bytesRead;
      if (result.bytesRead > 0) filesRead++;
      if (result.reread) reread.push(info.path);
      compactions += result.compactions;
      if (result.more) more = true;
      if (result.session !== null) {
        touched.set(result.session.sessionId, result.session.agent);
        await publishImported(ctx, log, [result.session.sessionId], {
          steps: new Set(),
          checkpoints: new Set(),
        });
      }
    }
    await repo.polled(f.id, ctx.clock.now(), bytesRead);
    return {
      id: f.id,
      bytesRead,
      filesRead,
      reread,
      sessions: [...touched].map(([sessionId, agent]) => ({ sessionId, agent })),
      compactions,
      more,
    };
  }

  function schedule(f: Followed, ms: number) {
    if (!autoPoll || f.stopped) return;
    if (f.timer !== undefined) timers.clear(f.timer);
    f.timer = timers.set(() => {
      f.timer = undefined;
      if (f.stopped) return;
      if (ctx.whenIdle) ctx.whenIdle(f.job, 0);
    }, ms);
  }

  const interval = (f: Followed) =>
    f.stopObserving !== null ? POLL_OBSERVED_MS : visible ? POLL_VISIBLE_MS : POLL_HIDDEN_MS;
  /** A reported change is looked at once `minGap` ms have passed since the last look started. */
  const minGap = options.observedGapMs ?? OBSERVED_MIN_GAP_MS;
  const gap = (f: Followed) => Math.max(0, f.lastLookAt + minGap - timers.now());

  function stop(f: Followed) {
    f.stopped = true;
    if (f.timer !== undefined) timers.clear(f.timer);
    f.stopObserving?.();
    followed.delete(f.id);
  }

  async function followFolder(source: FollowSource): Promise<FollowedFolder> {
    const handle = (source as { handle?: unknown } | null)?.handle;
    if (!isDirectoryHandle(handle))
      throw new BrainError(
        'InvalidArgument',
        'followFolder takes { handle } — a folder handle the person picked.',
      );
    const port = handleFollowedFolder(handle);
    // A folder the browser does not let this tab read is refused now, not at the first look.
    await port.list();
    let id: FollowId;
    if (source.id !== undefined) {
      if (!Number.isSafeInteger(source.id) || (await repo.folder(source.id)) === null)
        throw new BrainError('NotFound', `No followed folder ${String(source.id)} to follow again.`);
      id = source.id;
    } else id = await repo.addFolder(port.name, ctx.clock.now());
    const earlier = followed.get(id);
    if (earlier) stop(earlier);
    const f: Followed = {
      id,
      port,
      lives: new Map(),
      stopObserving: null,
      timer: undefined,
      lastLookAt: -Infinity,
      changed: false,
      stopped: false,
      job: async () => {
        if (f.stopped) return false;
        try {
          const result = await turn(f);
          ctx.emit({ topic: 'follow' });
          if (result.more) return true;
        } catch {
          // A folder that can no longer be read (permission gone, removed) is looked at again at the next tick;
          // pollFollowedFolder reports the error itself.
        }
        // A change reported while this look ran (its listing may have missed it) gets a look of its own.
        schedule(f, f.changed ? gap(f) : interval(f));
        return false;
      },
    };
    followed.set(id, f);
    if (autoPoll) {
      f.stopObserving = await port.observe(() => {
        f.changed = true;
        schedule(f, gap(f));
      });
      schedule(f, 0);
    }
    ctx.emit({ topic: 'follow' });
    return view(id);
  }

  return {
    followFolder: (source) => followFolder(source),
    async unfollowFolder(id) {
      const f = followed.get(id);
      if (f) stop(f);
      if ((await repo.folder(id)) === null) throw new BrainError('NotFound', `No followed folder ${id}.`);
      await repo.removeFolder(id);
      ctx.emit({ topic: 'follow' });
    },
    async listFollowedFolders() {
      // One after the other: statements on the one connection never overlap (a cached statement is reused).
      const out: FollowedFolder[] = [];
      for (const row of await repo.folders()) out.push(await view(row.id));
      return out;
    },
    async pollFollowedFolder(id) {
      const f = followed.get(id);
      if (f === undefined) {
        if ((await repo.folder(id)) === null) throw new BrainError('NotFound', `No followed folder ${id}.`);
        throw new BrainError(
          'InvalidArgument',
          `The folder ${id} is not followed in this tab: follow it again with its handle (followFolder({ handle, id })).`,
        );
      }
      const result = await turn(f);
      ctx.emit({ topic: 'follow' });
      return result;
    },
    async setFollowVisibility(isVisible) {
      if (typeof isVisible !== 'boolean')
        throw new BrainError('InvalidArgument', 'setFollowVisibility takes true or false.');
      if (visible === isVisible) return;
      visible = isVisible;
      for (const f of followed.values())
        if (f.stopObserving === null) schedule(f, isVisible ? 0 : POLL_HIDDEN_MS);
    },
  } satisfies FollowApi;
}
