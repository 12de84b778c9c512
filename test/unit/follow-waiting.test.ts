/**
 * A followed transcript whose last call has no result yet: the agent is running it, or stopped mid-call. The
 * brain holds the call only once its result comes (a follower never writes a call it may still get the result
 * of), so the followed file says which calls wait, with the command and when the agent made them — and says
 * nothing once the result came. Claude Code and Codex, on real wa-sqlite.
 */
import { describe, expect, it } from 'vitest';
import { ClaudeWriter } from '../fixtures/transcripts/claude-code-records';
import { createRandom } from '../helpers/random';
import { memoryBrain } from './engine-helpers';
import { GrowingFolder } from './follow-folder';
import {
  codexCall,
  codexMeta,
  codexOutput,
  codexPrompt,
  jsonLines,
} from '../fixtures/transcripts/codex-records';

const encode = (text: string) => new TextEncoder().encode(`${text}\n`);
const env = {
  sessionId: '7f3c2a10-0000-4000-a000-000000000001',
  cwd: '/home/dev/shop',
  version: '2.1.9',
  gitBranch: 'main',
};

/** A prompt, then a Bash call; its result comes as a second piece. */
function claudeCall() {
  const w = new ClaudeWriter(createRandom(5), env, Date.UTC(2026, 11, 5, 9, 0, 0));
  w.user('Run the tests and fix what fails.');
  const id = w.toolId();
  const assistant = w.assistant(
    {
      type: 'tool_use',
      id,
      name: 'Bash',
      input: { command: 'pytest -x tests/test_cart.py', description: 'Run the cart tests' },
    },
    w.messageId(),
  );
  const calledAt = w.lastAt;
  const head = w.lines.splice(0).join('\n');
  w.toolResult(
    id,
    '3 passed in 0.21s',
    { stdout: '3 passed in 0.21s', stderr: '', interrupted: false },
    assistant,
  );
  return {
    name: `${env.sessionId}.jsonl`,
    head,
    rest: w.lines.join('\n'),
    calledAt,
    command: 'pytest -x tests/test_cart.py',
  };
}

/** A Codex rollout: its meta, a prompt, an exec_command call; its output comes as a second piece. */
function codexRun() {
  const at = (s: number) => new Date(Date.UTC(2026, 11, 5, 9, 0, s)).toISOString();
  const head = [
    codexMeta('0190c0de-0000-7000-8000-000000000002', at(0), '/home/dev/shop', '0.46.0'),
    codexPrompt('Run the tests.', at(1)),
    codexCall('exec_command', { cmd: 'npm test -- cart' }, 'call_cart1', at(2)),
  ];
  const rest = [codexOutput('call_cart1', 'Process exited with code 0\nOutput:\n3 passed\n', at(9))];
  return {
    name: 'rollout-2026-12-05T09-00-00-0190c0de-0000-7000-8000-000000000002.jsonl',
    head: jsonLines(head),
    rest: jsonLines(rest),
    calledAt: Date.parse(at(2)),
    command: 'npm test -- cart',
  };
}

describe('a followed call still waiting for its result', () => {
  it.each([
    ['claude-code', claudeCall, 'Bash'],
    ['codex', codexRun, 'exec_command'],
  ])(
    '%s: the file says which call waits, since when, and nothing once its result came',
    async (_, make, tool) => {
      const file = make();
      const { api } = await memoryBrain({ follow: { autoPoll: false } });
      const folder = new GrowingFolder('sessions');
      const { id } = await api.followFolder({ handle: folder.handle() });
      folder.append(file.name, encode(file.head));
      await api.pollFollowedFolder(id);
      const [waiting] = (await api.listFollowedFolders())[0]!.files;
      expect(waiting!.waiting).toEqual([{ tool, what: file.command, since: file.calledAt }]);
      // Not in the brain yet: no step until the result comes.
      const sessionId = waiting!.sessionId!;
      const [task] = await api.listTasks(sessionId);
      expect(await api.listSteps(task!.id)).toEqual([]);

      folder.append(file.name, encode(file.rest));
      await api.pollFollowedFolder(id);
      const [done] = (await api.listFollowedFolders())[0]!.files;
      expect(done!.waiting).toEqual([]);
      expect((await api.listSteps(task!.id)).map((s) => s.tool)).toEqual([tool]);
    },
  );

  it('after a reload, the first look finds the call waiting again (read from the saved resume point)', async () => {
    const file = claudeCall();
    const { api } = await memoryBrain({ follow: { autoPoll: false } });
    const folder = new GrowingFolder('sessions');
    const { id } = await api.followFolder({ handle: folder.handle() });
    folder.append(file.name, encode(file.head));
    await api.pollFollowedFolder(id);
    expect((await api.listFollowedFolders())[0]!.files[0]!.waiting).toHaveLength(1);
    // A reload: the worker's parser is gone, the handle given back with the follow's id; before its first look the
    // tab cannot know what waits.
    await api.followFolder({ handle: folder.handle(), id });
    expect((await api.listFollowedFolders())[0]!.files[0]!.waiting).toEqual([]);
    await api.pollFollowedFolder(id);
    expect((await api.listFollowedFolders())[0]!.files[0]!.waiting).toEqual([
      { tool: 'Bash', what: file.command, since: file.calledAt },
    ]);
  });
});
