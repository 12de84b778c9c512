/** How an imported session is named and marked, and how its items are keyed for dedupe. */
import type { AgentKind, TranscriptItem } from '../../core/importers/types';

const labels: Record<AgentKind, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  cline: 'Cline',
  roo: 'Roo Code',
  openhands: 'OpenHands',
  'swe-agent': 'SWE-agent',
  'mini-swe-agent': 'mini-swe-agent',
};

export const agentLabel = (agent: AgentKind) => labels[agent];

/** Text cut to `max` characters, saying how much was left out. */
export function bounded(text: string, max: number): string {
  if (text.length <= max) return text;
  const note = ` … (${text.length - max} more characters in the transcript)`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The session's title: the agent's name first (`Claude Code · Fix rounding`), so every list shows where it came
 * from; the agent and its own session id are also kept in the `imports` table.
 */
export const sessionTitle = (agent: AgentKind, title: string) =>
  bounded(`${agentLabel(agent)} · ${oneLine(title) || 'untitled'}`, 200);

/** A title from the first prompt when the transcript names none. */
export const titleFromPrompt = (prompt: string) => bounded(oneLine(prompt), 80);

/**
 * The item's identity within its session: its kind, thread and source id (the format's own id, else its line and
 * position). Stable when the file grows, so a longer version skips what an earlier import recorded.
 */
export function itemKey(item: TranscriptItem, index: number): string {
  const id = item.sourceId ?? `L${item.line}#${index}`;
  return `${item.kind}:${item.thread ?? ''}:${id}`;
}
