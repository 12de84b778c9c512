/**
 * Codex writes the same words twice: a `response_item` message (what the model saw) and an `event_msg`
 * (`user_message`, `agent_message`, `agent_reasoning`: what the UI showed), in either order. Each side keeps the
 * texts the other has not matched yet (the newest few): a text the other side already holds is a duplicate.
 */
import type { ParserState } from './state';

const kept = 16;

/** True when `text` from `side` mirrors one already seen from the other side (then it is counted, not kept). */
export function isMirror(s: ParserState, kind: string, side: 'item' | 'event', text: string): boolean {
  const key = text.trim();
  const queues = (s.mirrors[kind] ??= { item: [], event: [] });
  const other = side === 'item' ? queues.event : queues.item;
  const at = other.indexOf(key);
  if (at >= 0) {
    other.splice(at, 1);
    s.duplicates++;
    return true;
  }
  const mine = side === 'item' ? queues.item : queues.event;
  mine.push(key);
  if (mine.length > kept) mine.shift();
  return false;
}
