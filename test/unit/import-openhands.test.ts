/**
 * OpenHands V1 conversation folders against the generator's own record (test/fixtures/transcripts/openhands.ts):
 * prompts, tool calls, files changed and checks; the Condensation, the branch (a rewind), the unknown kind, the
 * event file cut short (named, the rest read), exit codes and the editor's bodies, an action with no observation;
 * and the V0 events as one trajectory file (OpenHands' "Download trajectory", `save_trajectory_path`).
 */
import { describe, expect, it } from 'vitest';
import { parseOpenHandsConversation, parseOpenHandsTrajectory } from '../../src/core/importers/openhands';
import { detectFormat } from '../../src/core/importers/registry';
import {
  generateOpenHandsConversation,
  generateOpenHandsTrajectory,
  generateOpenHandsV0Session,
} from '../fixtures/transcripts/openhands';
import { memoryBrain } from './engine-helpers';
import { expectTruth } from './import-gemini-truth';

describe('OpenHands V1 conversations', () => {
  const fixture = generateOpenHandsConversation();
  const { truth } = fixture;
  // The folder as a picker hands it over: in no particular order.
  const parsed = parseOpenHandsConversation([...fixture.files].reverse());

  it('is long, and every prompt, tool call, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parsed.stats.records).toBe(truth.records);
    expectTruth(parsed.items, truth);
    expect(truth.checks.map((c) => c.status)).toEqual(expect.arrayContaining(['passed', 'failed']));
  });

  it('reads the session from base_state.json and the times as UTC', () => {
    expect(parsed.meta).toMatchObject({
      agent: 'openhands',
      sessionId: fixture.conversationId,
      cwd: '/workspace/project',
      model: 'litellm_proxy/claude-sonnet-4-5-20250929',
    });
    expect(parsed.meta.startedAt).toBeGreaterThan(Date.UTC(2026, 10, 23, 10, 0, 0));
    expect(parsed.meta.startedAt).toBeLessThan(Date.UTC(2026, 10, 23, 10, 1, 0));
  });

  it('turns the Condensation into a compaction with its summary and the count it forgot; the branch into a rewind', () => {
    const compactions = parsed.items.flatMap((i) => (i.kind === 'compaction' ? [i] : []));
    expect(compactions).toHaveLength(truth.compactions);
    expect(compactions[0]).toMatchObject({ trigger: 'condenser', before: 59 });
    expect(compactions[0]?.summary).toContain('PENDING: tests.');
    const rewinds = parsed.items.flatMap((i) => (i.kind === 'rewind' ? [i] : []));
    expect(rewinds.map((r) => [r.toSourceId, r.inclusive])).toEqual(truth.rewinds.map((id) => [id, false]));
  });

  it('counts the unknown kind, skips the bookkeeping ones, and names the event file that was cut short', () => {
    expect(parsed.stats.unknown).toEqual(truth.unknown);
    expect(parsed.stats.skipped).toMatchObject({ SystemPromptEvent: 1, CondensationRequest: 1 });
    expect(parsed.problems.map((p) => p.line)).toEqual(truth.malformedLines);
    const bad = fixture.files.find((f) => f.text.endsWith('"kind": "Act'));
    expect(parsed.problems[0]?.file).toBe(bad?.name);
  });

  it('keeps exit codes, the editor bodies, a 5 MB output and U+FFFD; an action with no observation has no result', () => {
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i] : []));
    const terminal = calls.filter((c) => c.call.tool === 'terminal' && c.call.output !== undefined);
    expect(
      terminal.every((c) => c.call.exitCode === (c.call.output?.includes('exit code 1.]') ? 1 : 0)),
    ).toBe(true);
    const created = calls.find(
      (c) => c.call.tool === 'file_editor' && (c.call.input as { command?: string }).command === 'create',
    );
    expect(created?.files?.[0]).toMatchObject({ before: null });
    const edited = calls.find(
      (c) =>
        c.call.tool === 'file_editor' && (c.call.input as { command?: string }).command === 'str_replace',
    );
    expect(edited?.files?.[0]?.before).toContain('max_length=50');
    expect(calls.find((c) => c.callId === truth.bigOutputCall)?.call.output?.length).toBeGreaterThanOrEqual(
      5 * 1024 * 1024,
    );
    expect(calls.find((c) => c.callId === truth.replacementCharCall)?.call.output).toContain('\uFFFD');
    const open = calls.find((c) => c.callId === truth.openCall);
    expect(open?.call).toEqual({
      tool: 'terminal',
      input: { command: 'python manage.py runserver', is_input: false, timeout: null, reset: false },
    });
    expect(calls.at(-1)?.callId).toBe(truth.openCall);
  });
});

