/**
 * Is it a Claude Code session? Sure (2) when a complete line of the head is a record only Claude Code writes: a
 * `user`/`assistant`/`system`/`progress`/`attachment` record with `uuid`, `parentUuid` and `sessionId`, a
 * `file-history-snapshot` with its `snapshot`, a `summary` with `leafUuid`. Could be (1) for a `.jsonl` named like
 * a session (`<uuid>.jsonl`, `agent-*.jsonl`) whose head holds no complete line. Else 0.
 */
import type { Sniff } from '../types';
import { asFields } from './json';

const dagTypes = new Set(['user', 'assistant', 'system', 'progress', 'attachment']);
const sessionName =
  /(^|\/)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|agent-[\w-]+)\.jsonl$/i;

export const sniffClaudeCode: Sniff = (name, head) => {
  const lines = head.split('\n');
  if (!head.endsWith('\n')) lines.pop();
  let objects = 0;
  for (const line of lines.slice(0, 50)) {
    if (line.trim() === '') continue;
    let record: Record<string, unknown> | null;
    try {
      record = asFields(JSON.parse(line));
    } catch {
      continue;
    }
    if (record === null) continue;
    objects++;
    const type = record['type'];
    if (typeof type !== 'string') continue;
    if (dagTypes.has(type) && 'uuid' in record && 'parentUuid' in record && 'sessionId' in record) return 2;
    if (type === 'file-history-snapshot' && asFields(record['snapshot']) !== null) return 2;
    if (type === 'summary' && typeof record['leafUuid'] === 'string') return 2;
  }
  if (objects > 0) return 0;
  // A first line longer than the head (a 5 MB tool result) is cut: its opening keys still tell.
  if (/^\{"parentUuid":/.test(head) && head.includes('"isSidechain":') && head.includes('"sessionId":'))
    return 2;
  return sessionName.test(name) ? 1 : 0;
};
