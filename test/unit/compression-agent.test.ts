/**
 * The active checkpoint on an agent's own words: its todo list as the plan, its stated intention as the next
 * action, bounded instructions, and checks that stay usable after changes that cannot affect them.
 */
import { describe, expect, it } from 'vitest';
import { buildActiveCheckpoint } from '../../src/core/compression/extract';
import { renderSessionSummary } from '../../src/core/compression/render';
import type { SessionEvent } from '../../src/core/events/model';
import type { AgentTodos } from '../../src/core/events/agent-notes';
import { log, session, task } from './events-fixtures';

const build = (events: readonly SessionEvent[]) =>
  buildActiveCheckpoint({ sessionId: session, taskId: task, taskTitle: null, events, plan: null });

/**
 * Marks event #id (1-based) of a log: a `said` note, a todo list, a file change outside the root or one only
 * shown by a diff the agent printed.
 */
function mark(
  events: SessionEvent[],
  id: number,
  extra: { said?: true; todos?: AgentTodos; outside?: true; shown?: true },
) {
  return events.map((e) => (e.id === id ? ({ ...e, ...extra } as SessionEvent) : e));
}

const statement = `Fix the bug in bulk_create.\n${'The issue description goes on and on. '.repeat(120)}`;

describe('the active checkpoint on an agent session', () => {
  it('takes the stated intention over the whole instruction, bounded', () => {
    const events = mark(
      log(
        ['instruction', statement],
        ['test', 'pytest tests/bulk_create', 'passed'],
        ['note', 'Now I will update the docs for bulk_create and run the whole suite.'],
      ),
      3,
      { said: true },
    );
    const cp = build(events);
    expect(cp.nextAction).toMatchObject({ kind: 'stated_intention', eventId: 3 });
    expect(cp.nextAction.text).toBe(
      'Go on from where you left off; you last said: Now I will update the docs for bulk_create and run the whole suite.',
    );
    // Without the agent's words, the instruction: its first line only, with where the whole text is.
    const plain = build(log(['instruction', statement]));
    expect(plain.nextAction.kind).toBe('follow_instruction');
    expect(plain.nextAction.text).toBe(
      'Follow the latest instruction: Fix the bug in bulk_create. … (full text: event #1)',
    );
    expect(plain.nextAction.text.length).toBeLessThan(400);
    // A new instruction after the intention wins again.
    const newer = build([
      ...events,
      ...log(['instruction', 'Also add a test.']).map((e) => ({ ...e, id: 4 as never })),
    ]);
    expect(newer.nextAction).toMatchObject({ kind: 'follow_instruction', intention: null });
  });

  it("uses the agent's todo list as the plan, naming the latest failing check", () => {
    const todos: AgentTodos = {
      mode: 'replace',
      items: [
        { text: 'Reproduce the bug', state: 'done', id: null },
        { text: 'Fix bulk_create', state: 'started', id: null },
        { text: 'Run the test suite', state: 'todo', id: null },
      ],
    };
    const events = mark(
      log(
        ['instruction', statement],
        ['note', 'Todo list: 3 items'],
        ['test', 'pytest tests/bulk_create', 'failed', { text: '1 failed, 12 passed' }],
      ),
      2,
      { todos },
    );
    const cp = build(events);
    expect(cp.agentPlan?.items.map((i) => i.state)).toEqual(['done', 'started', 'todo']);
    expect(cp.nextAction).toMatchObject({ kind: 'continue_todo', planStepN: 2, eventId: 3 });
    expect(cp.nextAction.text).toBe(
      'Continue todo 2 of 3: Fix bulk_create — the last run of pytest tests/bulk_create failed: 1 failed, 12 passed.',
    );
    const md = renderSessionSummary(cp);
    expect(md).toContain("## The agent's todo list — 1 of 3 done");
    expect(md).toContain('- [~] 2. Fix bulk_create ← next');
    // An update by id (task tools) moves one item; all done is done.
    const update = (id: number, state: 'done'): AgentTodos => ({
      mode: 'update',
      id: String(id),
      state,
      text: null,
    });
    const withIds: AgentTodos = {
      mode: 'replace',
      items: todos.items.map((i, n) => ({ ...i, id: String(n + 1) })),
    };
    let all = mark(log(['note', 'list'], ['note', 'u2'], ['note', 'u3']), 1, { todos: withIds });
    all = mark(mark(all, 2, { todos: update(2, 'done') }), 3, { todos: update(3, 'done') });
    expect(build(all).nextAction).toMatchObject({
      kind: 'done',
      text: 'All 3 items of the todo list are done.',
    });
  });

  it("follows a person's instruction given after the agent's todo list, naming the list beside it", () => {
    const todos: AgentTodos = {
      mode: 'replace',
      items: [
        { text: 'Reproduce the bug', state: 'done', id: null },
        { text: 'Fix bulk_create', state: 'started', id: null },
      ],
    };
    const before = mark(log(['instruction', statement], ['note', 'Todo list: 2 items']), 2, { todos });
    expect(build(before).nextAction.kind).toBe('continue_todo');
    // The person writes again after the list (a new request once the agent stopped): that comes first.
    const after = [
      ...before,
      ...log(['instruction', 'Also add a changelog entry.']).map((e) => ({ ...e, id: 3 as never })),
    ];
    expect(build(after).nextAction).toMatchObject({
      kind: 'follow_instruction',
      eventId: 3,
      text: 'Follow the latest instruction: Also add a changelog entry. (your todo list from before it has todo 2 of 2: Fix bulk_create in progress).',
    });
    // The agent answers with a new list: the list leads again.
    const answered = mark(
      [...after, ...log(['note', 'Todo list: 3 items']).map((e) => ({ ...e, id: 4 as never }))],
      4,
      {
        todos: {
          mode: 'replace',
          items: [...todos.items, { text: 'Add a changelog entry', state: 'todo', id: null }],
        },
      },
    );
    expect(build(answered).nextAction).toMatchObject({ kind: 'continue_todo', planStepN: 2 });
  });

  it('keeps a passed check usable after .agent/, outside-root and scratch-file changes, and says what else changed', () => {
    const events = mark(
      log(
        ['test', 'pytest tests/bulk_create', 'passed'],
        ['file', '.agent/MEMORY.md'],
        ['file', '/tmp/debug.py', { change: 'created' }],
        ['file', 'reproduce_issue.py', { change: 'created' }],
        ['file', 'reproduce_issue.py', { change: 'deleted' }],
      ),
      3,
      { outside: true },
    );
    const cp = build(events);
    expect(cp.validations).toMatchObject([
      { name: 'pytest tests/bulk_create', changedSince: [], stale: false },
    ]);
    expect(cp.files.find((f) => f.path === 'reproduce_issue.py')).toMatchObject({ transient: true });
    expect(cp.files.find((f) => f.path === '/tmp/debug.py')).toMatchObject({ outside: true });
    const edited = build([
      ...events,
      ...log(['file', 'django/db/models/query.py']).map((e) => ({ ...e, id: 6 as never })),
    ]);
    expect(edited.validations).toMatchObject([{ changedSince: ['django/db/models/query.py'], stale: true }]);
    const md = renderSessionSummary(edited);
    expect(md).toContain('changed since: query.py');
    expect(md).toContain('- 1 scratch file created and deleted again: `reproduce_issue.py`');
  });

  it('lists a file a diff showed changed without making a check stale; what the diff says is its kind', () => {
    // A script rewrote operations.py before the tests; the final `git diff` shows it (when it changed is not known).
    const events = mark(
      log(
        ['file', 'django/db/operations.py', { change: 'created' }],
        ['test', 'pytest tests/backends', 'passed'],
        ['file', 'django/db/operations.py'],
        ['file', 'django/db/mysql.py'],
      ),
      3,
      { shown: true },
    );
    const shown = mark(events, 4, { shown: true });
    const cp = build(shown);
    expect(cp.validations).toMatchObject([{ changedSince: [], stale: false }]);
    // The heredoc wrote it whole as if new; the diff against the committed version says it was modified.
    expect(cp.files.map((f) => [f.path, f.change])).toEqual([
      ['django/db/operations.py', 'modified'],
      ['django/db/mysql.py', 'modified'],
    ]);
    // Control: the same change made by a step after the check makes it stale.
    expect(build(events).validations).toMatchObject([{ changedSince: ['django/db/mysql.py'], stale: true }]);
  });
});
