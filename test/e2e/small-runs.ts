/** Small imported runs for the sessions list's 1,000-session test (sessions-list.e2e.ts): two agents, eight folders. */
import { generateAutosubmittedSweAgentRun } from '../fixtures/transcripts/swe-bench-run';

/** A small mini-swe-agent run: a task, two commands; submitted, stopped by its step limit, or cut (i % 3). */
export function miniRun(i: number): { name: string; text: string } {
  const t0 = Date.UTC(2026, 9, 1) / 1000 + i * 3600;
  const id = `acme__parser-issue-${i}`;
  const call = (command: string, at: number) => ({
    role: 'assistant',
    content: `THOUGHT: Next.\n\n\`\`\`mswea_bash_command\n${command}\n\`\`\``,
    extra: { actions: [{ command }], timestamp: at },
  });
  const output = (text: string, at: number) => ({
    role: 'user',
    content: `<returncode>0</returncode>\n<output>\n${text}</output>`,
    extra: { raw_output: text, returncode: 0, timestamp: at },
  });
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant that can interact with a computer.', extra: {} },
    {
      role: 'user',
      content: `The parser drops the last line of input ${i} when it has no newline.`,
      extra: {},
    },
    call('cat src/parser.py', t0 + 1),
    output('def parse(text):\n    return text.splitlines()[:-1]\n', t0 + 2),
    call("sed -i 's/\\[:-1\\]//' src/parser.py", t0 + 40 + (i % 50)),
    output('', t0 + 41 + (i % 50)),
  ];
  const end = i % 3;
  const submission = 'diff --git a/src/parser.py b/src/parser.py\n';
  if (end === 0) {
    const submit = 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached';
    messages.push(call(submit, t0 + 95 + (i % 50)));
    messages.push({ role: 'exit', content: 'Submitted', extra: { exit_status: 'Submitted', submission } });
  } else if (end === 1) {
    messages.push({ role: 'exit', content: 'LimitsExceeded', extra: { exit_status: 'LimitsExceeded' } });
  }
  const doc = {
    info: {
      config: { environment: { cwd: `/home/dev/service-${i % 8}` } },
      exit_status: end === 0 ? 'Submitted' : end === 1 ? 'LimitsExceeded' : null,
      submission: end === 0 ? submission : null,
    },
    messages,
    trajectory_format: 'mini-swe-agent-1.1',
  };
  return { name: `${id}/${id}.traj.json`, text: JSON.stringify(doc) };
}

/** A small SWE-agent run, submitted or stopped at its cost limit. */
export function sweRun(i: number): { name: string; text: string } {
  const base = generateAutosubmittedSweAgentRun(i % 2 === 0);
  const text = base.text
    .replaceAll('django__django-99999', `django__django-${i}`)
    .replace('"submitted (exit_cost)"', '"exit_cost"');
  return { name: `django__django-${i}.traj`, text };
}
