/**
 * Issue 27's rules on runs written in the shapes real runs have (mini-swe-agent 1.0/1.1 and its first bare message
 * list, SWE-agent, OpenHands, Cline, Claude Code): a finished run is done, a run cut mid-way stays open and its next
 * action never presents a command that already ran as still to do, and failures that were there before the change
 * (a run with the changes stashed) are never the goal. Each rule has a control that fails without it.
 */
import { describe, expect, it } from 'vitest';
import { parseMiniSweAgentTrajectory, parseSweAgentTrajectory } from '../../src/core/importers/swe-agent';
import type { TranscriptItem } from '../../src/core/importers/types';
import { classifyToolCall } from '../../src/core/tool-calls';
import { memoryBrain } from './engine-helpers';
import { resumePrompt } from '../../src/lib/model-tools/resume-prompt';
import { createRandom } from '../helpers/random';
import { CodexWriter, jsonOutput, shellCommandOutput } from '../fixtures/transcripts/codex-lines';

const task = 'Please solve this issue: `Blueprint.register` drops the url_prefix of nested blueprints.';
const fence = (thought: string, command: string) =>
  `THOUGHT: ${thought}\n\n\`\`\`mswea_bash_command\n${command}\n\`\`\``;
const observation = (exit: number, output: string) =>
  `<returncode>${exit}</returncode>\n<output>\n${output}</output>`;

/** The turns of a bash-only SWE-bench run: reproduce, edit with sed, run the tests, submit. */
const turns: [thought: string, command: string, exit: number, output: string][] = [
  ['Find the blueprint code.', 'grep -n "url_prefix" src/flask/blueprints.py | head', 0, '112: url_prefix\n'],
  [
    'Write a script that reproduces it.',
    "cat > reproduce_issue.py << 'EOF'\nprint('prefix:', '/parent/child')\nEOF",
    0,
    '',
  ],
  ['Run it.', 'python reproduce_issue.py', 1, 'AssertionError: prefix lost\n'],
  [
    'Now I will modify src/flask/blueprints.py to join the prefixes.',
    "sed -i 's/url_prefix = state.url_prefix/url_prefix = join(state.url_prefix, self.url_prefix)/' src/flask/blueprints.py",
    0,
    '',
  ],
  ['Run the tests.', 'python -m pytest tests/test_blueprints.py -q', 0, '57 passed in 0.81s\n'],
];

function miniRun(options: { cut?: number; format: '1.1' | '1.0' | 'bare'; status?: string }) {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer.' },
    { role: 'user', content: task },
  ];
  const shown = turns.slice(0, options.cut ?? turns.length);
  for (const [thought, command, exit, output] of shown) {
    messages.push({ role: 'assistant', content: fence(thought, command) });
    messages.push({ role: 'user', content: observation(exit, output) });
  }
  const submission = 'diff --git a/src/flask/blueprints.py b/src/flask/blueprints.py\n';
  const finished = options.cut === undefined;
  if (finished) {
    const submit = 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached';
    messages.push({ role: 'assistant', content: fence('I am ready to submit.', submit) });
    if (options.format === '1.1')
      messages.push({ role: 'exit', content: '', extra: { exit_status: options.status, submission } });
  }
  if (options.format === 'bare') return JSON.stringify(messages);
  const info = finished && options.format === '1.0' ? { exit_status: options.status, submission } : {};
  return JSON.stringify({
    info: { model_stats: {}, ...info },
    messages,
    trajectory_format: 'mini-swe-agent-1',
  });
}

const ends = (items: readonly TranscriptItem[]) =>
  items.flatMap((i) => (i.kind === 'run_end' ? [i.outcome] : []));

