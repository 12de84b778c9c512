/**
 * The Codex parser's state, shared by its modules: calls waiting for their output, the compaction being merged,
 * the mirror queues that keep a message written twice (response item and event) from counting twice, and the
 * recent instructions a rollback can point at.
 */
import { newCounters, type ParseCounters } from '../tally';
import type { TranscriptFileBody, TranscriptItem } from '../types';

export interface CodexThreadOption {
  /** The thread's id (e.g. the subagent rollout's `session_meta.id`). */
  readonly id: string;
  /** Default: the rollout's `agent_nickname` / `agent_role`. */
  readonly title?: string;
  /** The parent session's `spawn_agent` call, when the engine knows it. */
  readonly parentCallId?: string | null;
}

export interface CodexParserOptions {
  /** Read a subagent's rollout as a child of its parent session: a `thread` item opens it, every item is in it. */
  readonly thread?: CodexThreadOption;
}

export interface PendingCall {
  readonly tool: string;
  readonly input: unknown;
  readonly callId: string;
  readonly line: number;
  readonly at: number | null;
  exitCode?: number;
  files?: TranscriptFileBody[];
  patch?: unknown;
  patchError?: string;
}

export interface PendingCompaction {
  readonly line: number;
  readonly at: number | null;
  summary: string | null;
  trigger: string | null;
}

export interface MutableMeta {
  sessionId: string | null;
  title: string | null;
  cwd: string | null;
  startedAt: number | null;
  model: string | null;
  version: string | null;
  parentSessionId: string | null;
}

export interface ParserState extends ParseCounters {
  readonly thread: string | null;
  readonly threadOption: CodexThreadOption | null;
  /** The `thread` item was given out. */
  announced: boolean;
  /** `agent_nickname` / `agent_role` from `session_meta`, the default thread title. */
  agentName: string | null;
  readonly meta: MutableMeta;
  sawMeta: boolean;
  readonly pending: Map<string, PendingCall>;
  compaction: PendingCompaction | null;
  /** Texts seen from one side (`item` = response_item, `event` = event_msg) not yet matched by the other. */
  readonly mirrors: Record<string, { item: string[]; event: string[] }>;
  /** Source ids of the latest instructions, newest last (bounded). */
  readonly instructions: string[];
  out: TranscriptItem[];
  /** Items already made from the current line, for `#k` source ids. */
  lineItems: number;
}

export function createState(options: CodexParserOptions): ParserState {
  return {
    thread: options.thread?.id ?? null,
    threadOption: options.thread ?? null,
    announced: false,
    agentName: null,
    meta: {
      sessionId: null,
      title: null,
      cwd: null,
      startedAt: null,
      model: null,
      version: null,
      parentSessionId: null,
    },
    sawMeta: false,
    ...newCounters(),
    pending: new Map(),
    compaction: null,
    mirrors: {},
    instructions: [],
    out: [],
    lineItems: 0,
  };
}

export function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/** A source id for the next item of line `line`: `L12`, then `L12#1`, `L12#2`… */
export function lineId(s: ParserState, line: number): string {
  const k = s.lineItems++;
  return k === 0 ? `L${line}` : `L${line}#${k}`;
}
