/**
 * What every transcript parser produces: a stream of plain-data items in the order the agent lived them, and
 * what it learned about the session. Parsers are pure and streaming (lines or records in, items out); the engine
 * maps items to sessions, tasks, events and `recordToolCalls` (src/engine/importers). One parser per format, in
 * its own folder under src/core/importers/.
 */
import type { ToolCall } from '../tool-calls/types';

/** The agents whose files can be opened. */
export type AgentKind =
  'claude-code' | 'codex' | 'gemini-cli' | 'cline' | 'roo' | 'openhands' | 'swe-agent' | 'mini-swe-agent';

/** A body a transcript shows for a file around one tool call (null: the file did not exist). */
export type RunOutcome = 'submitted' | 'finished' | 'stopped';

export interface TranscriptFileBody {
  readonly path: string;
  readonly before?: string | null;
  readonly after?: string | null;
  /** A unified diff of this file's change, when the transcript gives a diff rather than (or beside) bodies. */
  readonly diff?: string;
  /** The file was moved (renamed) to this path by the change (Codex `Update{move_path}`). */
  readonly movedTo?: string;
}

interface ItemCommon {
  /** Epoch ms from the record, when it has a time. */
  readonly at: number | null;
  /** 1-based line (JSONL) or record index (JSON documents) where the item starts, for messages and dedupe. */
  readonly line: number;
  /**
   * The thread it belongs to: null for the main conversation, else a subagent's / sidechain's id, announced
   * first by a `thread` item. The engine makes each thread a child task of the main one, with a reference.
   */
  readonly thread: string | null;
  /** The format's own id of the record (Claude Code `uuid`, Codex `call_id`…): re-imports skip what they hold. */
  readonly sourceId: string | null;
}

export type TranscriptItem =
  /** The person's words: a prompt, feedback, an answer. Not tool results, not injected meta text. */
  | (ItemCommon & { readonly kind: 'instruction'; readonly text: string })
  /** The agent's own text to the person (its stated intentions live here); `reasoning`: thinking / summaries. */
  | (ItemCommon & { readonly kind: 'assistant'; readonly text: string; readonly reasoning: boolean })
  /** One tool call paired with its result (`output` absent when the transcript ends before it). */
  | (ItemCommon & {
      readonly kind: 'tool_call';
      readonly call: ToolCall;
      /** The format's call id (`tool_use.id`, `call_id`). */
      readonly callId: string | null;
      /** Bodies the transcript itself carries (Claude Code `originalFile`, Codex Add{content}…). */
      readonly files?: readonly TranscriptFileBody[];
    })
  /**
   * The run ended, as the format records it (runEndOf, run-end.ts): `submitted` / `finished` — the agent delivered
   * (mini-swe-agent's `exit` with `Submitted`, SWE-agent's submission, OpenHands' finish, Cline's
   * `attempt_completion`): its task is done; `stopped` — the harness ended it unfinished (a cost or step limit, an
   * error): the task stays open. A run cut mid-way has none.
   */
  | (ItemCommon & {
      readonly kind: 'run_end';
      readonly outcome: RunOutcome;
      /** What the file says of the end, e.g. `exit_status: Submitted`. */
      readonly text: string;
    })
  /** The agent's context was compacted: its own summary (if written down) and what triggered it. */
  | (ItemCommon & {
      readonly kind: 'compaction';
      readonly summary: string | null;
      readonly trigger: string | null;
      /** Tokens (or messages) before the compaction, when the record says. */
      readonly before: number | null;
    })
  /** A subagent / sidechain starts: later items with `thread: id` belong to it. */
  | (ItemCommon & {
      readonly kind: 'thread';
      readonly id: string;
      readonly title: string;
      /** The tool call that spawned it (Claude Code `Task`/`Agent`), when known. */
      readonly parentCallId: string | null;
    })
  /**
   * A checkpoint backup the agent kept (Claude Code `file-history-snapshot`: path → `<hash>@vN`); the engine reads
   * the body from the session's file-history folder when it was given.
   */
  | (ItemCommon & {
      readonly kind: 'file_backup';
      readonly path: string;
      readonly backupFileName: string | null;
      readonly version: number | null;
    })
  /** The conversation was rewound: items after `toSourceId` (inclusive when `inclusive`) are abandoned. */
  | (ItemCommon & { readonly kind: 'rewind'; readonly toSourceId: string; readonly inclusive: boolean })
  /** A record of a type the parser does not know (or knows and keeps only as text): counted, kept searchable. */
  | (ItemCommon & { readonly kind: 'other'; readonly recordType: string; readonly text: string });

export type TranscriptItemKind = TranscriptItem['kind'];

