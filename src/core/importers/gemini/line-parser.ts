/**
 * Gemini CLI `.jsonl` chats (`~/.gemini/tmp/<project_hash>/chats/session-<time>-<id8>.jsonl`), read as the CLI
 * reads them (chatRecordingService.ts `loadConversationRecord`): a metadata line (`sessionId`, `projectHash`,
 * …), message records (a string `id`), `{$set: {...}}` metadata updates, `{$rewindTo: id}` (that message and
 * later ones dropped). A `$set` with `messages` rewrites the history: new messages in it are read, and messages
 * it no longer holds were dropped — by a compression (the new history starts with a `<state_snapshot>` summary)
 * or a rollback (a cut tail).
 */
import type { LineParser, TranscriptItem, TranscriptMeta } from '../types';
import { createMessageState, messageItems, partsText, toolCallItem, type MessageState } from './records';
import {
  createTally,
  isRecord,
  jsonError,
  leafText,
  strField,
  timeOf,
  withSourceIds,
  type Tally,
} from '../tally';

export interface GeminiThreadOption {
  /** The thread's id: the subagent chat's `sessionId` (its file `chats/<parent>/<sessionId>.jsonl`). */
  readonly id: string;
  readonly title?: string;
  /** The parent's tool call that ran the subagent (its `agentId` is this chat's session), when known. */
  readonly parentCallId?: string | null;
}

export interface GeminiParserOptions {
  /** Read a subagent's chat as a thread of its parent session: a `thread` item opens it, every item is in it. */
  readonly thread?: GeminiThreadOption;
  /** The parent session (a subagent chat lives in `chats/<parentSessionId>/`). */
  readonly parentSessionId?: string;
}

export function createGeminiLineParser(options: GeminiParserOptions = {}): LineParser {
  const tally = createTally();
  const state = createMessageState();
  const meta: MutableMetaLike = {
    agent: 'gemini-cli',
    sessionId: null,
    title: null,
    cwd: null,
    startedAt: null,
    model: null,
    version: null,
    parentSessionId: options.parentSessionId ?? null,
  };
  const thread = options.thread;
  let opened = false;
  /** Items of a subagent chat belong to its thread, announced by a `thread` item before the first of them. */
  const place = (items: TranscriptItem[]): TranscriptItem[] => {
    if (thread === undefined || items.length === 0) return items;
    const out = items.map((item) => ({ ...item, thread: thread.id }));
    if (opened) return out;
    opened = true;
    const first = items[0] as TranscriptItem;
    const title = thread.title ?? 'Gemini CLI subagent';
    return [
      {
        kind: 'thread',
        at: first.at,
        line: first.line,
        thread: null,
        sourceId: `thread:${thread.id}`,
        id: thread.id,
        title,
        parentCallId: thread.parentCallId ?? null,
      },
      ...out,
    ];
  };
  let lastLine = 0;
  let lastFailed = -1;
  return {
    push(line, lineNo) {
      lastLine = lineNo;
      if (line.trim() === '') return [];
      tally.records++;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch (error) {
        tally.malformed++;
        lastFailed = lineNo;
        tally.problem(lineNo, `not valid JSON: ${jsonError(error)}`);
        return [];
      }
      if (!isRecord(record)) {
        tally.malformed++;
        tally.problem(lineNo, 'not a JSON object');
        return [];
      }
      return place(withSourceIds(recordItems(record, lineNo, state, meta, tally)));
    },
    finish(options) {
      if (options?.torn && lastFailed === lastLine && lastLine > 0) {
        tally.tornLastLine = true;
        // Not a problem: the file was still being written (or its writer died); all before it is whole.
        tally.malformed--;
        tally.problems.pop();
      }
      const out: TranscriptItem[] = [];
      for (const { record, line } of state.pending.values()) out.push(toolCallItem(record, line, false));
      state.pending.clear();
      return place(out);
    },
    meta: () => ({ ...meta, model: meta.model ?? state.model }),
    stats: () => tally.stats(),
    problems: () => tally.problems,
  };
}

