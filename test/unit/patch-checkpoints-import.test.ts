/**
 * Patch checkpoints from imported transcripts, in the shapes the agents write: a Claude Code Edit whose result
 * carries `structuredPatch` but no `originalFile` (the body before is not in the transcript) and a Write that
 * created a file; a Codex `apply_patch` whose `patch_apply_end` gives an `Update` as `unified_diff` (hunks only,
 * no file headers, as codex-rs writes them) and an `Add` with the file's content. Every changed file opens as a
 * diff: the created ones with both bodies, the patched ones as their patch; and a patched file rolls back.
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, CheckpointEntry, SessionId } from '../../src/core/api';
import { encode } from '../fixtures/transcripts/claude-code';
import { ClaudeWriter } from '../fixtures/transcripts/claude-code-records';
import { CodexWriter, jsonOutput } from '../fixtures/transcripts/codex-lines';
import { createRandom } from '../helpers/random';
import { memoryBrain } from './engine-helpers';
import { memoryDirectory } from './memory-directory';

const cwd = '/home/dev/projects/ledger';
const moneyBefore = 'def round_money(x):\n    return round(x, 2)\n\n\ndef total(xs):\n    return sum(xs)\n';
const moneyAfter = moneyBefore.replace('round(x, 2)', 'round(x + 0.0, 2)');

async function entriesOf(api: BrainApi, sessionId: SessionId): Promise<CheckpointEntry[]> {
  const out: CheckpointEntry[] = [];
  for (const task of await api.listTasks(sessionId)) out.push(...(await api.listCheckpoints(task.id)));
  return out;
}

/** A Claude Code session: Write creates `src/answer.py`; Edit changes `src/money.py` (no originalFile kept). */
function claudeSession(withPatch: boolean) {
  const w = new ClaudeWriter(
    createRandom(7),
    { sessionId: '3b0f6c1e-2a4d-4e8b-9c71-5d2e8a0f4b36', cwd, version: '2.1.123', gitBranch: 'main' },
    Date.UTC(2026, 10, 20, 9, 0, 0),
  );
  w.user('Add an answer module and make round_money keep the sign of zero.', { parent: null });
  const answer = 'ANSWER = 42\n';
  const call = (name: string, input: Record<string, unknown>, content: string, result: unknown) => {
    const id = w.toolId();
    const uuid = w.assistant({ type: 'tool_use', id, name, input }, w.messageId());
    w.toolResult(id, content, result, uuid);
  };
  const answerPath = `${cwd}/src/answer.py`;
  call('Write', { file_path: answerPath, content: answer }, `File created successfully at: ${answerPath}`, {
    type: 'create',
    filePath: answerPath,
    content: answer,
    structuredPatch: [],
    originalFile: null,
  });
  const moneyPath = `${cwd}/src/money.py`;
  const edit = { file_path: moneyPath, old_string: 'round(x, 2)', new_string: 'round(x + 0.0, 2)' };
  call('Edit', edit, `The file ${moneyPath} has been updated.`, {
    filePath: moneyPath,
    oldString: edit.old_string,
    newString: edit.new_string,
    ...(withPatch
      ? {
          structuredPatch: [
            {
              oldStart: 1,
              oldLines: 3,
              newStart: 1,
              newLines: 3,
              lines: [
                ' def round_money(x):',
                '-    return round(x, 2)',
                '+    return round(x + 0.0, 2)',
                ' ',
              ],
            },
          ],
        }
      : {}),
    userModified: false,
    replaceAll: false,
  });
  w.assistant({ type: 'text', text: 'Done: added src/answer.py and fixed round_money.' }, w.messageId());
  return {
    name: '3b0f6c1e-2a4d-4e8b-9c71-5d2e8a0f4b36.jsonl',
    data: encode(`${w.lines.join('\n')}\n`),
    answer,
  };
}