/** What a parser learned about the session (fields fill in as lines arrive; read it after `finish`). */
export interface TranscriptMeta {
  readonly agent: AgentKind;
  /** The agent's id of the session (Claude Code `sessionId`, Codex `session_meta.id`, a task folder name). */
  readonly sessionId: string | null;
  readonly title: string | null;
  /** The working directory / project root the agent ran in: tool-call paths are resolved against it. */
  readonly cwd: string | null;
  readonly startedAt: number | null;
  readonly model: string | null;
  readonly version: string | null;
  /** A fork's or subagent's parent session, when the format says. */
  readonly parentSessionId: string | null;
  /**
   * The files the agent's own tracker lists for the session, when the format keeps such a list (Cline/Roo
   * `task_metadata.json` `files_in_context`): a ready record of what it read and edited.
   */
  readonly filesInContext?: readonly TranscriptFileInContext[];
}

/** One entry of an agent's own file tracker (Cline/Roo `FileMetadataEntry`); times are epoch ms. */
export interface TranscriptFileInContext {
  readonly path: string;
  /** `active` | `stale` (Cline), as written. */
  readonly state: string | null;
  /** How it entered the context: `read_tool`, `cline_edited` / `roo_edited`, `user_edited`, `file_mentioned`. */
  readonly source: string | null;
  readonly readAt: number | null;
  readonly editedAt: number | null;
  readonly userEditedAt: number | null;
}

/** A line or record that could not be read; the rest of the file is still imported. */
export interface TranscriptProblem {
  readonly line: number;
  readonly message: string;
  /** The file inside a folder format (Cline's ui_messages.json), when not the main one. */
  readonly file?: string;
}

export interface TranscriptStats {
  /** Lines / records read. */
  readonly records: number;
  /** Records skipped on purpose, by type (`progress`, `queue-operation`, `turn_context`…). */
  readonly skipped: Readonly<Record<string, number>>;
  /** Records of types the parser does not know, by type: each also came out as an `other` item. */
  readonly unknown: Readonly<Record<string, number>>;
  /** Lines that were not valid JSON (or not an object), each also in `problems`. */
  readonly malformed: number;
  /** Records dropped as duplicates of earlier ones (forks and resumes repeat a transcript's prefix). */
  readonly duplicates: number;
  /** A last line cut short (a transcript still being written, or a crash): reported, not an error. */
  readonly tornLastLine: boolean;
}

/** A call the transcript has, still without its result. */
export interface WaitingCall {
  readonly tool: string;
  readonly input: unknown;
  /** When the agent made the call (the record's time), null when the record has none. */
  readonly at: number | null;
}

/**
 * A streaming parser of a line format (JSONL). `push` one line at a time (without its newline) and get the
 * items it completes — a tool call comes out when its result arrives, so items are in the order of results;
 * `finish` flushes what is still pending (calls with no result). Bounded memory: pending calls and the dedupe
 * set only. Never throws on input: a bad line is a problem, and parsing goes on.
 */
export interface LineParser {
  /**
   * Offered each line's UTF-8 bytes (without its newline) before it is decoded: true when the parser took the
   * line from them — a record it skips unread, never decoded then — else false, and the line comes to `push`.
   */
  skipBytes?(bytes: Uint8Array, lineNo: number): boolean;
  push(line: string, lineNo: number): TranscriptItem[];
  /** `torn`: the file did not end with a newline (its last pushed line may be cut short). */
  finish(options?: { readonly torn?: boolean }): TranscriptItem[];
  /**
   * True when nothing read so far waits for a later line (no call without its result, no compaction without its
   * summary): a fresh parser started at the next line reads the rest as this one would, except for what only the
   * earlier records tell (duplicates of them, rewinds to them). A follower resumes there after a reload. Absent:
   * the format has no such point, and a resumed follower reads the file again from its start.
   */
  settled?(): boolean;
  /**
   * The calls read so far whose result has not come yet, oldest first: the agent is running them — or it stopped
   * mid-call, and no result will ever come (a follower shows them; `finish` writes them without a result).
   */
  waitingCalls?(): readonly WaitingCall[];
  meta(): TranscriptMeta;
  stats(): TranscriptStats;
  problems(): readonly TranscriptProblem[];
}

/** Everything a parse gave, for document formats (one JSON per file or a folder of them). */
export interface ParsedTranscript {
  readonly meta: TranscriptMeta;
  readonly items: readonly TranscriptItem[];
  readonly stats: TranscriptStats;
  readonly problems: readonly TranscriptProblem[];
}

/**
 * How sure a format is that a file is its own, from its name and its first bytes (≤ 64 KiB, maybe cut
 * mid-line): 0 = not mine, 1 = could be, 2 = surely (a record shape only this format writes).
 */
export type Sniff = (name: string, head: string) => 0 | 1 | 2;
