import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  describeReason,
  planRetention,
  removalNote,
  type RetentionState,
  type RetentionTask,
} from '../../src/core/retention/index';
import { asSessionId, asTaskId } from '../../src/core/ids';
import { taskStates } from '../../src/core/model';
import { createRandom } from '../helpers/random';

const fixturesDir = fileURLToPath(new URL('../fixtures/retention/', import.meta.url));
const fixtures = readdirSync(fixturesDir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => ({
    name,
    ...(JSON.parse(readFileSync(fixturesDir + name, 'utf8')) as {
      description: string;
      state: RetentionState;
      expected: unknown;
    }),
  }));

/** A generated state: the same seed, the same state. */
function randomState(seed: number): RetentionState {
  const random = createRandom(seed);
  const count = random.int(5, 45);
  const sessionCount = random.int(1, 5);
  const tasks: RetentionTask[] = [];
  for (let id = 1; id <= count; id++) {
    const references = [];
    for (let r = random.int(0, 3); r > 0; r--) {
      references.push({
        to: asTaskId(random.int(1, count + 1)),
        kind: random.next() < 0.5 ? ('child' as const) : ('reference' as const),
      });
    }
    tasks.push({
      id: asTaskId(id),
      // session 0 does not exist: those tasks are orphans
      sessionId: random.next() < 0.15 ? null : asSessionId(random.int(0, sessionCount + 1)),
      state: random.pick(taskStates),
      pinned: random.next() < 0.1,
      references,
      heavyRemovedAt: random.next() < 0.1 ? 1_700_000_000_000 : null,
    });
  }
  const sessions = Array.from({ length: sessionCount }, (_, i) => ({
    id: asSessionId(i + 1),
    currentTaskId: random.next() < 0.8 ? asTaskId(random.int(1, count + 1)) : null,
  }));
  const vanishedTaskIds = Array.from({ length: random.int(0, 4) }, () =>
    asTaskId(random.int(count + 1, count + 11)),
  );
  return { sessions, tasks, vanishedTaskIds };
}

describe('planRetention: golden plans', () => {
  it('has fixtures to check', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(21);
  });

  for (const fixture of fixtures) {
    it(`${fixture.name}: ${fixture.description}`, () => {
      expect(planRetention(fixture.state)).toEqual(fixture.expected);
    });
  }
});