describe('OpenHands V0 sessions (events/<id>.json: actions and observations)', () => {
  const fixture = generateOpenHandsV0Session();
  const { truth } = fixture;
  const parsed = parseOpenHandsConversation([...fixture.files].reverse());

  it('is long, and every prompt, tool call, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parsed.stats.records).toBe(truth.records);
    expectTruth(parsed.items, truth);
    expect(truth.checks.map((c) => c.status)).toEqual(expect.arrayContaining(['passed', 'failed']));
  });

  it('pairs observations by cause: exit codes, editor bodies, errors and rejections; the session from metadata.json', () => {
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i] : []));
    const runs = calls.filter((c) => c.call.tool === 'execute_bash' && c.call.error === undefined);
    expect(runs.every((c) => c.call.exitCode === (c.call.output?.includes('exit code 1.]') ? 1 : 0))).toBe(
      true,
    );
    expect(calls.some((c) => c.call.error?.startsWith('Action has been rejected'))).toBe(true);
    expect(calls.some((c) => c.call.error?.includes('No replacement was performed'))).toBe(true);
    expect(calls.find((c) => c.files !== undefined)?.files?.[0]?.before).toMatch(/^class Meta/);
    expect(calls.find((c) => c.callId === truth.bigOutputCall)?.call.output?.length).toBeGreaterThanOrEqual(
      5 * 1024 * 1024,
    );
    expect(calls.find((c) => c.callId === truth.replacementCharCall)?.call.output).toContain('\uFFFD');
    expect(parsed.meta).toMatchObject({
      agent: 'openhands',
      sessionId: fixture.conversationId,
      title: 'Paginate the post list',
      model: 'anthropic/claude-sonnet-4-20250514',
      cwd: '/workspace',
    });
  });

  it('turns the condensation into a compaction, counts the unknown action, names the file cut short', () => {
    const compactions = parsed.items.flatMap((i) => (i.kind === 'compaction' ? [i] : []));
    expect(compactions).toHaveLength(truth.compactions);
    expect(compactions[0]).toMatchObject({
      trigger: 'condenser',
      before: 78,
      summary: expect.stringContaining('paginated'),
    });
    expect(parsed.stats.unknown).toEqual(truth.unknown);
    expect(parsed.stats.skipped).toMatchObject({
      'action:system': 1,
      'observation:agent_state_changed': truth.prompts.length,
    });
    expect(parsed.problems.map((p) => [p.line, p.file])).toEqual(
      truth.malformedLines.map((line) => [
        line,
        `sessions/${fixture.conversationId}/events/${line - 1}.json`,
      ]),
    );
  });
});