/** One parsed line (or one legacy document's parts) → items, updating the metadata. */
export function recordItems(
  record: Record<string, unknown>,
  line: number,
  state: MessageState,
  meta: MutableMetaLike,
  tally: Tally,
): TranscriptItem[] {
  if (typeof record['$rewindTo'] === 'string') return rewind(record['$rewindTo'], line, state);
  if (typeof record['id'] === 'string') return messageItems(record, line, state, tally);
  if (isRecord(record['$set'])) {
    const set = record['$set'];
    applyMetadata(set, meta);
    return Array.isArray(set['messages']) ? rewriteHistory(set['messages'], line, state, tally) : [];
  }
  if (typeof record['sessionId'] === 'string' && typeof record['projectHash'] === 'string') {
    applyMetadata(record, meta);
    const messages = Array.isArray(record['messages']) ? record['messages'] : [];
    const out: TranscriptItem[] = [];
    for (const msg of messages)
      if (isRecord(msg) && typeof msg['id'] === 'string') out.push(...messageItems(msg, line, state, tally));
    return out;
  }
  const type = Object.keys(record)[0] ?? '(empty)';
  tally.unknownType(type);
  return [
    {
      kind: 'other',
      at: null,
      line,
      thread: null,
      sourceId: null,
      recordType: type,
      text: leafText(record),
    },
  ];
}

export type MutableMetaLike = { -readonly [K in keyof TranscriptMeta]: TranscriptMeta[K] };

function applyMetadata(set: Record<string, unknown>, meta: MutableMetaLike): void {
  const sessionId = strField(set, 'sessionId');
  if (sessionId) meta.sessionId ??= sessionId;
  const summary = strField(set, 'summary');
  if (summary) meta.title = summary;
  meta.startedAt ??= timeOf(set['startTime']);
  const directories = set['directories'];
  if (Array.isArray(directories) && typeof directories[0] === 'string') meta.cwd ??= directories[0];
}

function rewind(toId: string, line: number, state: MessageState): TranscriptItem[] {
  const at = state.live.indexOf(toId);
  state.live.splice(at < 0 ? 0 : at);
  return [
    { kind: 'rewind', at: null, line, thread: null, sourceId: null, toSourceId: toId, inclusive: true },
  ];
}

/** `$set: {messages}`: the history replaced whole (after a compression, a rollback, or on resume). */
function rewriteHistory(
  messages: unknown[],
  line: number,
  state: MessageState,
  tally: Tally,
): TranscriptItem[] {
  const kept = new Set<string>();
  for (const msg of messages) if (isRecord(msg) && typeof msg['id'] === 'string') kept.add(msg['id']);
  const dropped = state.live.filter((id) => !kept.has(id));
  const out: TranscriptItem[] = [];
  let snapshot: string | null = null;
  const fresh: Record<string, unknown>[] = [];
  let afterSnapshot = false;
  for (const msg of messages) {
    if (!isRecord(msg) || typeof msg['id'] !== 'string') continue;
    const unseen = !state.seen.has(msg['id']);
    const text = msg['type'] === 'user' && unseen ? partsText(msg['content']) : '';
    if (snapshot === null && text.includes('<state_snapshot>')) {
      snapshot = text;
      state.seen.set(msg['id'], { text: true, thoughts: 0 });
      afterSnapshot = true;
      continue;
    }
    // The model's acknowledgement the compression writes after its snapshot ("Got it. Thanks for the additional
    // context!") is part of the compaction, not a reply to the person.
    if (afterSnapshot && unseen && msg['type'] === 'gemini')
      state.seen.set(msg['id'], { text: true, thoughts: 0 });
    else fresh.push(msg);
    afterSnapshot = false;
  }
  if (dropped.length > 0 || snapshot !== null) {
    const first = dropped[0] ?? '';
    const suffix = state.live.slice(state.live.length - dropped.length).every((id, k) => id === dropped[k]);
    if (snapshot !== null || !suffix || dropped.length === 0) {
      out.push({
        kind: 'compaction',
        at: null,
        line,
        thread: null,
        sourceId: null,
        summary: snapshot,
        trigger: snapshot === null ? 'history-rewrite' : 'compression',
        before: dropped.length,
      });
    } else
      out.push({
        kind: 'rewind',
        at: null,
        line,
        thread: null,
        sourceId: null,
        toSourceId: first,
        inclusive: true,
      });
  }
  state.live.length = 0;
  for (const id of kept) if (state.seen.has(id)) state.live.push(id);
  for (const msg of fresh) out.push(...messageItems(msg, line, state, tally));
  return out;
}
