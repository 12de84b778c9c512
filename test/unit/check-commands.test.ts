/**
 * Commands as the agent typed them (issue 28): a check keeps its normalised identity as its name (`pytest
 * tests/test_x.py`: the same check however it is spelled), and carries the command as typed
 * (`python3 -m pytest tests/test_x.py -q`) through the validation event, SESSION.jsonl, the compression fold, the
 * next action, the summary and the resume prompt — which quotes it exactly.
 */
import { describe, expect, it } from 'vitest';
import { eventFromLine, eventToLine } from '../../src/core/events/lines';
import type { SessionId, TaskId } from '../../src/core/ids';
import { resumePrompt } from '../../src/lib/index';
import { memoryBrain } from './engine-helpers';

const passed = (n: number) => ({ output: `${n} passed in 0.12s\n`, exitCode: 0 });
const failed = {
  output: 'FAILED tests/test_x.py::test_a - AssertionError\n1 failed, 2 passed in 0.20s\n',
  exitCode: 1,
};
const vitestFailed = {
  output: ' FAIL  src/a.test.ts > adds\n Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)\n',
  exitCode: 1,
};

async function setUp() {
  const { api, database } = await memoryBrain();
  const { id: sessionId } = await api.startSession({ title: 'checks as typed' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Fix the adder' });
  const run = (command: string, result: { output: string; exitCode: number }) =>
    api.recordToolCall({
      sessionId,
      taskId,
      root: '/testbed',
      call: { tool: 'bash', input: { command }, ...result },
    });
  return { api, database, sessionId: sessionId as SessionId, taskId: taskId as TaskId, run };
}

describe('a check as the agent typed it', () => {
  it('keeps its identity as the name and its command as typed, through to the resume prompt', async () => {
    const { api, database, sessionId, run } = await setUp();
    try {
      const first = await run('cd /testbed && python3 -m pytest tests/test_x.py -q 2>&1 | tail -5', failed);
      // Another spelling of the same check: one check, two runs; the latest run's command is the one shown.
      const second = await run('python -m pytest tests/test_x.py', passed(3));
      const script = await run('python3 reproduce.py', { output: 'ok\n', exitCode: 0 });
      const vitest = await run('cd web && npx vitest run src/a.test.ts', vitestFailed);
      expect(first.checks.map((c) => c.id)).toEqual(['pytest tests/test_x.py']);
      expect(second.checks.map((c) => c.id)).toEqual(['pytest tests/test_x.py']);
      expect(script.checks.map((c) => c.id)).toEqual(['python reproduce.py']);
      expect(vitest.checks.map((c) => c.id)).toEqual(['web: vitest src/a.test.ts']);

      const validations = (await api.listEvents(sessionId)).filter((e) => e.kind === 'validation');
      expect(validations.map((v) => [v.name, v.command])).toEqual([
        ['pytest tests/test_x.py', 'python3 -m pytest tests/test_x.py -q 2>&1'],
        ['pytest tests/test_x.py', 'python -m pytest tests/test_x.py'],
        ['python reproduce.py', 'python3 reproduce.py'],
        ['web: vitest src/a.test.ts', 'cd web && npx vitest run src/a.test.ts'],
      ]);
      // Through SESSION.jsonl's line format and back.
      for (const v of validations) expect(eventFromLine(eventToLine(v))).toEqual(v);

      const point = await api.resumePoint(sessionId);
      const checks = point.checkpoint.validations;
      expect(checks.find((v) => v.name === 'pytest tests/test_x.py')).toMatchObject({
        command: 'python -m pytest tests/test_x.py',
        runs: 2,
        failedRuns: 1,
      });
      expect(point.validationsDone.map((v) => v.command).sort()).toEqual([
        'python -m pytest tests/test_x.py',
        'python3 reproduce.py',
      ]);
      expect(point.firstUnfinishedAction.kind).toBe('fix_validation');
      expect(point.firstUnfinishedAction.text).toContain('Make cd web && npx vitest run src/a.test.ts pass');

      const plain = await resumePrompt(api, sessionId, { for: 'any-agent' });
      expect(plain).toContain('`python -m pytest tests/test_x.py`');
      expect(plain).toContain('`python3 reproduce.py`');
      expect(plain).toContain('`cd web && npx vitest run src/a.test.ts`');
      // Control: the identities are not what it quotes.
      expect(plain).not.toContain('`python reproduce.py`');
      expect(plain).not.toContain('`pytest tests/test_x.py`');
      expect(plain).not.toContain('`web: vitest src/a.test.ts`');

      const { markdown } = await api.activeCheckpoint(sessionId);
      expect(markdown).toContain('`python3 reproduce.py` passed');
    } finally {
      await database.close();
    }
  });

  it('a validation recorded by hand keeps its name, and a command only when it differs', async () => {
    const { api, database, sessionId } = await setUp();
    try {
      const typed = await api.recordValidation({
        sessionId,
        name: 'unit tests',
        command: 'npx vitest run --reporter dot',
        result: 'passed',
      });
      const same = await api.recordValidation({
        sessionId,
        name: 'npm test',
        command: 'npm test',
        result: 'passed',
      });
      const bare = await api.recordValidation({ sessionId, name: 'typecheck', result: 'failed' });
      expect(typed.event).toMatchObject({ name: 'unit tests', command: 'npx vitest run --reporter dot' });
      expect('command' in same.event).toBe(false);
      expect('command' in bare.event).toBe(false);
      const point = await api.resumePoint(sessionId);
      expect(point.checkpoint.validations.map((v) => [v.name, v.command])).toEqual([
        ['unit tests', 'npx vitest run --reporter dot'],
        ['npm test', 'npm test'],
        ['typecheck', 'typecheck'],
      ]);
    } finally {
      await database.close();
    }
  });
});
