/**
 * recordToolCall(s) on the real engine (wa-sqlite in Node): what one call derives and stores — the step, checks,
 * file changes with bodies, the agent's todo list and intention — and how the active checkpoint reads a session
 * of real-shaped calls (bash with heredocs and `sed -i`, Claude Code's Edit/Write/TodoWrite).
 */
import { describe, expect, it } from 'vitest';
import type { SessionId, TaskId } from '../../src/core/ids';
import { memoryBrain } from './engine-helpers';

async function setUp() {
  const { api } = await memoryBrain();
  const { id: sessionId } = await api.startSession({ title: 'fix bulk_create' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Fix bulk_create with unique fields' });
  const call = (tool: string, input: unknown, rest: Record<string, unknown> = {}) => ({
    sessionId,
    taskId,
    root: '/testbed',
    call: { tool, input, ...rest },
  });
  return { api, sessionId: sessionId as SessionId, taskId: taskId as TaskId, call };
}

const repro = `from django.db import connection
print("bulk_create returns", [1, 2])
`;

describe('recordToolCall', () => {
  it("gives a step the status of its call's outcome: a command that exited non-zero is an error", async () => {
    const { api, taskId, call } = await setUp();
    const failing = { output: 'FAILED tests/test_x.py::test_a\n1 failed, 2 passed in 0.1s' };
    await api.recordToolCall(
      call('bash', { command: 'pytest tests/test_x.py' }, { ...failing, exitCode: 1 }),
    );
    // Claude Code keeps no exit code: `is_error` and an `Exit code 1` first line say it.
    const claude = { output: `Exit code 1\n${failing.output}`, isError: true };
    await api.recordToolCall(call('Bash', { command: 'pytest tests/test_x.py' }, claude));
    // Controls: exit 0, and a Claude Code Bash result that finished in the foreground without an error.
    await api.recordToolCall(call('bash', { command: 'ls' }, { output: 'a.py\n', exitCode: 0 }));
    const quiet = { output: 'a.py\n', result: { interrupted: false, isImage: false } };
    await api.recordToolCall(call('Bash', { command: 'ls' }, quiet));
    // A tool the agent's harness refused: an error, with no exit status.
    const refused = { output: 'The user rejected this tool use.', isError: true };
    await api.recordToolCall(
      call('Edit', { file_path: '/testbed/a.py', old_string: 'a', new_string: 'b' }, refused),
    );
    const steps = await api.listSteps(taskId);
    expect(steps.map((s) => [s.status, (s.result as { exitCode?: number }).exitCode ?? null])).toEqual([
      ['error', 1],
      ['error', 1],
      ['ok', 0],
      ['ok', 0],
      ['error', null],
    ]);
  });

  it('records a heredoc, a sed -i replayed on the known body, a rerun script as a check, and an rm', async () => {
    const { api, sessionId, taskId, call } = await setUp();
    const created = await api.recordToolCall(
      call(
        'bash',
        { command: `cd /testbed && cat > reproduce_issue.py << 'EOF'\n${repro}EOF` },
        { output: '', exitCode: 0 },
      ),
    );
    // The heredoc shows the body it wrote; whether the file was there before, only a readFile could say.
    expect(created.files).toMatchObject([
      { path: 'reproduce_issue.py', change: 'created', bodies: 'no-before' },
    ]);

    const run1 = await api.recordToolCall(
      call(
        'bash',
        { command: 'cd /testbed && python reproduce_issue.py' },
        {
          output: 'Traceback (most recent call last):\n  File "reproduce_issue.py", line 2\nAssertionError\n',
          exitCode: 1,
        },
      ),
    );
    expect(run1.checks).toMatchObject([{ id: 'python reproduce_issue.py', status: 'failed' }]);

    const edited = await api.recordToolCall(
      call(
        'bash',
        { command: "sed -i 's/\\[1, 2\\]/[3, 4]/' /testbed/reproduce_issue.py" },
        { output: '', exitCode: 0 },
      ),
    );
    expect(edited.files).toMatchObject([{ path: 'reproduce_issue.py', change: 'modified', bodies: 'both' }]);
    const entry = edited.files[0]?.checkpointEntryId;
    expect(entry).not.toBeNull();
    const content = await api.readCheckpoint(entry as never);
    expect(content.before).toBe(repro);
    expect(content.after).toBe(repro.replace('[1, 2]', '[3, 4]'));

    const run2 = await api.recordToolCall(
      call(
        'bash',
        { command: 'python /testbed/reproduce_issue.py' },
        { output: 'bulk_create returns [3, 4]\n', exitCode: 0 },
      ),
    );
    expect(run2.checks).toMatchObject([{ id: 'python reproduce_issue.py', status: 'passed' }]);

    await api.recordToolCall(
      call('bash', { command: 'rm /testbed/reproduce_issue.py' }, { output: '', exitCode: 0 }),
    );
    const resume = await api.resumePoint(sessionId);
    // Created and removed again: a scratch file, which makes no check stale.
    expect(resume.filesChanged).toMatchObject([{ path: 'reproduce_issue.py', transient: true }]);
    expect(resume.validationsDone).toMatchObject([{ name: 'python reproduce_issue.py', changedSince: [] }]);
    const steps = await api.listSteps(taskId);
    expect(steps).toHaveLength(5);
  });

  it('takes Claude Code Edit bodies from toolUseResult, TodoWrite as the plan and the thought as the intention', async () => {
    const { api, sessionId, call } = await setUp();
    await api.recordInstruction({
      sessionId,
      text: `Fix the bug.\n${'Long problem statement. '.repeat(300)}`,
    });
    await api.recordToolCall(
      call(
        'TodoWrite',
        {
          todos: [
            { content: 'Reproduce the bug', status: 'completed', activeForm: 'Reproducing the bug' },
            { content: 'Fix paginate', status: 'in_progress', activeForm: 'Fixing paginate' },
            { content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' },
          ],
        },
        { output: 'Todos have been modified successfully.' },
      ),
    );
    const before = 'export const last = (n: number) => n <= 10;\n';
    const edit = await api.recordToolCall({
      ...call(
        'Edit',
        { file_path: '/testbed/src/paginate.ts', old_string: 'n <= 10', new_string: 'n < 10' },
        {
          output: 'The file /testbed/src/paginate.ts has been updated.',
          result: {
            filePath: '/testbed/src/paginate.ts',
            oldString: 'n <= 10',
            newString: 'n < 10',
            originalFile: before,
          },
        },
      ),
      thought: 'The off-by-one is in paginate: `<=` must be `<`. I will fix it and then run the tests.',
    });
    expect(edit.files).toMatchObject([{ path: 'src/paginate.ts', bodies: 'both' }]);
    expect(edit.thoughtEventId).not.toBeNull();
    const resume = await api.resumePoint(sessionId);
    expect(resume.firstUnfinishedAction).toMatchObject({ kind: 'continue_todo', planStepN: 2 });
    expect(resume.firstUnfinishedAction.text).toBe('Continue todo 2 of 3: Fix paginate.');
    expect(resume.firstUnfinishedAction.intention).toContain('I will fix it');
    const { markdown } = await api.activeCheckpoint(sessionId);
    expect(markdown).toContain('(full text: event #1)');
    expect(markdown.length).toBeLessThan(6_000);
  });

  it('is all or nothing: a bad call in a batch records none of it', async () => {
    const { api, taskId, call } = await setUp();
    await expect(
      api.recordToolCalls([
        call('bash', { command: 'ls' }, { output: 'a\nb\n', exitCode: 0 }),
        { ...call('bash', { command: 'ls' }), taskId: 999 as never },
      ]),
    ).rejects.toMatchObject({ code: 'NotFound', message: expect.stringContaining('Tool call 1') });
    expect(await api.listSteps(taskId)).toHaveLength(0);
  });
});

describe('toolCallRecorder (the two-phase form with readFile)', () => {
  it('reads the bodies of what a shell command names, and what a listing shows an inline script changed', async () => {
    const { toolCallRecorder } = await import('../../src/lib/tool-recorder');
    const { api, sessionId, taskId } = await setUp();
    const files = new Map<string, { body: string; mtime: number }>([
      [
        '/testbed/django/db/models/query.py',
        { body: 'def bulk_create(self, objs):\n    return objs\n', mtime: 1 },
      ],
      ['/testbed/setup.cfg', { body: '[metadata]\nname = django\n', mtime: 1 }],
    ]);
    let clock = 1;
    const write = (path: string, body: string) => files.set(path, { body, mtime: ++clock });
    const recorder = toolCallRecorder(api, {
      sessionId,
      taskId,
      root: '/testbed',
      readFile: async (path) => files.get(path.startsWith('/') ? path : `/testbed/${path}`)?.body ?? null,
      listFiles: async () => [...files].map(([path, f]) => ({ path, size: f.body.length, mtime: f.mtime })),
    });
    const sed = await recorder.begin({
      tool: 'bash',
      input: { command: "sed -i 's/return objs/return list(objs)/' /testbed/django/db/models/query.py" },
    });
    expect(sed.paths).toEqual(['/testbed/django/db/models/query.py']);
    write('/testbed/django/db/models/query.py', 'def bulk_create(self, objs):\n    return list(objs)\n');
    const recorded = await sed.end({ output: '', exitCode: 0 });
    expect(recorded.files).toMatchObject([
      { path: 'django/db/models/query.py', change: 'modified', bodies: 'both' },
    ]);

    // An inline Python script: its effects are not in the command's text, the listing shows them.
    const script = await recorder.begin({
      tool: 'bash',
      input: {
        command:
          "python - <<'EOF'\nimport re\np='setup.cfg'\ns=open(p).read()\nopen(p,'w').write(s+'version = 5\\n')\nEOF",
      },
    });
    write('/testbed/setup.cfg', '[metadata]\nname = django\nversion = 5\n');
    const edited = await script.end({ output: '', exitCode: 0 });
    // A small workspace is read whole before such a call: the script's edit has both bodies.
    expect(edited.files.map((f) => [f.path, f.change, f.bodies])).toEqual([
      ['setup.cfg', 'modified', 'both'],
    ]);
  });
});

describe("the README's embedding example", () => {
  it('records the edit with both bodies and the test run as a passed check nothing changed since', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'Fix the flaky date test' });
    const { id: taskId } = await api.startTask({ sessionId, title: 'Reproduce the failure' });
    const call = { tool: 'Edit', input: { file_path: 'src/date.ts', old_string: '= 1', new_string: '= 0' } };
    const files = [{ path: 'src/date.ts', before: 'weekStart = 1\n', after: 'weekStart = 0\n' }];
    const edit = await api.recordToolCall({
      sessionId,
      taskId,
      call: { ...call, output: 'Updated.' },
      files,
    });
    expect(edit.files).toMatchObject([{ path: 'src/date.ts', change: 'modified', bodies: 'both' }]);
    const test = { tool: 'bash', input: { command: 'npx vitest run test/date.test.ts' }, exitCode: 0 };
    await api.recordToolCall({ sessionId, taskId, call: { ...test, output: 'Tests  1 passed (1)' } });
    const resume = await api.resumePoint(sessionId);
    expect(resume.validationsDone).toMatchObject([{ name: 'vitest test/date.test.ts', changedSince: [] }]);
  });
});