describe('the end of a run, as each format records it', () => {
  const rows: [name: string, items: () => readonly TranscriptItem[], expected: string[]][] = [
    ['mini 1.1: exit message, Submitted', () => mini({ format: '1.1', status: 'Submitted' }), ['submitted']],
    [
      'mini 1.1: exit message, LimitsExceeded',
      () => mini({ format: '1.1', status: 'LimitsExceeded' }),
      ['stopped'],
    ],
    ['mini 1.0: info.exit_status', () => mini({ format: '1.0', status: 'Submitted' }), ['submitted']],
    ['mini, the bare message list: its submit command', () => mini({ format: 'bare' }), ['submitted']],
    ['mini, cut after an observation (control)', () => mini({ format: '1.1', cut: 4 }), []],
    [
      'SWE-agent: info.exit_status submitted',
      () => swe('submitted (exit_cost)', 'diff --git a/x b/x\n'),
      ['submitted'],
    ],
    ['SWE-agent: exit_cost without a submission', () => swe('exit_cost', null), ['stopped']],
    ['SWE-agent: no info (control)', () => swe(null, null), []],
  ];
  for (const [name, items, expected] of rows)
    it(`${name} → ${expected.join(', ') || 'none'}`, () => expect(ends(items())).toEqual(expected));

  function mini(options: Parameters<typeof miniRun>[0]) {
    return parseMiniSweAgentTrajectory(miniRun(options), { name: 'x.traj.json' }).items;
  }
  function swe(status: string | null, submission: string | null) {
    const doc = {
      trajectory: [
        { action: 'ls', observation: 'src\n', thought: 'Look.', state: { working_dir: '/testbed' } },
      ],
      history: [{ role: 'user', content: task }],
      info: status === null ? {} : { exit_status: status, ...(submission ? { submission } : {}) },
    };
    return parseSweAgentTrajectory(JSON.stringify(doc), { name: 'x.traj' }).items;
  }
});

async function importRun(text: string, name = 'pallets__flask-4935.traj.json') {
  const { api } = await memoryBrain();
  const { sessions } = await api.importTranscript({
    files: [{ name, data: new TextEncoder().encode(text) }],
  });
  const sessionId = sessions[0]!.sessionId;
  const [task] = await api.listTasks(sessionId);
  return { api, task: task!, point: await api.resumePoint(sessionId) };
}

describe('a finished run is done; a cut one is open and never asks to repeat what ran', () => {
  it('a submitted mini-swe-agent run: task done, next action done naming what it changed', async () => {
    const { task, point } = await importRun(miniRun({ format: '1.1', status: 'Submitted' }));
    expect(task.state).toBe('done');
    expect(point.firstUnfinishedAction.kind).toBe('done');
    expect(point.firstUnfinishedAction.text).toContain('src/flask/blueprints.py');
  });

  it('a run stopped by a limit stays open (control)', async () => {
    const { task, point } = await importRun(miniRun({ format: '1.1', status: 'LimitsExceeded' }));
    expect(task.state).toBe('running');
    expect(point.firstUnfinishedAction.kind).not.toBe('done');
  });

  it('cut after every observation: open, and the next action never presents an executed command as to do', async () => {
    for (let cut = 1; cut <= turns.length; cut++) {
      const { task, point } = await importRun(miniRun({ format: '1.1', cut }));
      const next = point.firstUnfinishedAction;
      const [thought, command] = turns[cut - 1]!;
      expect(task.state).toBe('running');
      // What the agent said before the command it ran is history, never the step to take.
      expect(next.kind).not.toBe('stated_intention');
      if (next.kind === 'verify_last_action') {
        expect(next.text).toContain('already ran');
        expect(next.text).toContain(command.split('\n')[0]!.slice(0, 40));
        expect(next.text).toContain(`Before it you said: "THOUGHT: ${thought}`);
      } else expect(next.kind).toBe('fix_validation'); // the reproduction failed: make it pass
      expect(point.checkpoint.intentionRan).toBe(true);
    }
  });

  it('an intention that no call followed is still the step to take (control)', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 't' });
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    await api.recordEvent({ sessionId, taskId, kind: 'note', said: true, text: 'Next I will edit a.py.' });
    const point = await api.resumePoint(sessionId);
    expect(point.firstUnfinishedAction.kind).toBe('stated_intention');
  });
});

