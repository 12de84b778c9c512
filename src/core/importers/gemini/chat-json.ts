/**
 * The older Gemini CLI chat file: one JSON document per chat (`session-<time>-<id8>.json`, a
 * `ConversationRecord`: `sessionId`, `projectHash`, `startTime`, `lastUpdated`, `messages[]`, `summary?`). Read
 * with the same message rules as the `.jsonl` form; `line` is the message's 1-based index.
 */
import type { ParsedTranscript, TranscriptItem } from '../types';
import { recordItems, type MutableMetaLike } from './line-parser';
import { createMessageState, toolCallItem } from './records';
import { createTally, emptyMeta, isRecord, parseJsonCounted, withSourceIds } from '../tally';

export function parseGeminiChatJson(text: string): ParsedTranscript {
  const tally = createTally();
  const state = createMessageState();
  const meta: MutableMetaLike = emptyMeta('gemini-cli');
  const items: TranscriptItem[] = [];
  const parsed = parseJsonCounted(text, tally);
  if (!parsed.ok) return { meta, items, stats: tally.stats(), problems: tally.problems };
  const doc = parsed.value;
  if (!isRecord(doc) || !Array.isArray(doc['messages'])) {
    tally.malformed++;
    tally.problem(1, 'not a Gemini CLI chat: no messages array');
    return { meta, items, stats: tally.stats(), problems: tally.problems };
  }
  const { messages, ...header } = doc;
  recordItems(
    { ...header, sessionId: header['sessionId'] ?? '', projectHash: header['projectHash'] ?? '' },
    0,
    state,
    meta,
    tally,
  );
  messages.forEach((msg: unknown, index: number) => {
    tally.records++;
    if (!isRecord(msg) || typeof msg['id'] !== 'string') {
      tally.malformed++;
      tally.problem(index + 1, 'message without a string id');
      return;
    }
    items.push(...recordItems(msg, index + 1, state, meta, tally));
  });
  for (const { record, line } of state.pending.values()) items.push(toolCallItem(record, line, false));
  if (meta.sessionId === '') meta.sessionId = null;
  return {
    meta: { ...meta, model: state.model },
    items: withSourceIds(items),
    stats: tally.stats(),
    problems: tally.problems,
  };
}