describe('planRetention: properties over generated states', () => {
  const seeds = Array.from({ length: 200 }, (_, i) => i + 1);

  it('gives the same plan whatever the order of its input', () => {
    for (const seed of seeds) {
      const state = randomState(seed);
      const random = createRandom(seed * 7919);
      const reordered = {
        sessions: random.shuffled(state.sessions),
        tasks: random.shuffled(state.tasks).map((t) => ({ ...t, references: random.shuffled(t.references) })),
        vanishedTaskIds: random.shuffled(state.vanishedTaskIds ?? []),
      };
      expect(planRetention(reordered)).toEqual(planRetention(state));
    }
  });

  it('never cleans a protected task or anything a kept task references; cleans only what it may', () => {
    for (const seed of seeds) {
      const state = randomState(seed);
      const plan = planRetention(state);
      const sessionIds = new Set(state.sessions.map((s) => s.id));
      const byId = new Map(state.tasks.map((t) => [t.id, t]));
      const verdictOf = new Map(plan.verdicts.map((v) => [v.taskId, v]));
      expect(plan.verdicts.map((v) => v.taskId)).toEqual([...byId.keys()].sort((a, b) => a - b));

      const orphan = (t: RetentionTask) => t.sessionId === null || !sessionIds.has(t.sessionId);
      for (const task of state.tasks) {
        const isRoot =
          task.pinned ||
          state.sessions.some((s) => s.currentTaskId === task.id) ||
          (!orphan(task) && (task.state === 'running' || task.state === 'waiting_user'));
        if (isRoot) expect(verdictOf.get(task.id)?.verdict).toBe('keep');
        if (verdictOf.get(task.id)?.verdict === 'keep') {
          for (const ref of task.references)
            if (byId.has(ref.to)) expect(verdictOf.get(ref.to)?.verdict).toBe('keep');
        }
        const verdict = verdictOf.get(task.id);
        const newer = state.tasks.some((t) => t.sessionId === task.sessionId && t.id > task.id);
        if (!orphan(task) && !newer && (task.state === 'done' || task.state === 'failed'))
          expect(verdict?.verdict).toBe('keep');
        if (verdict?.verdict === 'clean') {
          expect(task.heavyRemovedAt).toBeNull();
          // Cleaned only when superseded: a newer task of its session, marked so, or its session gone.
          expect(orphan(task) || newer || task.state === 'superseded').toBe(true);
        }
        if (verdict?.verdict === 'keep' && verdict.reasons[0].kind === 'referenced') {
          // The path is a real chain of references from a root to this task.
          const path = verdict.reasons[0].path;
          expect(path.at(-1)).toBe(task.id);
          for (let i = 1; i < path.length; i++) {
            expect(byId.get(path[i - 1] as never)?.references.some((r) => r.to === path[i])).toBe(true);
          }
        }
      }
      const orphansCleaned = [...plan.verdicts, ...plan.vanished].filter(
        (v) => v.verdict === 'clean' && (v.reasons[0].kind === 'orphan' || v.reasons[0].kind === 'task-gone'),
      );
      expect(orphansCleaned.length).toBeLessThanOrEqual(4);
      expect(plan.clean).toEqual(
        [...plan.verdicts, ...plan.vanished]
          .filter((v) => v.verdict === 'clean')
          .map((v) => v.taskId)
          .sort((a, b) => a - b),
      );
    }
  });

  it('terminates on a long reference cycle and on a chain thousands deep', () => {
    const n = 2000;
    const tasks: RetentionTask[] = Array.from({ length: n }, (_, i) => ({
      id: asTaskId(i + 1),
      sessionId: asSessionId(1),
      state: 'superseded',
      pinned: false,
      references: [{ to: asTaskId(((i + 1) % n) + 1), kind: 'reference' }],
      heavyRemovedAt: null,
    }));
    const kept = planRetention({ sessions: [{ id: asSessionId(1), currentTaskId: asTaskId(1) }], tasks });
    expect(kept.clean).toEqual([]);
    const deepest = kept.verdicts.at(-1);
    expect(
      deepest?.verdict === 'keep' && deepest.reasons[0].kind === 'referenced'
        ? deepest.reasons[0].path.length
        : 0,
    ).toBe(n);
    const none = planRetention({ sessions: [{ id: asSessionId(1), currentTaskId: null }], tasks });
    expect(none.clean.length).toBe(n);
  });

  it('respects a custom orphan limit and refuses a bad one or duplicate tasks', () => {
    const orphan = (id: number): RetentionTask => ({
      id: asTaskId(id),
      sessionId: null,
      state: 'done',
      pinned: false,
      references: [],
      heavyRemovedAt: null,
    });
    const tasks = [orphan(1), orphan(2), orphan(3)];
    expect(planRetention({ sessions: [], tasks, orphanLimit: 1 }).clean).toEqual([1]);
    expect(planRetention({ sessions: [], tasks, orphanLimit: 0 }).clean).toEqual([]);
    expect(() => planRetention({ sessions: [], tasks, orphanLimit: -1 })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
    expect(() => planRetention({ sessions: [], tasks: [orphan(1), orphan(1)] })).toThrow(
      expect.objectContaining({ code: 'InvalidArgument' }),
    );
  });

  it('describes every reason in words', () => {
    type Listed = { reasons: Parameters<typeof describeReason>[0][] }[];
    const reasons = fixtures.flatMap((f) => {
      const expected = f.expected as { verdicts: Listed; vanished: Listed };
      return [...expected.verdicts, ...expected.vanished].flatMap((v) => v.reasons);
    });
    const kinds = new Set(reasons.map((r) => r.kind));
    expect(kinds.size).toBe(11);
    for (const reason of reasons) expect(describeReason(reason)).toMatch(/\w/);
    // Written by earlier versions only; the log still reads them.
    expect(describeReason({ kind: 'done' })).toBe('done and not needed by any kept task');
    expect(describeReason({ kind: 'superseded', by: asTaskId(8) })).toBe(
      'superseded: task 8, a newer task of its session, has started; not needed by any kept task',
    );
    expect(describeReason({ kind: 'latest', sessionId: asSessionId(2) })).toBe(
      'latest task of session 2 (its rollback is offered until a newer task of that session starts)',
    );
    expect(
      (['superseded', 'done', 'failed', 'task-gone'] as const)
        .map((kind) => removalNote({ kind }))
        .concat(removalNote({ kind: 'orphan', state: 'running' })),
    ).toEqual(['task superseded', 'task done', 'task failed', 'task deleted', 'session deleted']);
    expect(
      describeReason({
        kind: 'referenced',
        by: asTaskId(3),
        refKind: 'child',
        path: [asTaskId(1), asTaskId(3), asTaskId(4)],
      }),
    ).toBe('child task of task 3 (kept via 1 → 3 → 4)');
  });
});