describe('failures that were there before the change', () => {
  const failing = '2 failed, 55 passed in 0.9s';
  const out = (names: string[]) =>
    `${names.map((n) => `FAILED tests/test_blueprints.py::${n} - AssertionError`).join('\n')}\n${failing}\n`;

  it('a check between git stash and git stash pop is a baseline, in one command or across calls', () => {
    const one = classifyToolCall(
      {
        tool: 'bash',
        input: { command: 'git stash && python -m pytest tests/test_blueprints.py -q; git stash pop' },
        output: out(['test_a']),
        exitCode: 0,
      },
      {},
    );
    expect(one.checks.map((c) => c.baseline ?? false)).toEqual([true]);
    expect(one.changesSetAside).toBe(false);
    const stashed = classifyToolCall({
      tool: 'bash',
      input: { command: 'git stash' },
      output: 'Saved',
      exitCode: 0,
    });
    expect(stashed.changesSetAside).toBe(true);
    const later = classifyToolCall(
      {
        tool: 'bash',
        input: { command: 'python -m pytest tests/test_blueprints.py' },
        output: out(['test_a']),
        exitCode: 1,
      },
      { changesSetAside: true },
    );
    expect(later.checks[0]?.baseline).toBe(true);
    // Control: the same run with the changes in place is a run of the check.
    const plain = classifyToolCall(
      {
        tool: 'bash',
        input: { command: 'python -m pytest tests/test_blueprints.py' },
        output: out(['test_a']),
        exitCode: 1,
      },
      {},
    );
    expect(plain.checks[0]?.baseline).toBeUndefined();
  });

  async function session(baselineFailures: string[]) {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'fix blueprints' });
    const { id: taskId } = await api.startTask({ sessionId, title: 'fix blueprints' });
    const bash = (command: string, output: string, exitCode: number) =>
      api.recordToolCall({
        sessionId,
        taskId,
        root: '/testbed',
        call: { tool: 'bash', input: { command }, output, exitCode },
      });
    await bash("sed -i 's/a/b/' src/flask/blueprints.py", '', 0);
    await bash('python -m pytest tests/test_blueprints.py', out(['test_a', 'test_b']), 1);
    await bash(
      'git stash && python -m pytest tests/test_blueprints.py; git stash pop',
      out(baselineFailures),
      0,
    );
    return api.resumePoint(sessionId);
  }

  it('the same failures with the change set aside: listed as failing before, never the next action', async () => {
    const point = await session(['test_a', 'test_b']);
    expect(point.checkpoint.validations.map((v) => [v.name, v.result, v.failingBefore])).toEqual([
      ['pytest tests/test_blueprints.py', 'failed', true],
    ]);
    expect(point.firstUnfinishedAction.kind).not.toBe('fix_validation');
  });

  it('a failure the baseline does not have is the goal (control)', async () => {
    const point = await session(['test_a']);
    expect(point.checkpoint.validations.map((v) => v.failingBefore)).toEqual([false]);
    expect(point.firstUnfinishedAction.kind).toBe('fix_validation');
    expect(point.firstUnfinishedAction.text).toContain('test_b');
  });
});

describe('chat agents: a final answer with no call after it ends the run', () => {
  const at = (n: number) => `2026-11-20T09:00:${String(n).padStart(2, '0')}.000Z`;
  const line = (uuid: string, parent: string | null, n: number, type: string, content: unknown) =>
    JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      type,
      message: { role: type, content },
      uuid,
      sessionId: 'c0ffee00-0000-4000-8000-000000000001',
      timestamp: at(n),
      cwd: '/home/dev/app',
    });
  const use = { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } };
  const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Tests  3 passed (3)' };
  const opening = [
    line('u1', null, 1, 'user', 'Make the date test pass.'),
    line('a1', 'u1', 2, 'assistant', [{ type: 'text', text: 'Running the tests.' }, use]),
  ];

  async function importLines(lines: string[]) {
    const name = 'c0ffee00-0000-4000-8000-000000000001.jsonl';
    return importRun(lines.join('\n') + '\n', name);
  }

  it('ends on the answer: done', async () => {
    const { task, point } = await importLines([
      ...opening,
      line('r1', 'a1', 3, 'user', [result]),
      line('a2', 'r1', 4, 'assistant', [{ type: 'text', text: 'The date test passes now.' }]),
    ]);
    expect(task.state).toBe('done');
    expect(point.firstUnfinishedAction.kind).toBe('done');
  });

  it('ends on a call with its result, or on a call waiting for one: still running (controls)', async () => {
    for (const lines of [[...opening, line('r1', 'a1', 3, 'user', [result])], opening]) {
      const { task, point } = await importLines(lines);
      expect(task.state).toBe('running');
      expect(point.firstUnfinishedAction.kind).not.toBe('done');
    }
  });
});