/** A Codex rollout: one apply_patch that adds `src/new.py` and updates `src/q.py` (a hunks-only diff). */
function codexRollout() {
  const w = new CodexWriter(createRandom(9), Date.UTC(2026, 10, 21, 8, 0, 0));
  const id = w.uuid7();
  w.line('session_meta', {
    id,
    timestamp: w.time(1),
    cwd,
    originator: 'codex_cli_rs',
    cli_version: '0.128.0',
  });
  w.userItem('Fix negative rounding and add a helper.');
  w.userEvent('Fix negative rounding and add a helper.');
  const newBody = 'def sign(x):\n    return -1 if x < 0 else 1\n';
  const input =
    '*** Begin Patch\n*** Add File: src/new.py\n+def sign(x):\n+    return -1 if x < 0 else 1\n' +
    '*** Update File: src/q.py\n@@\n-    return round(x, 2)\n+    return math.copysign(round(abs(x), 2), x)\n*** End Patch\n';
  const callId = w.id('call_');
  w.item({ type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input });
  const stdout = 'Success. Updated the following files:\nA src/new.py\nM src/q.py\n';
  const changes = {
    [`${cwd}/src/new.py`]: { type: 'add', content: newBody },
    [`${cwd}/src/q.py`]: {
      type: 'update',
      unified_diff:
        '@@ -2,3 +2,3 @@\n def round_quantity(x):\n-    return round(x, 2)\n+    return math.copysign(round(abs(x), 2), x)\n \n',
      move_path: null,
    },
  };
  w.event({
    type: 'patch_apply_end',
    call_id: callId,
    turn_id: 't',
    stdout,
    stderr: '',
    success: true,
    changes,
    status: 'completed',
  });
  w.output(callId, jsonOutput(0, stdout), true);
  w.assistantItem('Fixed.');
  w.assistantEvent('Fixed.');
  return {
    name: `rollout-2026-11-21T08-00-00-${id}.jsonl`,
    data: encode(`${w.lines.join('\n')}\n`),
    newBody,
  };
}

describe('patch checkpoints from imported transcripts', () => {
  it('Claude Code: the created file has both bodies, the Edit without its original file is kept as its patch', async () => {
    const { api } = await memoryBrain();
    const file = claudeSession(true);
    const [session] = (await api.importTranscript({ files: [file] })).sessions;
    const entries = await entriesOf(api, session!.sessionId);
    expect(entries.map((e) => [e.path, e.before.kind, e.after.kind])).toEqual([
      ['src/answer.py', 'absent', 'text'],
      ['src/money.py', 'unknown', 'unknown'],
    ]);
    expect(await api.readCheckpoint(entries[0]!.id)).toMatchObject({ before: null, after: file.answer });
    const diff = await api.diffCheckpoint(entries[1]!.id);
    expect(diff).toMatchObject({ kind: 'patch', added: 1, removed: 1 });
    expect(diff.patch).toBe(
      '--- a/src/money.py\n+++ b/src/money.py\n@@ -1,3 +1,3 @@\n def round_money(x):\n' +
        '-    return round(x, 2)\n+    return round(x + 0.0, 2)\n \n',
    );

    // The patched file rolls back in a folder holding the project.
    const dir = memoryDirectory('ledger', { 'src/money.py': moneyAfter, 'src/answer.py': file.answer });
    await api.openProject({ kind: 'handle', handle: dir.handle });
    const plan = await api.planRestore({ taskId: session!.taskId });
    expect(plan.files.map((f) => [f.path, f.state, f.action])).toEqual([
      ['src/answer.py', 'clean', 'delete'],
      ['src/money.py', 'clean', 'write'],
    ]);
    await api.restoreCheckpoints({
      target: plan.target,
      files: plan.files.map((f) => ({ path: f.path, expectedVersion: f.currentVersion })),
    });
    expect(new TextDecoder().decode(dir.bytes('src/money.py')!)).toBe(moneyBefore);
    expect(dir.bytes('src/answer.py')).toBeNull();
  });

  it('control: the same Edit without structuredPatch leaves its file with no entry', async () => {
    const { api } = await memoryBrain();
    const [session] = (await api.importTranscript({ files: [claudeSession(false)] })).sessions;
    expect((await entriesOf(api, session!.sessionId)).map((e) => e.path)).toEqual(['src/answer.py']);
  });

  it('Codex: the added file has both bodies, the update is kept as its unified_diff', async () => {
    const { api } = await memoryBrain();
    const file = codexRollout();
    const [session] = (await api.importTranscript({ files: [file] })).sessions;
    const entries = await entriesOf(api, session!.sessionId);
    const byPath = new Map(entries.map((e) => [e.path, e]));
    expect([...byPath.keys()].sort()).toEqual(['src/new.py', 'src/q.py']);
    expect(await api.readCheckpoint(byPath.get('src/new.py')!.id)).toMatchObject({
      before: null,
      after: file.newBody,
    });
    expect(byPath.get('src/q.py')).toMatchObject({
      before: { kind: 'unknown' },
      patch: { size: expect.any(Number) },
    });
    const diff = await api.diffCheckpoint(byPath.get('src/q.py')!.id);
    expect(diff).toMatchObject({ kind: 'patch', added: 1, removed: 1 });
    expect(diff.patch.split('\n').slice(0, 3)).toEqual([
      '--- a/src/q.py',
      '+++ b/src/q.py',
      '@@ -2,3 +2,3 @@',
    ]);
  });
});
