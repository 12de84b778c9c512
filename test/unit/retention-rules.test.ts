import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { planRetention, type RetentionState } from '../../src/core/retention/index';

const readme = readFileSync(
  fileURLToPath(new URL('../../src/core/retention/README.md', import.meta.url)),
  'utf8',
);
const fixturesDir = fileURLToPath(new URL('../fixtures/retention/', import.meta.url));

interface Row {
  readonly rule: string;
  readonly verdict: string;
  readonly reason: string;
  readonly fixture: string;
}

/** The rows of the README's "rule's table": the documentation is what the golden plans are checked against. */
function ruleTable(): Row[] {
  const section = readme.split("## The rule's table")[1] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && line.includes('.json'))
    .map((line) => {
      const [rule = '', verdict = '', reason = '', fixture = ''] = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim().replaceAll('`', ''));
      return { rule, verdict, reason, fixture };
    });
}

describe("the retention rule's table (src/core/retention/README.md)", () => {
  const rows = ruleTable();

  it('lists every rule of issue 17 item 1, one golden plan each', () => {
    expect(rows.map((r) => r.reason)).toEqual([
      'current',
      'running',
      'waiting_user',
      'pinned',
      'referenced',
      'latest',
      'latest',
      'referenced',
      'superseded',
      'superseded',
      'superseded',
      'orphan',
      'already-cleaned',
    ]);
    expect(new Set(rows.map((r) => r.fixture)).size).toBe(rows.length);
  });

  for (const row of rows) {
    it(`${row.rule} → ${row.verdict} (${row.reason}): ${row.fixture}`, () => {
      const fixture = JSON.parse(readFileSync(fixturesDir + row.fixture, 'utf8')) as {
        target: { taskId: number; verdict: string; reason: string };
        state: RetentionState;
        expected: unknown;
      };
      expect({ verdict: fixture.target.verdict, reason: fixture.target.reason }).toEqual({
        verdict: row.verdict,
        reason: row.reason,
      });
      const plan = planRetention(fixture.state);
      expect(plan).toEqual(fixture.expected);
      const verdict = plan.verdicts.find((v) => v.taskId === fixture.target.taskId);
      expect(verdict?.verdict).toBe(row.verdict);
      expect(verdict?.reasons[0].kind).toBe(row.reason);
    });
  }

  it('a done task is superseded by the next task of its session, and names it; another session does not count', () => {
    const task = (id: number, sessionId: number, state: 'done' | 'running') => ({
      id: id as never,
      sessionId: sessionId as never,
      state,
      pinned: false,
      references: [],
      heavyRemovedAt: null,
    });
    const sessions = [1, 2].map((id) => ({ id: id as never, currentTaskId: null }));
    const before = planRetention({ sessions, tasks: [task(1, 1, 'done'), task(2, 2, 'done')] });
    expect(before.clean).toEqual([]);
    const after = planRetention({
      sessions,
      tasks: [task(1, 1, 'done'), task(2, 2, 'done'), task(3, 1, 'running')],
    });
    expect(after.verdicts[0]).toEqual({
      taskId: 1,
      verdict: 'clean',
      reasons: [{ kind: 'superseded', by: 3 }],
    });
    expect(after.clean).toEqual([1]);
  });
});
