/**
 * Gemini CLI files by their first bytes: a `.jsonl` chat starts with its metadata line (`sessionId` and
 * `projectHash` on line 1 — no other agent writes `projectHash`); the older `.json` chat is the same record
 * pretty-printed, so line 1 is a lone `{` and both keys follow.
 */
import type { Sniff } from '../types';

function firstLine(head: string): string {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).trim();
}

const keys = (text: string) => text.includes('"projectHash"') && text.includes('"sessionId"');

export const sniffGeminiJsonl: Sniff = (name, head) => {
  const line = firstLine(head);
  if (line.startsWith('{') && line.length > 1 && keys(line)) return 2;
  return /(^|\/)session-[^/]*\.jsonl$/.test(name) && line.startsWith('{') ? 1 : 0;
};

export const sniffGeminiChatJson: Sniff = (name, head) => {
  const line = firstLine(head);
  if (line === '{' && keys(head.slice(0, 4096)) && head.includes('"messages"')) return 2;
  return /(^|\/)session-[^/]*\.json$/.test(name) && line.startsWith('{') ? 1 : 0;
};