describe('OpenHands trajectory files (the V0 events as one JSON array)', () => {
  const { session, name, text } = generateOpenHandsTrajectory();
  const folder = parseOpenHandsConversation(session.files);
  const withoutLines = (items: readonly unknown[]) =>
    items.map((i) => ({ ...(i as Record<string, unknown>), line: 0, sourceId: null }));

  it("is detected by its content, as an array or as the API's {trajectory: […]}", () => {
    expect(detectFormat(name, text.slice(0, 65536))?.id).toBe('openhands-trajectory');
    const wrapped = generateOpenHandsTrajectory(61, true);
    expect(detectFormat('x.json', wrapped.text.slice(0, 65536))?.id).toBe('openhands-trajectory');
    // Control: an array of something else is not claimed.
    expect(detectFormat('x.json', '[{"id": 0, "name": "a"}]')).toBeNull();
  });

  it('reads the same run as the session folder: prompts, calls, exit codes, edits, the condensation', () => {
    const parsed = parseOpenHandsTrajectory(text, name);
    expect(parsed.problems).toEqual([]);
    expect(parsed.stats.records).toBe(session.truth.records - session.truth.malformedLines.length);
    expect(withoutLines(parsed.items)).toEqual(withoutLines(folder.items));
    expect(parsed.meta).toMatchObject({
      agent: 'openhands',
      sessionId: session.conversationId,
      cwd: '/workspace',
    });
    const wrapped = generateOpenHandsTrajectory(61, true);
    expect(withoutLines(parseOpenHandsTrajectory(wrapped.text).items)).toEqual(withoutLines(parsed.items));
  });

  it('a run with no command (so no working directory said) lists its files from the sandbox workspace', async () => {
    // The shape of OpenHands' own "basic" trajectory: a prompt, one file created by the editor, finish.
    const editAt = '2025-01-27T22:45:13.764487';
    const run = (path: string) => [
      {
        id: 0,
        timestamp: '2025-01-27T22:44:56.900854',
        source: 'user',
        message: 'Make a 2048 game.',
        action: 'message',
        args: { content: 'Make a 2048 game.', image_urls: null, wait_for_response: false },
      },
      {
        id: 3,
        timestamp: editAt,
        source: 'agent',
        message: '',
        action: 'edit',
        args: { path, content: '', start: 1, end: -1, thought: 'Creating it.', impl_source: 'oh_aci' },
      },
      {
        id: 4,
        timestamp: editAt,
        source: 'agent',
        message: `I edited the file ${path}.`,
        cause: 3,
        observation: 'edit',
        content: `--- ${path}\n+++ ${path}\n@@ -0,0 +1 @@\n+import random\n`,
        extras: {
          path,
          prev_exist: false,
          old_content: null,
          new_content: 'import random\n',
          impl_source: 'oh_aci',
        },
      },
      {
        id: 5,
        timestamp: '2025-01-27T22:45:18.405685',
        source: 'agent',
        message: 'Done.',
        action: 'finish',
        args: { final_thought: 'Done.', outputs: {}, thought: '' },
      },
    ];
    const filesOf = async (path: string) => {
      const { api } = await memoryBrain();
      const text = JSON.stringify(run(path));
      expect(parseOpenHandsTrajectory(text).meta.cwd).toBe(
        path.startsWith('/workspace/') ? '/workspace' : null,
      );
      const [s] = (
        await api.importTranscript({ files: [{ name: 'basic.json', data: new TextEncoder().encode(text) }] })
      ).sessions;
      return (await api.resumePoint(s!.sessionId)).filesChanged.map((f) => f.path);
    };
    expect(await filesOf('/workspace/game_2048.py')).toEqual(['game_2048.py']);
    // Control: a file outside the workspace says no root, and keeps its own path.
    expect(await filesOf('/tmp/game_2048.py')).toEqual(['/tmp/game_2048.py']);
  });

  it('imports: every file the run changed is listed, its checks recorded', async () => {
    const { api } = await memoryBrain();
    const [imported] = (
      await api.importTranscript({ files: [{ name, data: new TextEncoder().encode(text) }] })
    ).sessions;
    expect(imported).toMatchObject({ format: 'openhands-trajectory', agent: 'openhands' });
    const point = await api.resumePoint(imported!.sessionId);
    expect(point.filesChanged.map((f) => f.path).sort()).toEqual(
      session.truth.filesChanged.map((p) => p.replace('/workspace/', '')).sort(),
    );
    expect(point.checkpoint.validations.map((v) => v.command)).toContain('python manage.py test posts');
  });
});
