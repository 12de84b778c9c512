/**
 * Following a running agent (issue 30): a folder of an agent's histories (`~/.claude/projects/<project>/`, a
 * `~/.codex/sessions/YYYY/MM/DD/` folder, a Gemini CLI `chats/` folder) whose new and growing transcripts are
 * imported as they are written. Only the appended bytes are read: per file the brain keeps the byte offset after
 * the last complete line and that line's hash; a file that shrank or whose kept line changed is read again whole
 * (items already imported are skipped, so that stays exact). A torn last line waits for its end. The engine never
 * writes into a followed folder.
 */
import type { AgentKind } from '../importers/types';
import type { SessionId } from '../ids';

/** The brain's number for a followed folder (kept with its files' offsets in agent.db). */
export type FollowId = number;

/** How the brain learns that a followed file grew. */
export type FollowPace =
  /** A `FileSystemObserver` reports changes (with a slow poll as a safety net). */
  | 'observer'
  /** Sizes and modification times polled every ~2 s while the page is visible. */
  | 'polling'
  /** Polled every ~10 s: the page is hidden. */
  | 'polling-hidden'
  /** Not polled: the folder is not open in this tab (reload: pick it again or allow access). */
  | 'stopped';

export interface FollowedFile {
  /** The file's path under the followed folder, `/`-separated. */
  readonly path: string;
  readonly format: string;
  /** Bytes read into the brain (the offset after the last complete line). */
  readonly offset: number;
  readonly size: number;
  /** The file's modification time when last looked at (epoch ms). */
  readonly modified: number;
  readonly sessionId: SessionId | null;
  /** Why the file is not read (a format the follower reads only whole and too large, unreadable…), else null. */
  readonly problem: string | null;
  /**
   * Calls the transcript has without their result yet, oldest first (only while this tab follows the folder): the
   * agent is running them — or stopped mid-call, when the file stopped changing long ago (`modified`). They are
   * not in the brain until their result comes.
   */
  readonly waiting: readonly FollowedCall[];
}

/** A call of a followed transcript still waiting for its result. */
export interface FollowedCall {
  readonly tool: string;
  /** The command line of a shell call, else the call's main text (a path, a pattern); null when it has none. */
  readonly what: string | null;
  /** When the agent made the call (epoch ms), null when the transcript does not say. */
  readonly since: number | null;
}

export interface FollowedFolder {
  readonly id: FollowId;
  /** The folder's name as picked. */
  readonly name: string;
  readonly startedAt: number;
  readonly pace: FollowPace;
  /** Time of the last look at the folder (epoch ms), null before the first. */
  readonly lastPollAt: number | null;
  readonly files: readonly FollowedFile[];
  /** Bytes read from the folder's files since it was followed (a rewritten file read again counts again). */
  readonly bytesRead: number;
}

/** What one look at a followed folder did. */
export interface FollowPollResult {
  readonly id: FollowId;
  /** Bytes read in this look, all files together: the appended bytes (a rewritten file: all of it). */
  readonly bytesRead: number;
  /** Files with new complete lines (or read again whole). */
  readonly filesRead: number;
  /** Files read again from their start (they shrank, or their kept last line changed). */
  readonly reread: readonly string[];
  /** Sessions that got new items (each once). */
  readonly sessions: readonly { readonly sessionId: SessionId; readonly agent: AgentKind }[];
  /** Compactions among the new items: the live view says what the agent's own summary left out. */
  readonly compactions: number;
  /** More appended bytes are waiting than one look reads (a large backlog is read in bounded turns). */
  readonly more: boolean;
}

/** The folder a person picked (Chromium: `showDirectoryPicker({ mode: 'read' })`), posted as its handle. */
export interface FollowSource {
  readonly handle: FileSystemDirectoryHandle;
  /** Follow again a folder followed before (after a reload): its offsets are kept, nothing is read twice. */
  readonly id?: FollowId;
}

export interface FollowApi {
  /**
   * Starts (or, with `id`, resumes) following a folder: reads what it holds now and then what is appended, in
   * bounded turns between other calls. Refuses a folder the browser does not let it read (`PermissionDenied`).
   */
  followFolder(source: FollowSource): Promise<FollowedFolder>;
  /** Stops following (its sessions stay; the kept offsets go, so following it again reads its files anew). */
  unfollowFolder(id: FollowId): Promise<void>;
  /** The folders followed now or before (a folder not open in this tab has pace `stopped`). */
  listFollowedFolders(): Promise<FollowedFolder[]>;
  /** Looks at a followed folder now (the timer does this by itself; for "refresh" and tests). */
  pollFollowedFolder(id: FollowId): Promise<FollowPollResult>;
  /** Whether the page is visible: hidden pages are polled less often. */
  setFollowVisibility(visible: boolean): Promise<void>;
}
