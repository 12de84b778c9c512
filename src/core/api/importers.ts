/**
 * Opening other agents' histories: Claude Code, Codex CLI, Gemini CLI, Cline/Roo, OpenHands and SWE-agent
 * transcripts imported as sessions (src/engine/importers; the parsers in src/core/importers). Plain data: a file's
 * bytes cross as a Uint8Array or as a Blob/File (read in chunks in the worker, never whole).
 */
import type { AgentKind, TranscriptProblem, TranscriptStats } from '../importers/types';
import type { SessionId, TaskId } from '../ids';

export type { AgentKind, TranscriptProblem, TranscriptStats } from '../importers/types';

export interface TranscriptFileInput {
  /**
   * The file's path as picked or dropped, `/`-separated, relative to the folder given (`<session>.jsonl`,
   * `<session>/subagents/agent-<id>.jsonl`, `file-history/<session>/<hash>@v2`, `<task>/ui_messages.json`).
   */
  readonly name: string;
  /** A File or Blob is read in chunks in the worker (a 1 GB transcript is never held whole). */
  readonly data: Uint8Array | Blob;
}

export interface ImportTranscriptInput {
  readonly files: readonly TranscriptFileInput[];
}

export interface ImportProgress {
  readonly phase: 'reading' | 'done';
  /** The transcript being read. */
  readonly file: string;
  /** Bytes read of all transcripts, and their total. */
  readonly bytesDone: number;
  readonly bytesTotal: number;
  /** What was recorded so far (in the transaction, not yet committed). */
  readonly sessions: number;
  readonly instructions: number;
  readonly toolCalls: number;
}

/** Return `'cancel'` (or a Promise of it) to stop the import: then nothing of it is kept. */
export type ImportProgressListener = (progress: ImportProgress) => void | 'cancel' | Promise<void | 'cancel'>;

/** What one agent session added. */
export interface ImportedCounts {
  readonly instructions: number;
  readonly toolCalls: number;
  readonly fileChanges: number;
  readonly checks: number;
  readonly compactions: number;
  readonly threads: number;
  /** Records of other kinds (and unknown types) kept as searchable notes. */
  readonly others: number;
  /** Assistant texts recorded (as the next call's intention, or a note). */
  readonly assistantTexts: number;
  /** The task messages written: the person's instructions and the agent's replies (not its reasoning). */
  readonly messages: number;
  /** file-history backups used as checkpoint bodies. */
  readonly backups: number;
}

export interface ImportedSession {
  readonly sessionId: SessionId;
  /** The main task; a thread (subagent, sidechain) is a child task of it. */
  readonly taskId: TaskId;
  readonly agent: AgentKind;
  /** The agent's own id of the session (else the file's name). */
  readonly sourceSessionId: string;
  readonly title: string;
  /** The transcript files read for it, and their format ids. */
  readonly files: readonly string[];
  readonly format: string;
  /** false: the session was imported before and this added only what was new. */
  readonly created: boolean;
  readonly added: ImportedCounts;
  /** Items already imported earlier, skipped. */
  readonly alreadyImported: number;
  readonly stats: TranscriptStats;
  /** Lines or records that could not be read (by line number); the rest was imported. */
  readonly problems: readonly TranscriptProblem[];
}

export interface ImportTranscriptResult {
  readonly sessions: readonly ImportedSession[];
  /**
   * Files not imported, beside those that were: no format claims them, or not one record could be read (the
   * reason names the first bad line). When nothing at all could be imported the call rejects instead.
   */
  readonly refused: readonly { readonly file: string; readonly reason: string }[];
}

/** An imported session as listed: which agent it came from. */
export interface ImportedSessionInfo {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  readonly agent: AgentKind;
  readonly sourceSessionId: string;
  readonly format: string;
  readonly fileName: string;
  readonly items: number;
  readonly importedAt: number;
}

export interface ImportersApi {
  /**
   * Imports the transcripts among `files` (format detected from each file's content), one session per agent
   * session, all in one transaction: a cancel (`onProgress` returning 'cancel': `Cancelled`) or a failure leaves
   * nothing. A second import of the same files adds nothing; a longer version adds only what is new. Rejects with
   * `UnknownFormat` (naming the known formats) when no file is a transcript it knows, `MalformedLine` (naming the
   * line) when no record of any could be read, `TooLarge` for a document format past its bound (256 MiB).
   */
  importTranscript(
    input: ImportTranscriptInput,
    onProgress?: ImportProgressListener,
  ): Promise<ImportTranscriptResult>;
  /** The imported sessions, newest first. */
  listImportedSessions(): Promise<ImportedSessionInfo[]>;
}
