/**
 * The scripted model's script: each answer decided from the conversation it receives — the tool calls made and
 * their results, or, after a restart, the resume prompt alone (the plan's step ids and states, the checks that
 * passed). Used by scripted-model.ts.
 */
export interface Msg {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

export type Call = { name: string; args: Record<string, unknown> };
export type Reply = { content: string | null; calls: Call[] };

const passedLine = /passed, nothing changed since — do not run again: run_check/;

/** The tool calls made in this conversation with their results, in order. */
function history(messages: Msg[]) {
  const results = new Map(
    messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content ?? '']),
  );
  return messages.flatMap((m) =>
    (m.tool_calls ?? []).map((c) => ({ name: c.function.name, result: results.get(c.id) ?? '' })),
  );
}

const planIds = (text: string) => [...text.matchAll(/\(planStepId (\d+)\)/g)].map((m) => Number(m[1]));

/** Before the reload: the first part of the work, one answer per step. */
function firstPart(done: ReturnType<typeof history>, answers: number): Reply | null {
  const plan = planIds(done.find((c) => c.name === 'create_plan')?.result ?? '');
  const find = (name: string) => done.find((c) => c.name === name)?.result ?? '';
  const eventId = (name: string) => Number(/event (\d+)/.exec(find(name))?.[1]);
  const script: Reply[] = [
    {
      content: 'First, what the project memory says.',
      calls: [{ name: 'read_memory', args: { file: 'PROJECT_MEMORY.md' } }],
    },
    {
      content: 'A plan before changing anything.',
      calls: [
        {
          name: 'create_plan',
          args: {
            goal: 'Every test in test/ passes',
            steps: [
              { what: 'Reproduce the failing test', why: 'See what fails' },
              { what: 'Fix sum', why: 'The test expects addition' },
              { what: 'Document the fix in README.md', why: 'Optional' },
            ],
          },
        },
      ],
    },
    { content: null, calls: [{ name: 'start_plan_step', args: { planStepId: plan[0] } }] },
    {
      content: 'Looking at the files.',
      calls: [
        { name: 'list_files', args: {} },
        { name: 'read_file', args: { path: 'src/sum.js' } },
        { name: 'read_file', args: { path: 'test/sum.test.js' } },
      ],
    },
    { content: 'Running the tests to see the failure.', calls: [{ name: 'run_check', args: {} }] },
    { content: null, calls: [{ name: 'ask_question', args: { text: 'Should sum accept strings too?' } }] },
    {
      content: null,
      calls: [
        {
          name: 'answer_question',
          args: { questionId: eventId('ask_question'), text: 'Numbers only (README).' },
        },
      ],
    },
    { content: null, calls: [{ name: 'raise_blocker', args: { text: 'sum subtracts: is that intended?' } }] },
    {
      content: null,
      calls: [
        {
          name: 'resolve_blocker',
          args: { blockerId: eventId('raise_blocker'), text: 'The comment says it adds.' },
        },
      ],
    },
    {
      content: null,
      calls: [
        { name: 'record_decision', args: { text: 'Fix sum to add', why: 'Its comment and tests say so' } },
      ],
    },
    {
      content: null,
      calls: [
        { name: 'complete_plan_step', args: { planStepId: plan[0], note: 'sum(2, 3) gives -1' } },
        { name: 'start_plan_step', args: { planStepId: plan[1] } },
      ],
    },
    {
      content: 'Fixing the operator.',
      calls: [
        {
          name: 'edit_file',
          args: { path: 'src/sum.js', old_string: 'return a - b;', new_string: 'return a + b;' },
        },
      ],
    },
    {
      content: 'And a test for negatives.',
      calls: [
        {
          name: 'write_file',
          args: {
            path: 'test/negative.test.js',
            content:
              "const { sum } = require('../src/sum.js');\n\ntest('negatives', () => {\n  assert.equal(sum(-1, -2), -3);\n});\n",
          },
        },
      ],
    },
    { content: null, calls: [{ name: 'run_check', args: {} }] },
    {
      content: null,
      calls: [{ name: 'complete_plan_step', args: { planStepId: plan[1], note: 'All tests pass' } }],
    },
    {
      content: null,
      calls: [
        { name: 'note_progress', args: { text: 'sum fixed; all tests pass', next: 'Skip the README step' } },
      ],
    },
  ];
  return script[answers] ?? null;
}

/** After the first part (in the same conversation or from the resume prompt): wrap up. */
function lastPart(done: ReturnType<typeof history>, skipId: number | undefined, checkPassed: boolean): Reply {
  const called = (name: string) => done.some((c) => c.name === name);
  if (!checkPassed && !called('run_check'))
    return { content: 'The check has not passed yet.', calls: [{ name: 'run_check', args: {} }] };
  if (!called('skip_plan_step'))
    return {
      content: null,
      calls: [{ name: 'skip_plan_step', args: { planStepId: skipId, reason: 'The README needs no change' } }],
    };
  if (!called('search_history'))
    return { content: null, calls: [{ name: 'search_history', args: { query: 'sum subtracts' } }] };
  if (!called('read_resume_point'))
    return { content: null, calls: [{ name: 'read_resume_point', args: {} }] };
  const memory = [...done].reverse().find((c) => c.name === 'read_memory');
  if (!memory)
    return { content: null, calls: [{ name: 'read_memory', args: { file: 'PROJECT_MEMORY.md' } }] };
  if (!called('write_memory')) {
    const version = /\(version (.+?), \d+ characters\)/.exec(memory.result)?.[1] ?? null;
    return {
      content: null,
      calls: [
        {
          name: 'write_memory',
          args: {
            file: 'PROJECT_MEMORY.md',
            text: '# Project memory\n\n- run_check runs test/*.test.js.\n',
            expectedVersion: version,
          },
        },
      ],
    };
  }
  if (!called('draft_skill'))
    return { content: null, calls: [{ name: 'draft_skill', args: { name: 'fix-a-failing-test' } }] };
  return { content: 'Done: sum adds, every test passes.', calls: [] };
}

/** `distrustful`: after a restart it runs the check again whatever the handoff says (the page must refuse). */
export function decide(messages: Msg[], distrustful = false): Reply {
  const first = messages.find((m) => m.role === 'user')?.content ?? '';
  const done = history(messages);
  const answers = messages.filter((m) => m.role === 'assistant').length;
  if (first.includes('# Resuming session')) {
    // Where it stands comes from the handoff alone: the plan's last step id and whether the check passed.
    const ids = planIds(first.split('## Plan')[1]?.split('\n## ')[0] ?? '');
    return lastPart(done, ids.at(-1), !distrustful && passedLine.test(first));
  }
  const next = firstPart(done, answers);
  if (next) return next;
  return lastPart(done, planIds(done.find((c) => c.name === 'create_plan')?.result ?? '').at(-1), false);
}
