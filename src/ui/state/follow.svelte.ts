/**
 * Following running agents (issue 30): the folders followed (their files, how far each was read, how the brain
 * learns of changes), the live card of each folder's latest session — its resume point, checks, changed files,
 * latest tool calls, and after a compaction what the agent's own summary left out — refreshed on the engine's
 * change notices. Followed folders' handles are remembered in this browser; after a reload each is handed back to
 * the brain (or, when the browser wants a click first, offered as "Allow access").
 */
import {
  forgetFollowFolder,
  isBrainError,
  leftOutOfSummary,
  pickFollowFolder,
  rememberedFollowFolders,
  rememberFollowFolder,
  requestFollowAccess,
  type BrainChange,
  type FollowedFolder,
  type FollowId,
  type LeftOut,
  type ResumePoint,
  type SessionId,
  type Step,
  type Summary,
} from '../../lib/index';
import type { BrainState } from './brain.svelte';
import { HistoryImportState } from './history-import.svelte';
import { ViewState } from './view-state.svelte';

/** What the live card of a followed session shows. */
export interface LiveSession {
  readonly folderId: FollowId;
  readonly sessionId: SessionId;
  readonly title: string;
  readonly resume: ResumePoint;
  /** The latest tool calls of the session's current task, newest first. */
  readonly steps: readonly Step[];
  /** The agent's latest compaction summary, and what it left out that the brain holds. */
  readonly compaction: { readonly summary: Summary; readonly leftOut: readonly LeftOut[] } | null;
}

const STEPS_SHOWN = 8;

export class FollowState extends ViewState {
  folders = $state.raw<readonly FollowedFolder[]>([]);
  /** Remembered folders the browser wants a click for before the page may read them again. */
  waiting = $state.raw<readonly { readonly id: FollowId; readonly handle: FileSystemDirectoryHandle }[]>([]);
  /** The live card of each followed folder that has a session (by `folderId`). */
  live = $state.raw<readonly LiveSession[]>([]);
  busy = $state(false);
  /** Followed folders whose session's handoff is written into its project after each compaction (opt-in). */
  autoHandoff = $state.raw<readonly FollowId[]>(readAutoHandoff());
  /** What the last automatic handoff did, per folder (written where, or why not). */
  handoffNotes = $state.raw<Readonly<Record<number, string>>>({});
  /** The resume point's handoff and its pointer line, as the history import writes them. */
  readonly history: HistoryImportState;
  #resumed = false;
  /** The compaction summary each folder's handoff was last written for. */
  readonly #handedOff: Record<number, number> = {};

  constructor(source: BrainState) {
    // Change notices of a working agent come in bursts: one fetch for each burst.
    super(source, 150);
    this.history = new HistoryImportState(() => source);
  }

  setAutoHandoff(id: FollowId, on: boolean): void {
    const others = this.autoHandoff.filter((x) => x !== id);
    this.autoHandoff = on ? [...others, id] : others;
    globalThis.localStorage?.setItem(autoHandoffKey, JSON.stringify(this.autoHandoff));
    if (on) this.refresh();
  }

  /** After a new compaction of a folder with the handoff on: `.agent/SESSION_SUMMARY.md` written into its project. */
  async #handOff(live: LiveSession): Promise<void> {
    const summaryId = live.compaction?.summary.id;
    if (summaryId === undefined || !this.autoHandoff.includes(live.folderId)) return;
    if (this.#handedOff[live.folderId] === summaryId) return;
    this.#handedOff[live.folderId] = summaryId;
    const brain = this.source.brain;
    if (!brain) return;
    let note: string;
    try {
      const open = await brain.projectInfo();
      note = open
        ? await this.history.writeHandoff(live.sessionId, false, open.name)
        : "Not written: open this session's project folder to keep its handoff there.";
    } catch (error) {
      note = error instanceof Error ? error.message : String(error);
    }
    this.handoffNotes = { ...this.handoffNotes, [live.folderId]: note };
  }

  get supported(): boolean {
    return (
      typeof window !== 'undefined' &&
      typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function'
    );
  }

  protected override wants(change: BrainChange): boolean {
    return change.topic !== 'sizes';
  }

