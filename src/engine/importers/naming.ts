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

/** Titles fit a list row: at most this many characters, agent name included. */
export const maxTitleChars = 80;

/** `text` cut at a word to `max` characters with an ellipsis — a title never says how much it left out. */
export function clip(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}

/**
 * The session's title: the agent's name first (`Claude Code · Fix rounding`), so every list shows where it came
 * from, at most `maxTitleChars`; the agent and its own session id are also kept in the `imports` table.
 */
export const sessionTitle = (agent: AgentKind, title: string) =>
  clip(`${agentLabel(agent)} · ${oneLine(title) || 'untitled'}`, maxTitleChars);

const templateTag = /<\/?[a-z_][\w-]*>/gi;

/**
 * The first line of a task that says what it is about: template tags (`<pr_description>`, `<issue>`) dropped, and
 * a lead-in that only announces what follows ("Consider the following PR description:") skipped.
 */
export function firstMeaningfulLine(task: string): string {
  const lines = task
    .replace(templateTag, '\n')
    .split('\n')
    .map(oneLine)
    .filter((l) => l !== '' && !/^[`~]{3}/.test(l));
  const meaningful = lines.find((l, i) => !(l.endsWith(':') && i < lines.length - 1));
  return meaningful ?? lines[0] ?? '';
}

/**
 * An agent's session id as a label: a UUID or long hex id by its first 8 characters; a long instance id cut in
 * the middle, keeping its end (the issue number that tells runs apart); others whole.
 */
function idLabel(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-|^[0-9a-f]{24,}$/i.test(id)) return id.slice(0, 8);
  return id.length <= 36 ? id : `${id.slice(0, 16)}…${id.slice(-19)}`;
}

/**
 * The title of an imported session (without the agent's name): the agent's own title when it kept one (Claude
 * Code's, Cline's, OpenHands'); else its session or instance id and the first meaningful line of its task — a
 * parser's title that is only the task's first line counts as no title. Never over `maxTitleChars` with the name.
 */
export function importedTitle(input: {
  readonly agentTitle: string | null;
  readonly task: string | null;
  readonly id: string;
}): string {
  const own = input.agentTitle === null ? '' : oneLine(input.agentTitle.replace(templateTag, ' '));
  const task = input.task ?? '';
  const fromTask = own !== '' && oneLine(task).startsWith(own);
  if (own !== '' && !fromTask) return clip(own, maxTitleChars);
  const line = firstMeaningfulLine(task);
  return clip(line === '' ? input.id : `${idLabel(input.id)} · ${line}`, maxTitleChars);
}

/**
 * The item's identity within its session: its kind, thread and source id (the format's own id, else its line and
 * position). Stable when the file grows, so a longer version skips what an earlier import recorded.
 */
export function itemKey(item: TranscriptItem, index: number): string {
  const id = item.sourceId ?? `L${item.line}#${index}`;
  return `${item.kind}:${item.thread ?? ''}:${id}`;
}
