/**
 * `.agent/SESSION.jsonl` as the compression sees it: the active tail of one or more sessions. Reading tolerates a
 * torn last line (a crash mid-append) and malformed lines; rewriting keeps other sessions' lines and lines that
 * are not ours (a person's, a newer build's) verbatim, replaces this session's lines with the new tail, and drops
 * only a torn fragment — whose event agent.db already holds, since the line is written after the commit.
 */
import { parseJsonl, type JsonlLine } from '../formats/jsonl';
import { recordToLine } from '../formats/jsonl';
import { eventFromLine, eventToLine } from '../events/lines';
import type { SessionEvent } from '../events/model';
import type { SessionId } from '../ids';

export interface SessionLogView {
  /** This session's events read from the file, in file order. */
  readonly events: readonly SessionEvent[];
  readonly torn: boolean;
  /** 1-based numbers of lines that are not JSON or not events (a torn last line excluded). */
  readonly malformedLines: readonly number[];
  /** Lines of the file in all (blank ones excluded). */
  readonly lines: number;
}

function ownEvent(line: JsonlLine, sessionId: SessionId): SessionEvent | 'other' | 'bad' {
  if (line.value === undefined) return 'bad';
  const value = line.value as { session?: unknown };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'bad';
  if (value.session !== sessionId) return 'other';
  try {
    return eventFromLine(line.value);
  } catch {
    return 'bad';
  }
}

export function readSessionLog(text: string | null, sessionId: SessionId): SessionLogView {
  if (text === null) return { events: [], torn: false, malformedLines: [], lines: 0 };
  const doc = parseJsonl(text);
  const last = doc.lines[doc.lines.length - 1];
  const events: SessionEvent[] = [];
  const malformedLines: number[] = [];
  let lines = 0;
  for (const line of doc.lines) {
    if (line.raw.trim() === '') continue;
    lines++;
    const own = ownEvent(line, sessionId);
    if (own === 'bad') {
      if (!(doc.torn && line === last)) malformedLines.push(line.line);
    } else if (own !== 'other') events.push(own);
  }
  return { events, torn: doc.torn, malformedLines, lines };
}

/**
 * A line that is not JSON but starts like the records the engine writes: the fragment of an append cut short
 * (after a repair it is no longer the last line). Its event is in agent.db — lines are written after the commit.
 */
const isOwnFragment = (line: JsonlLine) => line.value === undefined && /^\{"v":\d+,"ts":/.test(line.raw);

/**
 * The file with this session's lines replaced by `tail`; lines of other sessions and lines that are not the
 * engine's (a person's, a newer build's) are kept as they were. `dropped`: cut-short fragments left out.
 */
export function rewriteSessionLog(
  text: string | null,
  sessionId: SessionId,
  tail: readonly SessionEvent[],
): { text: string; dropped: number } {
  const doc = parseJsonl(text ?? '');
  let out = doc.bom;
  let dropped = 0;
  for (const line of doc.lines) {
    if (line.raw.trim() === '') continue;
    if (isOwnFragment(line)) {
      dropped++;
      continue;
    }
    const own = ownEvent(line, sessionId);
    if (own !== 'other' && own !== 'bad') continue;
    out += line.raw + (line.eol || doc.eol);
  }
  for (const event of tail) out += recordToLine(eventToLine(event)) + doc.eol;
  return { text: out, dropped };
}

export const eventLine = (event: SessionEvent) => recordToLine(eventToLine(event));
