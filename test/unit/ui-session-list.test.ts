/** The sessions list's filters, groups and row facts (src/ui/session-list.ts), on hand-made summaries. */
import { describe, expect, it } from 'vitest';
import type { SessionId, SessionOverview } from '../../src/lib/index';
import {
  agentChoices,
  allSessions,
  groupHeading,
  groupSessions,
  matchesFilter,
  projectChoices,
  sessionFacts,
  stateCounts,
} from '../../src/ui/session-list';

const testbed = { name: 'testbed', path: '/testbed' };
const ledger = { name: 'ledger', path: '/home/dev/ledger' };

function session(id: number, over: Partial<SessionOverview> = {}): SessionOverview {
  return {
    id: id as SessionId,
    title: `Session ${id}`,
    agent: null,
    project: null,
    startedAt: 0,
    endedAt: 0,
    updatedAt: 1000 - id,
    state: 'running',
    prompts: 0,
    toolCalls: 0,
    filesChanged: 0,
    ...over,
  };
}

const list = [
  session(1, {
    agent: 'mini-swe-agent',
    project: testbed,
    state: 'finished',
    title: 'mini-swe-agent · flask-5063',
  }),
  session(2, { agent: 'claude-code', project: ledger, title: 'Claude Code · Fix rounding' }),
  session(3, { title: 'Demo: paginate' }),
  session(4, {
    agent: 'mini-swe-agent',
    project: testbed,
    state: 'stopped',
    title: 'mini-swe-agent · django-1',
  }),
];

describe('the sessions list', () => {
  it('filters by agent (the brain’s own as one), state, project and text (title, id, folder)', () => {
    const ids = (filter: Partial<typeof allSessions>) =>
      list.filter((s) => matchesFilter(s, { ...allSessions, ...filter })).map((s) => s.id);
    expect(ids({})).toEqual([1, 2, 3, 4]);
    expect(ids({ agent: 'mini-swe-agent' })).toEqual([1, 4]);
    expect(ids({ agent: 'own' })).toEqual([3]);
    expect(ids({ state: 'stopped' })).toEqual([4]);
    expect(ids({ project: '/testbed' })).toEqual([1, 4]);
    expect(ids({ project: 'own' })).toEqual([3]);
    expect(ids({ text: 'ROUNDING' })).toEqual([2]);
    expect(ids({ text: '#3' })).toEqual([3]);
    expect(ids({ text: '4' })).toEqual([4]);
    expect(ids({ text: 'dev/ledger' })).toEqual([2]);
    expect(ids({ agent: 'mini-swe-agent', state: 'finished', text: 'flask' })).toEqual([1]);
  });

  it('groups by project and agent, most recent group first; the brain’s own under the open project', () => {
    const groups = groupSessions(list);
    expect(groups.map((g) => [groupHeading(g, 'tiny-paginate'), g.sessions.map((s) => s.id)])).toEqual([
      ['testbed · mini-swe-agent', [1, 4]],
      ['ledger · Claude Code', [2]],
      ['tiny-paginate · this brain', [3]],
    ]);
    expect(groupHeading(groups[2]!, null)).toBe('no project · this brain');
  });

  it('offers each agent and project present with its count, and counts the states', () => {
    expect(agentChoices(list)).toEqual([
      { value: 'claude-code', label: 'Claude Code', count: 1 },
      { value: 'mini-swe-agent', label: 'mini-swe-agent', count: 2 },
      { value: 'own', label: 'this brain', count: 1 },
    ]);
    const projects = [
      { ...ledger, folder: null, sessions: 1 },
      { ...testbed, folder: null, sessions: 2 },
      { name: 'gone', path: '/gone', folder: 'gone', sessions: 0 },
    ];
    expect(projectChoices(projects, list).map((p) => [p.value, p.count])).toEqual([
      ['own', 1],
      ['/home/dev/ledger', 1],
      ['/testbed', 2],
    ]);
    expect(stateCounts(list)).toEqual({ finished: 1, stopped: 1, running: 2 });
  });

  it('says how long it ran and how much it did, singular and plural right', () => {
    const one = sessionFacts(
      session(5, { startedAt: 0, endedAt: 65_000, prompts: 1, toolCalls: 1, filesChanged: 1 }),
    );
    expect(one.duration).toBe('1 min 5 s');
    expect(one.counts).toBe('1 prompt · 1 tool call · 1 file changed');
    const many = sessionFacts(session(6, { prompts: 2, toolCalls: 1200, filesChanged: 0 }));
    expect(many.counts).toBe('2 prompts · 1,200 tool calls · 0 files changed');
    expect(many.duration).toBe('under 1 s');
  });
});