describe('a script the agent deleted is never offered for running again', () => {
  async function session(deleteIt: boolean) {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'fix blueprints' });
    const { id: taskId } = await api.startTask({ sessionId, title: 'fix blueprints' });
    const bash = (command: string, output: string, exitCode: number) =>
      api.recordToolCall({
        sessionId,
        taskId,
        root: '/testbed',
        call: { tool: 'bash', input: { command }, output, exitCode },
      });
    await bash("cat > reproduce_issue.py << 'EOF'\nassert False, 'prefix lost'\nEOF", '', 0);
    await bash('python reproduce_issue.py', 'AssertionError: prefix lost\n', 1);
    if (deleteIt) await bash('rm reproduce_issue.py', '', 0);
    const point = await api.resumePoint(sessionId);
    return { point, prompt: await resumePrompt(api, sessionId) };
  }

  it('deleted: its failed run is not the next action, and the prompt does not ask to run it', async () => {
    const { point, prompt } = await session(true);
    expect(point.firstUnfinishedAction.kind).not.toBe('fix_validation');
    expect(prompt).not.toMatch(/run: `?python reproduce_issue\.py/);
  });

  it('still there: make it pass (control)', async () => {
    const { point, prompt } = await session(false);
    expect(point.firstUnfinishedAction.kind).toBe('fix_validation');
    expect(prompt).toContain('python reproduce_issue.py');
  });
});

describe('a file created by a call whose text the transcript holds opens as a diff', () => {
  async function record(tool: string, input: unknown, output: string) {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 'create' });
    const { id: taskId } = await api.startTask({ sessionId, title: 'create' });
    const recorded = await api.recordToolCall({
      sessionId,
      taskId,
      root: '/app',
      call: { tool, input, output },
    });
    const entries = await api.listCheckpoints(taskId);
    const bodies = await Promise.all(entries.map((e) => api.readCheckpoint(e.id)));
    return { files: recorded.files, bodies };
  }
  const text = 'export const weekStart = 0;\n';

  it('Edit from an empty text, MultiEdit whose first edit creates, Write of type create: no before, whole after', async () => {
    const cases: [string, unknown][] = [
      ['Edit', { file_path: '/app/src/week.ts', old_string: '', new_string: text }],
      [
        'MultiEdit',
        {
          file_path: '/app/src/week.ts',
          edits: [
            { old_string: '', new_string: 'export const weekStart = 1;\n' },
            { old_string: '= 1', new_string: '= 0' },
          ],
        },
      ],
    ];
    for (const [tool, input] of cases) {
      const { files, bodies } = await record(tool, input, 'File created successfully at: /app/src/week.ts');
      expect(files).toMatchObject([{ path: 'src/week.ts', change: 'created', bodies: 'both' }]);
      expect(bodies.map((b) => [b.before, b.after])).toEqual([[null, text]]);
    }
  });

  it('an Edit of a file whose text the session never saw has no entry (control)', async () => {
    const { files, bodies } = await record(
      'Edit',
      { file_path: '/app/src/week.ts', old_string: '= 1', new_string: '= 0' },
      'The file /app/src/week.ts has been updated.',
    );
    expect(files).toMatchObject([{ path: 'src/week.ts', bodies: 'none' }]);
    expect(bodies).toEqual([]);
  });
});

describe('a last command whose result is recorded is not said to have maybe not finished', () => {
  // An OpenHands trajectory cut after a command that failed (exit 1, its error printed), or before its observation.
  function trajectory(answered: boolean) {
    const command = 'python3 -c "import json; json.load(open(\'event.json\'))"';
    const events: unknown[] = [
      {
        id: 0,
        timestamp: '2025-10-02T14:00:00',
        source: 'user',
        message: 'Review the PR.',
        action: 'message',
        args: { content: 'Review the PR.', wait_for_response: false },
      },
      {
        id: 1,
        timestamp: '2025-10-02T14:00:05',
        source: 'agent',
        message: '',
        action: 'run',
        args: { command, thought: 'Read the event payload.' },
      },
    ];
    if (answered)
      events.push({
        id: 2,
        timestamp: '2025-10-02T14:00:06',
        source: 'agent',
        message: '',
        cause: 1,
        observation: 'run',
        content: 'json.decoder.JSONDecodeError: Expecting value\n[The command completed with exit code 1.]',
        extras: { command, metadata: { exit_code: 1, working_dir: '/workspace' } },
      });
    return JSON.stringify(events);
  }
  async function prompt(answered: boolean) {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [{ name: 'trajectory-5e8c.json', data: new TextEncoder().encode(trajectory(answered)) }],
    });
    const point = await api.resumePoint(sessions[0]!.sessionId);
    return { point, text: await resumePrompt(api, sessions[0]!.sessionId) };
  }
  const unsure = 'may not have finished or its result was not recorded';

  it('exit 1 with its error printed: it ran, and the prompt says only that', async () => {
    const { point, text } = await prompt(true);
    expect(point.firstUnfinishedAction.kind).toBe('verify_last_action');
    expect(text).toContain('already ran — do not repeat it');
    expect(text).not.toContain(unsure);
  });

  it('a call the transcript ends on before its result: check whether it ran (control)', async () => {
    const { point, text } = await prompt(false);
    expect(point.firstUnfinishedAction.kind).toBe('verify_last_action');
    expect(text).toContain(unsure);
  });
});

describe('a Gemini CLI chat that creates a file with write_file, rewrites it, then reads it', () => {
  const first = '# Release notes\n';
  const second = '# Release notes\n\n- Week starts on Monday.\n';
  const call = (id: string, name: string, args: unknown, output: string) => ({
    id,
    name,
    args,
    result: [{ functionResponse: { id, name, response: { output } } }],
    status: 'success',
    timestamp: '2026-03-02T10:00:05.000Z',
  });
  // The one-document chat (session-….json) as the CLI wrote it; the output texts are write-file.ts's own.
  const chat = (created: string) =>
    JSON.stringify({
      sessionId: '0d6c2f4e-5a1b-4c3d-9e8f-7a6b5c4d3e2f',
      projectHash: 'a1b2',
      startTime: '2026-03-02T10:00:00.000Z',
      lastUpdated: '2026-03-02T10:01:00.000Z',
      messages: [
        { id: 'u1', timestamp: '2026-03-02T10:00:00.000Z', type: 'user', content: 'Write release notes.' },
        {
          id: 'g1',
          timestamp: '2026-03-02T10:00:05.000Z',
          type: 'gemini',
          content: '',
          toolCalls: [
            call(
              'w1',
              'write_file',
              { file_path: 'NOTES.md', content: first },
              `${created}: /home/dev/app/NOTES.md.`,
            ),
            call(
              'w2',
              'write_file',
              { file_path: 'NOTES.md', content: second },
              'Successfully overwrote file: /home/dev/app/NOTES.md.',
            ),
            call('r1', 'read_file', { file_path: 'NOTES.md' }, second),
          ],
        },
        {
          id: 'g2',
          timestamp: '2026-03-02T10:00:09.000Z',
          type: 'gemini',
          content: 'The notes are written.',
        },
      ],
    });
  async function run(created: string) {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [
        { name: 'session-2026-03-02T10-00-0d6c2f4e.json', data: new TextEncoder().encode(chat(created)) },
      ],
    });
    const [task] = await api.listTasks(sessions[0]!.sessionId);
    const entries = await api.listCheckpoints(task!.id);
    const bodies = await Promise.all(entries.map((e) => api.readCheckpoint(e.id)));
    return { bodies, point: await api.resumePoint(sessions[0]!.sessionId) };
  }

  it('"created and wrote to new file": the first version opens as a diff from nothing', async () => {
    const { bodies } = await run('Successfully created and wrote to new file');
    expect(bodies.map((b) => [b.before, b.after])).toEqual([
      [null, first],
      [first, second],
    ]);
  });

  it('a write that does not say it created the file has no first entry (control)', async () => {
    const { bodies } = await run('Wrote the file');
    expect(bodies.map((b) => [b.before, b.after])).toEqual([[first, second]]);
  });

  it("what ran last is the read, summed up by its size, not the file's last line", async () => {
    const { point } = await run('Successfully created and wrote to new file');
    expect(point.checkpoint.lastAction).toMatchObject({ command: 'NOTES.md', summary: 'printed 2 lines' });
  });
});

describe('a Codex apply_patch that failed verification changed nothing', () => {
  const v1 = 'export function renderBoard() {\n  board.innerHTML = "";\n}\n';
  const v2 = 'export function renderBoard() {\n  board.innerHTML = "";\n  drawCoordinates();\n}\n';
  const update = (context: string) =>
    `*** Begin Patch\n*** Update File: board.js\n@@\n export function renderBoard() {\n-  ${context}\n+  ${context}\n+  drawCoordinates();\n }\n*** End Patch\n`;
  function rollout(refused: string, shellCommand: string) {
    const w = new CodexWriter(createRandom(7), Date.UTC(2025, 10, 22, 20, 45));
    w.line('session_meta', {
      id: '019aad50-0000-7000-8000-000000000001',
      cwd: '/home/dev/chess',
      originator: 'codex_cli_rs',
      cli_version: '0.60.1',
      source: 'cli',
    });
    w.userItem('Draw the board coordinates.');
    const patch = (id: string, input: string, output: string) => {
      w.item({ type: 'custom_tool_call', status: 'completed', call_id: id, name: 'apply_patch', input });
      w.output(id, output, true);
    };
    patch(
      'call_a',
      `*** Begin Patch\n*** Add File: board.js\n${v1
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => `+${l}`)
        .join('\n')}\n*** End Patch\n`,
      jsonOutput(0, 'Success. Updated the following files:\nA board.js\n'),
    );
    // The context line is stale: Codex verifies the whole patch first and writes nothing.
    patch('call_b', update('boardEl.innerHTML = "";'), refused);
    patch(
      'call_c',
      update('board.innerHTML = "";'),
      jsonOutput(0, 'Success. Updated the following files:\nM board.js\n'),
    );
    // The same stale patch through the shell: the apply_patch command says so and exits 1.
    const heredoc = `apply_patch <<'PATCH'\n${update('boardEl.innerHTML = "";')}PATCH`;
    w.functionCall('shell_command', { command: heredoc, workdir: '.' }, 'call_d');
    w.output('call_d', shellCommand);
    w.assistantItem('Coordinates are drawn.');
    return `${w.lines.join('\n')}\n`;
  }
  async function run(refused: string, shellCommand: string) {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [
        {
          name: 'rollout-2025-11-22T21-45-35-019aad50-0000-7000-8000-000000000001.jsonl',
          data: new TextEncoder().encode(rollout(refused, shellCommand)),
        },
      ],
    });
    const sessionId = sessions[0]!.sessionId;
    const [task] = await api.listTasks(sessionId);
    const steps = await api.listSteps(task!.id);
    const changes = (await api.listEvents(sessionId)).filter((e) => e.kind === 'file_change');
    const entries = await api.listCheckpoints(task!.id);
    const bodies = await Promise.all(entries.map((e) => api.readCheckpoint(e.id)));
    return { steps, changes, bodies };
  }
  const shellFailure = shellCommandOutput(
    1,
    'Failed to find expected lines in board.js:\nexport function renderBoard() {\n  boardEl.innerHTML = "";\n',
  );
  const failure =
    'apply_patch verification failed: Failed to find expected lines in /home/dev/chess/board.js:\nexport function renderBoard() {\n  boardEl.innerHTML = "";';

  it('no change, the step failed, and the next patch still opens as a diff', async () => {
    const { steps, changes, bodies } = await run(failure, shellFailure);
    expect(steps.map((s) => s.status)).toEqual(['ok', 'error', 'ok', 'error']);
    expect(changes.map((c) => c.kind === 'file_change' && c.change)).toEqual(['created', 'modified']);
    expect(bodies.map((b) => [b.before, b.after])).toEqual([
      [null, v1],
      [v1, v2],
    ]);
  });

  it('an output that does not say it was refused is a change (control)', async () => {
    const { changes } = await run('Done.', shellCommandOutput(0, 'Done.'));
    expect(changes).toHaveLength(4);
  });
});

describe('a Claude Code session imported with its subagent file stays as its main file ended it', () => {
  const sessionId = '3b7d2c1a-9e8f-4a6b-8c5d-1e2f3a4b5c6d';
  const base = { userType: 'external', cwd: '/home/dev/cli', sessionId, version: '2.1.7', gitBranch: 'main' };
  const line = (r: Record<string, unknown>) => JSON.stringify(r);
  const main = [
    {
      parentUuid: null,
      isSidechain: false,
      ...base,
      type: 'user',
      message: { role: 'user', content: 'Write a spec for the missing CLI commands.' },
      uuid: 'm-1',
      timestamp: '2026-01-14T19:20:03.000Z',
    },
    {
      parentUuid: 'm-1',
      isSidechain: false,
      ...base,
      type: 'assistant',
      message: {
        id: 'r1',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_task',
            name: 'Task',
            input: {
              subagent_type: 'Explore',
              description: 'Survey the commands',
              prompt: 'List the CLI commands in src/cli/commands.',
            },
          },
        ],
      },
      uuid: 'm-2',
      timestamp: '2026-01-14T19:20:13.000Z',
    },
    {
      parentUuid: 'm-2',
      isSidechain: false,
      ...base,
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_task',
            content: [{ type: 'text', text: 'There are 9 commands. Next I will write the spec.' }],
          },
        ],
      },
      toolUseResult: { agentId: 'a77c0de', status: 'completed' },
      uuid: 'm-3',
      timestamp: '2026-01-14T19:26:03.000Z',
    },
    {
      parentUuid: 'm-3',
      isSidechain: false,
      ...base,
      type: 'assistant',
      message: {
        id: 'r2',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_write',
            name: 'Write',
            input: { file_path: '/home/dev/cli/SPEC.md', content: '# Spec\n' },
          },
        ],
      },
      uuid: 'm-4',
      timestamp: '2026-01-14T19:28:38.000Z',
    },
    {
      parentUuid: 'm-4',
      isSidechain: false,
      ...base,
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_write',
            content: 'File created successfully at: /home/dev/cli/SPEC.md',
          },
        ],
      },
      toolUseResult: {
        type: 'create',
        filePath: '/home/dev/cli/SPEC.md',
        content: '# Spec\n',
        originalFile: null,
        structuredPatch: [],
      },
      uuid: 'm-5',
      timestamp: '2026-01-14T19:28:58.000Z',
    },
    {
      parentUuid: 'm-5',
      isSidechain: false,
      ...base,
      type: 'assistant',
      message: {
        id: 'r3',
        role: 'assistant',
        model: 'claude-opus-4-5',
        content: [{ type: 'text', text: 'SPEC.md is written.' }],
      },
      uuid: 'm-6',
      timestamp: '2026-01-14T19:29:11.000Z',
    },
  ];
  const side = { isSidechain: true, agentId: 'a77c0de', ...base };
  const subagent = [
    {
      parentUuid: null,
      ...side,
      type: 'user',
      message: { role: 'user', content: 'List the CLI commands in src/cli/commands.' },
      uuid: 's-1',
      timestamp: '2026-01-14T19:20:14.000Z',
    },
    {
      parentUuid: 's-1',
      ...side,
      type: 'assistant',
      message: {
        id: 'q1',
        role: 'assistant',
        model: 'claude-haiku-4-5',
        content: [{ type: 'text', text: 'There are 9 commands. Next I will write the spec.' }],
      },
      uuid: 's-2',
      timestamp: '2026-01-14T19:26:02.000Z',
    },
  ];
  const file = (name: string, records: Record<string, unknown>[]) => ({
    name,
    data: new TextEncoder().encode(`${records.map(line).join('\n')}\n`),
  });

  async function imported(withSubagent: boolean, torn = false) {
    const { api } = await memoryBrain();
    const files = [file(`${sessionId}.jsonl`, main)];
    // Copied while the agent was writing its next message: the last line stops mid-record.
    if (torn)
      files[0] = {
        name: files[0]!.name,
        data: new TextEncoder().encode(
          `${main.map(line).join('\n')}\n{"parentUuid":"m-6","isSidechain":false,"mess`,
        ),
      };
    if (withSubagent) files.push(file(`${sessionId}/subagents/agent-a77c0de.jsonl`, subagent));
    const { sessions } = await api.importTranscript({ files });
    const id = sessions[0]!.sessionId;
    const [task] = await api.listTasks(id);
    const overview = (await api.sessionsOverview()).sessions.find((s) => s.id === id)!;
    return { task: task!, overview, point: await api.resumePoint(id) };
  }

  it('with the subagent file: the main task is done, the session finished', async () => {
    const { task, overview, point } = await imported(true);
    expect(task.state).toBe('done');
    expect(overview.state).toBe('finished');
    expect(point.firstUnfinishedAction.kind).toBe('done');
  });

  it("the person's instruction and the agent's last words are the main thread's, not the subagent's", async () => {
    const { point } = await imported(true);
    expect(point.checkpoint.latestInstruction?.text).toBe('Write a spec for the missing CLI commands.');
    expect(point.checkpoint.intention?.text).toBe('SPEC.md is written.');
  });

  it('the main file alone ends the same way (control)', async () => {
    const { task } = await imported(false);
    expect(task.state).toBe('done');
  });

  it('a main file cut inside its last record was still being written: running, with or without the subagent', async () => {
    for (const withSubagent of [false, true]) {
      const { task, overview } = await imported(withSubagent, true);
      expect(task.state).toBe('running');
      expect(overview.state).toBe('running');
    }
  });
});

