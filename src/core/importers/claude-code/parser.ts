/**
 * The Claude Code session parser (see ../README.md): one line at a time, progress records skipped before any
 * parse, every other record parsed once and dispatched by `type`.
 */
import { countedStats, malformedLine, retractMalformed } from '../tally';
import type { LineParser, TranscriptMeta, TranscriptStats } from '../types';
import { placeRecord, reportBroken } from './dag';
import { asFields, str, timeOf, type Fields } from './json';
import { flushPending, readAssistant, readUser } from './messages';
import {
  flushCompaction,
  metaTypes,
  readAttachment,
  readMetaRecord,
  readSnapshot,
  readSystem,
  readUnknown,
} from './records';
import { cheapSkipType, cheapSkipTypeOfBytes, endsLikeObject, isBlank } from './scan';
import { count, createState, type ClaudeCodeParserOptions, type ParserState } from './state';

export function createClaudeCodeParser(options: ClaudeCodeParserOptions = {}): LineParser {
  const s = createState(options);
  let lastFailed: number | null = null;
  let tornLastLine = false;
  const skipUnread = (type: string, line: string | Uint8Array, lineNo: number) => {
    count(s.skipped, type);
    // Skipped unread: a torn last line of this type is still told by its missing closing brace.
    if (!endsLikeObject(line)) lastFailed = lineNo;
  };
  return {
    skipBytes(bytes, lineNo) {
      const skip = cheapSkipTypeOfBytes(bytes);
      if (skip === null) return false;
      lastFailed = null;
      s.records++;
      skipUnread(skip, bytes, lineNo);
      return true;
    },
    push(line, lineNo) {
      lastFailed = null;
      if (isBlank(line)) return [];
      s.records++;
      const skip = cheapSkipType(line);
      if (skip !== null) {
        skipUnread(skip, line, lineNo);
        return [];
      }
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
      readRecord(s, record, lineNo);
      return s.out;
    },
    finish(opts) {
      if (opts?.torn === true && lastFailed !== null) {
        tornLastLine = true;
        retractMalformed(s, lastFailed);
      }
      s.out = [];
      flushCompaction(s, null, null);
      flushPending(s);
      reportBroken(s);
      return s.out;
    },
    settled: () => s.pending.size === 0 && s.compaction === null,
    waitingCalls: () => [...s.pending.values()].map(({ tool, input, at }) => ({ tool, input, at })),
    meta: () => metaOf(s),
    stats: (): TranscriptStats => countedStats(s, tornLastLine),
    problems: () => [...s.problems],
  };
}

function readRecord(s: ParserState, record: Fields, line: number): void {
  const type = str(record, 'type') ?? '(no type)';
  const at = timeOf(record['timestamp']);
  noteMeta(s, record, at);
  if (metaTypes.has(type)) {
    readMetaRecord(s, type, record);
    return;
  }
  if (type === 'file-history-snapshot') {
    readSnapshot(s, record, line, s.options.thread?.id ?? null);
    return;
  }
  const thread = placeRecord(s, record, line, at);
  if (thread === undefined) return;
  const p = { line, at, thread, uuid: str(record, 'uuid') };
  switch (type) {
    case 'user':
      readUser(s, record, p);
      return;
    case 'assistant':
      readAssistant(s, record, p);
      return;
    case 'system':
      readSystem(s, record, p);
      return;
    case 'attachment':
      readAttachment(s, record, p);
      return;
    case 'progress':
      count(s.skipped, type);
      return;
    default:
      readUnknown(s, type, record, p);
  }
}

function noteMeta(s: ParserState, record: Fields, at: number | null) {
  const m = s.meta;
  if (m.sessionId === null) m.sessionId = str(record, 'sessionId');
  if (m.cwd === null) m.cwd = str(record, 'cwd');
  if (m.version === null) m.version = str(record, 'version');
  if (m.startedAt === null) m.startedAt = at;
}

/** The latest summary of this conversation: its leaf is a record of this file (or it names none). */
function summaryTitle(s: ParserState): string | null {
  for (let i = s.meta.summaries.length - 1; i >= 0; i--) {
    const { text, leaf } = s.meta.summaries[i]!;
    if (leaf === null || s.seen.has(leaf)) return text;
  }
  return null;
}

function metaOf(s: ParserState): TranscriptMeta {
  const m = s.meta;
  return {
    agent: 'claude-code',
    sessionId: m.sessionId,
    title: m.customTitle ?? m.aiTitle ?? summaryTitle(s) ?? s.options.thread?.title ?? null,
    cwd: m.cwd,
    startedAt: m.startedAt,
    model: m.model,
    version: m.version,
    parentSessionId: s.options.thread !== undefined ? m.sessionId : null,
  };
}
