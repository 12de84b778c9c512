/**
 * Is it a Codex CLI rollout? Sure (2) when a complete line of the head is a `RolloutLine`: `timestamp`, a `type`
 * among `session_meta`, `response_item`, `event_msg`, `turn_context`, `compacted`, and an object `payload`. Could
 * be (1) for a `rollout-*.jsonl` whose head holds no complete line (a first line longer than the head), and for
 * the early form (a `{id, timestamp, instructions}` first line, bare response items) — sure with a rollout name.
 * Else 0.
 */
import type { Sniff } from '../types';
import { asFields, isBlank } from './json';

const lineTypes = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

export const sniffCodex: Sniff = (name, head) => {
  const lines = head.split('\n');
  if (!head.endsWith('\n')) lines.pop();
  let objects = 0;
  let early = false;
  for (const line of lines.slice(0, 50)) {
    if (isBlank(line)) continue;
    let record: Record<string, unknown> | null;
    try {
      record = asFields(JSON.parse(line));
    } catch {
      continue;
    }
    if (record === null) continue;
    objects++;
    const type = record['type'];
    if (
      typeof record['timestamp'] === 'string' &&
      typeof type === 'string' &&
      lineTypes.has(type) &&
      asFields(record['payload']) !== null
    )
      return 2;
    if (isEarlyLine(record, objects)) early = true;
  }
  const rolloutName = /(^|\/)rollout-[^/]*\.jsonl$/.test(name);
  if (early) return rolloutName ? 2 : 1;
  if (objects > 0) return 0;
  if (/^\{"timestamp":"[^"]*","type":"(session_meta|response_item|event_msg)","payload":\{/.test(head))
    return 2;
  return rolloutName ? 1 : 0;
};

/** The early rollout form: its meta first line, or a bare `message` response item. */
function isEarlyLine(record: Record<string, unknown>, nth: number): boolean {
  if (
    nth === 1 &&
    typeof record['id'] === 'string' &&
    typeof record['timestamp'] === 'string' &&
    'instructions' in record
  )
    return true;
  return (
    record['type'] === 'message' && typeof record['role'] === 'string' && Array.isArray(record['content'])
  );
}