describe('an OpenHands run that ends its turn with a message waits for the person: its work is done', () => {
  // A trajectory file (V0 events): the agent created the page, said so and waited for the person's reply.
  const events = (answered: boolean) => [
    {
      id: 0,
      timestamp: '2025-01-20T20:29:32',
      source: 'user',
      message: 'Make a todo page.',
      action: 'message',
      args: { content: 'Make a todo page.', wait_for_response: false },
    },
    {
      id: 1,
      timestamp: '2025-01-20T20:29:40',
      source: 'agent',
      message: '',
      action: 'edit',
      tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'toolu_1' },
      args: {
        path: '/workspace/todo/index.html',
        command: 'create',
        file_text: '<ul id="todos"></ul>\n',
        thought: 'Create the page.',
      },
    },
    {
      id: 2,
      timestamp: '2025-01-20T20:29:41',
      source: 'agent',
      message: 'I edited the file /workspace/todo/index.html.',
      cause: 1,
      observation: 'edit',
      tool_call_metadata: { function_name: 'str_replace_editor', tool_call_id: 'toolu_1' },
      content: 'File created successfully at: /workspace/todo/index.html',
      extras: {
        path: '/workspace/todo/index.html',
        prev_exist: false,
        old_content: null,
        new_content: '<ul id="todos"></ul>\n',
      },
    },
    ...(answered
      ? [
          {
            id: 3,
            timestamp: '2025-01-20T20:29:50',
            source: 'agent',
            message: 'The page is ready: open index.html.',
            action: 'message',
            args: { content: 'The page is ready: open index.html.', wait_for_response: true },
          },
          {
            id: 4,
            timestamp: '2025-01-20T20:29:50',
            source: 'environment',
            message: '',
            observation: 'agent_state_changed',
            content: '',
            extras: { agent_state: 'awaiting_user_input' },
          },
        ]
      : []),
  ];
  async function run(answered: boolean) {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [
        { name: 'trajectory-7f3e.json', data: new TextEncoder().encode(JSON.stringify(events(answered))) },
      ],
    });
    const [task] = await api.listTasks(sessions[0]!.sessionId);
    return { task: task!, point: await api.resumePoint(sessions[0]!.sessionId) };
  }

  it('done, naming the page; not "go on from where you left off"', async () => {
    const { task, point } = await run(true);
    expect(task.state).toBe('done');
    expect(point.firstUnfinishedAction).toMatchObject({
      kind: 'done',
      // Named from the sandbox workspace, OpenHands' project root (the run states no working directory).
      text: 'The task is done — changed todo/index.html.',
    });
  });

  it('cut after the edit, before any reply: still running (control)', async () => {
    const { task } = await run(false);
    expect(task.state).toBe('running');
  });
});
