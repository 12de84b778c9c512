/**
 * The sessions list (issue 28), as pure functions over `sessionsOverview()`: filtered by agent, state, project and
 * text, grouped by project and agent (most recent group first), and cut to what a page can draw at once — a
 * thousand rows of buttons would hold the main thread past 100 ms, so each group shows its latest few and a
 * limited number of groups, each with a button to show more.
 */
import type { AgentKind, KnownProject, SessionOverview, SessionRunState } from '../lib/index';
import { formatCount, formatDuration } from './format';
import { agentLabel } from './labels';

/** `own`: the brain's own sessions (no imported agent). */
export type AgentChoice = AgentKind | 'own' | 'all';

export interface SessionListFilter {
  readonly text: string;
  readonly agent: AgentChoice;
  readonly state: SessionRunState | 'all';
  /** A project's path; `own` for sessions that name no folder. */
  readonly project: string;
}

export const allSessions: SessionListFilter = { text: '', agent: 'all', state: 'all', project: 'all' };

/** Rows a group shows at first, and how many more each "Show more" adds. */
export const rowsPerGroup = 8;
export const moreRows = 50;
/** Groups shown at first, and how many more each "Show more groups" adds. */
export const groupsShown = 20;

const agentKey = (agent: AgentKind | null): AgentChoice => agent ?? 'own';

export function matchesFilter(session: SessionOverview, filter: SessionListFilter): boolean {
  if (filter.agent !== 'all' && agentKey(session.agent) !== filter.agent) return false;
  if (filter.state !== 'all' && session.state !== filter.state) return false;
  if (filter.project !== 'all' && (session.project?.path ?? 'own') !== filter.project) return false;
  const text = filter.text.trim().toLowerCase();
  if (text === '') return true;
  const id = /^#?(\d+)$/.exec(text);
  if (id && Number(id[1]) === session.id) return true;
  return (
    session.title.toLowerCase().includes(text) ||
    (session.project !== null && session.project.path.toLowerCase().includes(text))
  );
}

export interface SessionGroup {
  /** Stable across refreshes: the project's path and the agent. */
  readonly key: string;
  readonly project: { readonly name: string; readonly path: string } | null;
  readonly agent: AgentKind | null;
  readonly sessions: readonly SessionOverview[];
}

/** Groups by project and agent, in the order of each group's most recent session (the list comes newest first). */
export function groupSessions(sessions: readonly SessionOverview[]): SessionGroup[] {
  const groups = new Map<
    string,
    { project: SessionGroup['project']; agent: AgentKind | null; sessions: SessionOverview[] }
  >();
  for (const session of sessions) {
    const key = `${session.project?.path ?? ''}\u0000${session.agent ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { project: session.project, agent: session.agent, sessions: [] };
      groups.set(key, group);
    }
    group.sessions.push(session);
  }
  return [...groups].map(([key, group]) => ({ key, ...group }));
}

/** A group's heading: its project (the open project, for the brain's own sessions) and its agent. */
export function groupHeading(group: SessionGroup, openProject: string | null): string {
  const project = group.project?.name ?? openProject ?? 'no project';
  return `${project} · ${agentLabel(group.agent)}`;
}

/** Each agent (and the brain's own) present, with its number of sessions, for the agent filter. */
export function agentChoices(
  sessions: readonly SessionOverview[],
): { value: AgentChoice; label: string; count: number }[] {
  const counts = new Map<AgentChoice, number>();
  for (const s of sessions) counts.set(agentKey(s.agent), (counts.get(agentKey(s.agent)) ?? 0) + 1);
  return [...counts]
    .map(([value, count]) => ({
      value,
      count,
      label: agentLabel(value === 'own' ? null : (value as AgentKind)),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export function stateCounts(sessions: readonly SessionOverview[]): Record<SessionRunState, number> {
  const counts: Record<SessionRunState, number> = { finished: 0, stopped: 0, running: 0 };
  for (const s of sessions) counts[s.state]++;
  return counts;
}

/** The projects for the project filter: the known ones with sessions, and the brain's own when there are any. */
export function projectChoices(
  projects: readonly KnownProject[],
  sessions: readonly SessionOverview[],
): { value: string; label: string; count: number }[] {
  const choices = projects
    .filter((p) => p.sessions > 0)
    .map((p) => ({ value: p.path, label: `${p.name} (${p.path})`, count: p.sessions }));
  const own = sessions.filter((s) => s.project === null).length;
  return own > 0 ? [{ value: 'own', label: 'no folder of its own', count: own }, ...choices] : choices;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a row says of a session besides its title: when, how long, how it ended, how much it did. */
export function sessionFacts(session: SessionOverview): {
  started: string;
  duration: string;
  counts: string;
} {
  return {
    started: dateTime.format(session.startedAt),
    // A transcript without times has them all at its import: no length to speak of.
    duration:
      session.endedAt - session.startedAt < 1000
        ? 'under 1 s'
        : formatDuration(session.endedAt - session.startedAt),
    counts: [
      formatCount(session.prompts, 'prompt'),
      formatCount(session.toolCalls, 'tool call'),
      formatCount(session.filesChanged, 'file changed', 'files changed'),
    ].join(' · '),
  };
}