  /**
   * Once the brain is open (whatever view shows): each remembered folder handed back to the brain (or offered for
   * a click), and the page's visibility passed on (a hidden page is polled less often).
   */
  async resume(): Promise<void> {
    const brain = this.source.brain;
    if (!brain || this.#resumed) return;
    this.#resumed = true;
    if (typeof document !== 'undefined')
      document.addEventListener('visibilitychange', () => {
        void this.source.brain
          ?.setFollowVisibility(document.visibilityState === 'visible')
          .catch(() => undefined);
      });
    try {
      const known = (await brain.listFollowedFolders()).map((f) => f.id);
      const waiting: { id: FollowId; handle: FileSystemDirectoryHandle }[] = [];
      for (const r of await rememberedFollowFolders()) {
        if (!known.includes(r.id)) {
          await forgetFollowFolder(r.id);
          continue;
        }
        if (r.permission === 'granted') await brain.followFolder({ handle: r.handle, id: r.id });
        else waiting.push({ id: r.id, handle: r.handle });
      }
      this.waiting = waiting;
    } catch (error) {
      this.error = this.source.fail(error);
    }
    this.refresh();
  }

  /** "Follow a folder…": the picker, then the brain follows it (call from a click). */
  async pick(): Promise<void> {
    this.error = null;
    try {
      const handle = await pickFollowFolder();
      if (handle) await this.followHandle(handle);
    } catch (error) {
      this.error = isBrainError(error) ? error.message : String(error);
    }
  }

  async followHandle(handle: FileSystemDirectoryHandle, id?: FollowId): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    this.busy = true;
    try {
      const followed = await brain.followFolder(id === undefined ? { handle } : { handle, id });
      await rememberFollowFolder(followed.id, handle);
      this.waiting = this.waiting.filter((w) => w.id !== followed.id);
    } finally {
      this.busy = false;
      this.refresh();
    }
  }

  async allow(id: FollowId): Promise<void> {
    const entry = this.waiting.find((w) => w.id === id);
    if (!entry) return;
    this.error = null;
    try {
      if (await requestFollowAccess(entry.handle)) await this.followHandle(entry.handle, id);
      else this.error = 'The browser did not allow reading that folder.';
    } catch (error) {
      this.error = isBrainError(error) ? error.message : String(error);
    }
  }

  async unfollow(id: FollowId): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    await brain.unfollowFolder(id);
    await forgetFollowFolder(id);
    this.waiting = this.waiting.filter((w) => w.id !== id);
    this.refresh();
  }

  protected async load(): Promise<void> {
    const brain = this.source.brain;
    if (!brain) return;
    const folders = await brain.listFollowedFolders();
    const live: LiveSession[] = [];
    for (const folder of folders) {
      // The folder's session whose file changed last.
      const latest = [...folder.files]
        .filter((f) => f.sessionId !== null)
        .sort((a, b) => b.modified - a.modified)[0];
      if (!latest || latest.sessionId === null) continue;
      const sessionId = latest.sessionId;
      const [session, resume, summaries] = await Promise.all([
        brain.getSession(sessionId),
        brain.resumePoint(sessionId),
        brain.listSummaries(sessionId),
      ]);
      // Only the latest few: a long session's task holds thousands of steps.
      const steps = resume.task
        ? (await brain.listSteps(resume.task.id, { last: STEPS_SHOWN })).reverse()
        : [];
      const agentSummary = [...summaries].reverse().find((s) => s.kind === 'agent-compaction') ?? null;
      live.push({
        folderId: folder.id,
        sessionId,
        title: session.title,
        resume,
        steps,
        compaction: agentSummary
          ? {
              summary: agentSummary,
              leftOut: leftOutOfSummary(agentSummary.content, resume.checkpoint, agentSummary.createdAt),
            }
          : null,
      });
    }
    this.folders = folders;
    this.live = live;
    for (const l of live) await this.#handOff(l);
  }
}

const autoHandoffKey = 'agent-brain:follow-handoff';

function readAutoHandoff(): FollowId[] {
  try {
    const value: unknown = JSON.parse(globalThis.localStorage?.getItem(autoHandoffKey) ?? '[]');
    return Array.isArray(value) ? value.filter((x): x is number => typeof x === 'number') : [];
  } catch {
    return [];
  }
}
