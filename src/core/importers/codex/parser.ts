/**
 * The Codex CLI rollout parser (see ../README.md): each line a `{timestamp, type, payload}` RolloutLine,
 * dispatched by `type`; tool calls come out when their output arrives.
 */
import { countedStats, malformedLine, retractMalformed } from '../tally';
import type { LineParser, TranscriptMeta, TranscriptStats } from '../types';
import { flushCompaction, mergeCompaction, other, readEvent, readResponseItem } from './items';
import { asFields, isBlank, leafText, str, timeOf, type Fields } from './json';
import { count, createState, type CodexParserOptions, type ParserState } from './state';
import { callItem } from './tool-call';

/** Lines that belong to a compaction burst (they do not end it). */
function inBurst(type: string, payload: Fields | null): boolean {
  if (type === 'compacted' || type === 'turn_context') return true;
  const inner = str(payload, 'type');
  if (type === 'event_msg') return inner === 'context_compacted' || inner === 'token_count';
  return (
    type === 'response_item' &&
    (inner === 'compaction' || inner === 'compaction_summary' || inner === 'context_compaction')
  );
}

export function createCodexParser(options: CodexParserOptions = {}): LineParser {
  const s = createState(options);
  let lastFailed: number | null = null;
  let tornLastLine = false;
  return {
    push(line, lineNo) {
      lastFailed = null;
      if (isBlank(line)) return [];
      s.records++;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        lastFailed = lineNo;
        return malformedLine(s, lineNo, `Line ${lineNo} is not valid JSON (${(e as Error).message}).`);
      }
      const record = asFields(value);
      if (record === null) return malformedLine(s, lineNo, `Line ${lineNo} is JSON but not an object.`);
      s.out = [];
      s.lineItems = 0;
      readLine(s, record, lineNo);
      return s.out;
    },
    finish(opts) {
      if (opts?.torn === true && lastFailed !== null) {
        if (retractMalformed(s, lastFailed)) tornLastLine = true;
      }
      s.out = [];
      flushCompaction(s);
      for (const call of s.pending.values()) s.out.push(callItem(s, call, undefined));
      s.pending.clear();
      return s.out;
    },
    settled: () => s.pending.size === 0 && s.compaction === null,
    waitingCalls: () => [...s.pending.values()].map(({ tool, input, at }) => ({ tool, input, at })),
    meta: (): TranscriptMeta => ({ agent: 'codex', ...s.meta }),
    stats: (): TranscriptStats => countedStats(s, tornLastLine),
    problems: () => [...s.problems],
  };
}

function readLine(s: ParserState, record: Fields, line: number): void {
  const type = str(record, 'type') ?? '(no type)';
  const payload = asFields(record['payload']);
  const p = { line, at: timeOf(record['timestamp']) };
  if (s.meta.startedAt === null) s.meta.startedAt = p.at;
  if (!inBurst(type, payload)) flushCompaction(s);
  if (type !== 'session_meta') announceThread(s, p);
  switch (type) {
    case 'session_meta':
      readSessionMeta(s, payload);
      return;
    case 'turn_context':
      s.meta.model ??= str(payload, 'model');
      s.meta.cwd ??= str(payload, 'cwd');
      count(s.skipped, 'turn_context');
      return;
    case 'compacted': {
      mergeCompaction(s, str(payload, 'message'), null, p);
      return;
    }
    case 'response_item':
      if (payload !== null) readResponseItem(s, payload, p);
      else malformedLine(s, line, `Line ${line} is a response_item without a payload.`);
      return;
    case 'event_msg':
      if (payload !== null) readEvent(s, payload, p);
      else malformedLine(s, line, `Line ${line} is an event_msg without a payload.`);
      return;
    default:
      if (readLegacy(s, type, record, p)) return;
      count(s.unknown, type);
      other(s, type, leafText(record), p);
  }
}

/** Response item types that early rollouts wrote as bare lines (no `payload` wrapper). */
const legacyItems = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

/**
 * The early rollout form (codex-rs before `RolloutLine`): a first line `{id, timestamp, instructions, git}`, then
 * each `ResponseItem` as a bare line, and `{"record_type": "state"}` snapshots.
 */
function readLegacy(
  s: ParserState,
  type: string,
  record: Fields,
  p: { line: number; at: number | null },
): boolean {
  if (record['payload'] === undefined && legacyItems.has(type)) {
    readResponseItem(s, record, p);
    return true;
  }
  if (type !== '(no type)') return false;
  if (typeof record['record_type'] === 'string') {
    count(s.skipped, `legacy:${record['record_type']}`);
    return true;
  }
  if (!s.sawMeta && typeof record['id'] === 'string' && typeof record['timestamp'] === 'string') {
    readSessionMeta(s, record);
    return true;
  }
  return false;
}

function announceThread(s: ParserState, p: { line: number; at: number | null }): void {
  const option = s.threadOption;
  if (option === null || s.announced) return;
  s.announced = true;
  s.out.push({
    kind: 'thread',
    at: p.at,
    line: p.line,
    thread: null,
    sourceId: `thread:${option.id}`,
    id: option.id,
    title: option.title ?? s.agentName ?? option.id,
    parentCallId: option.parentCallId ?? null,
  });
}

function readSessionMeta(s: ParserState, payload: Fields | null): void {
  if (s.sawMeta) {
    count(s.skipped, 'session_meta');
    return;
  }
  s.sawMeta = true;
  const m = s.meta;
  m.sessionId = str(payload, 'id');
  m.cwd = str(payload, 'cwd') ?? m.cwd;
  m.version = str(payload, 'cli_version');
  m.startedAt = timeOf(payload?.['timestamp']) ?? m.startedAt;
  const spawn = asFields(asFields(asFields(payload?.['source'])?.['subagent'])?.['thread_spawn']);
  m.parentSessionId = str(payload, 'forked_from_id') ?? str(spawn, 'parent_thread_id');
  const nickname = str(payload, 'agent_nickname') ?? str(spawn, 'agent_nickname');
  const role = str(payload, 'agent_role') ?? str(spawn, 'agent_role');
  s.agentName = nickname !== null && role !== null ? `${nickname} (${role})` : (nickname ?? role);
}
