/**
 * The Claude Code parser's state, shared by its modules: what it must remember between lines, and nothing else
 * (calls waiting for a result, the uuids seen with their thread, each thread's tip, a compaction boundary waiting
 * for its summary, the backups already announced).
 */
import { newCounters, type ParseCounters } from '../tally';
import type { TranscriptItem } from '../types';

export interface ClaudeCodeThreadOption {
  /** The thread's id (e.g. `agent-<agentId>` from the subagent file's name). */
  readonly id: string;
  readonly title?: string;
  /** The main session's `Task`/`Agent` call that spawned it, when the engine knows. */
  readonly parentCallId?: string | null;
}

export interface ClaudeCodeParserOptions {
  /** Parse a `subagents/agent-*.jsonl` file: every item belongs to this thread. */
  readonly thread?: ClaudeCodeThreadOption;
}

export interface PendingCall {
  readonly tool: string;
  readonly input: unknown;
  readonly callId: string;
  readonly line: number;
  readonly at: number | null;
  readonly thread: string | null;
}

export interface PendingCompaction {
  readonly line: number;
  readonly at: number | null;
  readonly sourceId: string | null;
  readonly thread: string | null;
  readonly trigger: string | null;
  readonly before: number | null;
}

export interface MutableMeta {
  sessionId: string | null;
  cwd: string | null;
  startedAt: number | null;
  model: string | null;
  version: string | null;
  customTitle: string | null;
  aiTitle: string | null;
  /**
   * The `summary` records read, latest last (at most 64): `{summary, leafUuid}`. Claude Code also writes other
   * conversations' summaries into a session file (a resumed or cleared session's head lists its predecessors'):
   * one names this session only when its leaf is a record of this file.
   */
  summaries: { readonly text: string; readonly leaf: string | null }[];
}

export interface ParserState extends ParseCounters {
  readonly options: ClaudeCodeParserOptions;
  readonly meta: MutableMeta;
  /** uuid → the thread it belongs to ('' = main). */
  readonly seen: Map<string, string>;
  /** thread ('' = main) → the uuid of its last record. */
  readonly tips: Map<string, string>;
  /**
   * uuid → the line and flaw of a malformed record placed under it (no message object, content neither text nor
   * blocks): a valid record with the same uuid later is read in its place.
   */
  readonly broken: Map<string, { readonly line: number; readonly flaw: string }>;
  /** Threads already announced by a `thread` item. */
  readonly threads: Set<string>;
  readonly pending: Map<string, PendingCall>;
  /** A pending `Task`/`Agent` call's prompt → its call id: how a sidechain finds the call that spawned it. */
  readonly taskPrompts: Map<string, string>;
  compaction: PendingCompaction | null;
  readonly backups: Set<string>;
  /** Items of the line being read. */
  out: TranscriptItem[];
}

export function createState(options: ClaudeCodeParserOptions): ParserState {
  return {
    options,
    meta: {
      sessionId: null,
      cwd: null,
      startedAt: null,
      model: null,
      version: null,
      customTitle: null,
      aiTitle: null,
      summaries: [],
    },
    ...newCounters(),
    seen: new Map(),
    tips: new Map(),
    broken: new Map(),
    threads: new Set(),
    pending: new Map(),
    taskPrompts: new Map(),
    compaction: null,
    backups: new Set(),
    out: [],
  };
}

export function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
