/**
 * Cline and Roo task folders against the generators' own record (test/fixtures/transcripts/cline.ts): prompts,
 * tool calls (tags in the text and native calls), files changed, checks; compactions from the ui truncation,
 * Roo's condensation and truncation marker; unknown kinds; a message that is not an object; a broken file.
 */
import { describe, expect, it } from 'vitest';
import { parseClineTask, parseToolTags } from '../../src/core/importers/cline';
import { clineNativeToolTask, generateClineTask, generateRooTask } from '../fixtures/transcripts/cline';
import { memoryBrain } from './engine-helpers';
import { expectTruth } from './import-gemini-truth';

describe('Cline task folders (tool tags in the text)', () => {
  const fixture = generateClineTask();
  const parsed = parseClineTask(fixture.files, { taskId: fixture.taskId });
  const { truth } = fixture;

  it('is long, and every prompt, tool call, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parsed.stats.records).toBe(truth.records);
    expectTruth(parsed.items, truth);
    expect(truth.checks.map((c) => c.status)).toEqual(expect.arrayContaining(['passed', 'failed']));
  });

  it('reads the session from the folder: agent, working directory, times, model, files in context', () => {
    expect(parsed.meta).toMatchObject({
      agent: 'cline',
      sessionId: fixture.taskId,
      cwd: '/home/dev/app',
      model: 'claude-sonnet-4-5',
      version: '3.38.2',
    });
    expect(parsed.meta.startedAt).toBeGreaterThan(Number(fixture.taskId));
    const edited = (parsed.meta.filesInContext ?? [])
      .filter((f) => f.source === 'cline_edited')
      .map((f) => f.path)
      .sort();
    expect(edited).toEqual(truth.filesInContext);
    // Times come from the ui messages said while each api message was the last; the few api messages with no ui
    // counterpart (the retry after the broken message) have none.
    const timed = parsed.items.filter((i) => i.at !== null).length;
    expect(timed / parsed.items.length).toBeGreaterThan(0.95);
  });

  it('turns the ui truncation into a compaction placed before the request it shaped, and counts unknown kinds', () => {
    const compactions = parsed.items.filter((i) => i.kind === 'compaction');
    expect(compactions).toHaveLength(truth.compactions);
    expect(compactions[0]?.kind === 'compaction' && compactions[0]).toMatchObject({
      trigger: 'truncation',
      before: 40,
    });
    expect(parsed.stats.unknown).toEqual(truth.unknown);
    expect(
      parsed.items.filter((i) => i.kind === 'other').map((i) => (i.kind === 'other' ? i.recordType : '')),
    ).toEqual(Object.keys(truth.unknown));
  });

  it('reports the message that is not an object by its index and parses the rest', () => {
    expect(parsed.problems).toEqual(
      truth.malformedLines.map((line) => ({
        line,
        message: 'message is not an object',
        file: 'api_conversation_history.json',
      })),
    );
    expect(parsed.stats.malformed).toBe(1);
  });

  it('keeps a 5 MB output whole and U+FFFD from bytes that were not UTF-8; Cline writes no exit code', () => {
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i.call] : []));
    expect(calls.some((c) => (c.output?.length ?? 0) >= 5 * 1024 * 1024)).toBe(true);
    expect(calls.some((c) => c.output?.includes('\uFFFD'))).toBe(true);
    expect(calls.filter((c) => c.tool === 'execute_command').every((c) => c.exitCode === null)).toBe(true);
  });

  it('still reads the api history when ui_messages.json is cut short, and says which file was', () => {
    const cut = parseClineTask(
      { ...fixture.files, uiMessages: fixture.files.uiMessages.slice(0, 5000) },
      { taskId: fixture.taskId },
    );
    expect(cut.problems[0]).toMatchObject({ line: 1, file: 'ui_messages.json' });
    expect(cut.items.filter((i) => i.kind === 'instruction').length).toBe(truth.prompts.length);
    expect(parseClineTask({ apiConversationHistory: '{"messages": []}' }).problems[0]?.message).toMatch(
      /neither/,
    );
  });
});

describe('Roo task folders ({version: 2, messages}, native tool calls)', () => {
  const fixture = generateRooTask();
  const parsed = parseClineTask(fixture.files, { taskId: fixture.taskId });
  const { truth } = fixture;

  it('is long, and every prompt, tool call, file change and check is accounted for', () => {
    expect(truth.records).toBeGreaterThanOrEqual(200);
    expect(parsed.stats.records).toBe(truth.records);
    expectTruth(parsed.items, truth);
    expect(parsed.meta.agent).toBe('roo');
    expect(parsed.meta.cwd).toBe('/home/dev/app');
  });

  it('reads the exit code Roo writes into the text', () => {
    const shells = parsed.items.flatMap((i) =>
      i.kind === 'tool_call' && i.call.tool === 'execute_command' ? [i.call] : [],
    );
    expect(shells.length).toBeGreaterThan(0);
    expect(shells.every((c) => c.exitCode === (c.output?.includes('Exit code: 1') ? 1 : 0))).toBe(true);
  });

  it('turns the condensation and the truncation marker into compactions, with the summary kept', () => {
    const compactions = parsed.items.flatMap((i) => (i.kind === 'compaction' ? [i] : []));
    expect(compactions.map((c) => c.trigger)).toEqual(['condense', 'truncation']);
    expect(compactions[0]?.summary).toContain('Conversation Summary');
    expect(compactions[0]?.sourceId).toBe('condense-1');
    expect(parsed.stats.unknown).toEqual(truth.unknown);
  });
});

describe('native tool calls in an Anthropic-block history (Cline with native tools, Roo before v2)', () => {
  it('pairs tool_use with tool_result by id, is_error as the error, and keeps a call with no result', () => {
    const api = [
      { role: 'user', content: [{ type: 'text', text: '<task>\nRun the tests\n</task>' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Tests first.' },
          { type: 'text', text: 'Running them.' },
          { type: 'tool_use', id: 't1', name: 'execute_command', input: { command: 'npm test' } },
          { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'missing.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't2',
            is_error: true,
            content: [{ type: 'text', text: 'File not found' }],
          },
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: 'Command executed.\nOutput:\nTests: 3 passed, 3 total',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't3', name: 'execute_command', input: { command: 'npm run build' } },
        ],
      },
    ];
    const parsed = parseClineTask({ apiConversationHistory: JSON.stringify(api) });
    expect(parsed.items.map((i) => [i.kind, i.kind === 'tool_call' ? i.callId : null])).toEqual([
      ['instruction', null],
      ['assistant', null],
      ['assistant', null],
      ['tool_call', 't2'],
      ['tool_call', 't1'],
      ['tool_call', 't3'],
    ]);
    const calls = parsed.items.flatMap((i) => (i.kind === 'tool_call' ? [i.call] : []));
    expect(calls[0]).toEqual({
      tool: 'read_file',
      input: { path: 'missing.ts' },
      output: 'File not found',
      error: 'File not found',
    });
    expect(calls[1]).toMatchObject({
      tool: 'execute_command',
      output: 'Command executed.\nOutput:\nTests: 3 passed, 3 total',
      exitCode: null,
    });
    expect(calls[2]).toEqual({ tool: 'execute_command', input: { command: 'npm run build' } });
    expect(parsed.meta.agent).toBe('cline');
  });
});

describe('tool tags in assistant text', () => {
  it('reads params, keeps a body holding the closing tag of another param, and takes an open tag to the end', () => {
    const { calls, prose } = parseToolTags(
      'Let me write it.\n<write_to_file>\n<path>a.md</path>\n<content>\nx </path> y\n</content>\n</write_to_file>',
    );
    expect(prose).toBe('Let me write it.');
    expect(calls).toEqual([
      { name: 'write_to_file', params: { path: 'a.md', content: 'x </path> y' }, closed: true },
    ]);
    expect(parseToolTags('<execute_command>\n<command>npm te').calls[0]).toEqual({
      name: 'execute_command',
      params: { command: 'npm te' },
      closed: false,
    });
    expect(parseToolTags('<thinking>no tool here</thinking>').calls).toEqual([]);
  });
});

describe('Cline 3.x: native tool calls answered by labelled text results', () => {
  const task = clineNativeToolTask();
  const calls = parseClineTask({ apiConversationHistory: task.text }).items.flatMap((i) =>
    i.kind === 'tool_call' ? [i] : [],
  );

  it('pairs each call with its result: output, exit code, the saved file', () => {
    expect(calls.map((c) => [c.call.tool, c.call.exitCode ?? null, c.call.output !== undefined])).toEqual([
      ['read_file', null, true],
      ['execute_command', 1, true],
      ['replace_in_file', null, true],
      ['replace_in_file', null, true],
      ['execute_command', 0, true],
    ]);
    expect(calls[2]?.files).toEqual([{ path: 'src/app.ts', after: task.after }]);
    expect(calls[3]?.files).toEqual([{ path: 'src/app.ts', after: task.edited }]);
  });

  it('imports: the failed and then passing check; both edits open as diffs — the first from the body told back from the file it saved, the second to the body saved, the person’s', async () => {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [
        { name: '1777073160794/api_conversation_history.json', data: new TextEncoder().encode(task.text) },
      ],
    });
    const point = await api.resumePoint(sessions[0]!.sessionId);
    expect(point.checkpoint.validations.map((v) => [v.command, v.result])).toEqual([['npm test', 'passed']]);
    expect(point.filesChanged.map((f) => [f.path, f.checkpointEntryIds.length])).toEqual([['src/app.ts', 2]]);
    const [task0] = await api.listTasks(sessions[0]!.sessionId);
    const entries = await api.listCheckpoints(task0!.id);
    const bodies = await Promise.all(entries.map((e) => api.readCheckpoint(e.id)));
    // The first edit of a file never read whole: its body before, told back from the saved file (the read tool's
    // numbered lines are not it), is the file as it was.
    expect(bodies.map((b) => [b.before, b.after])).toEqual([
      [task.before, task.after],
      [task.after, task.edited],
    ]);
  });
});

describe('a Cline task resumed in another folder', () => {
  const env = (dir: string) =>
    `<environment_details>\n# Current Working Directory (${dir}) Files\nsrc/\n</environment_details>`;
  const history = (resumed: boolean) => [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<task>\nMove the app.\n</task>' },
        { type: 'text', text: env('/home/dev/shop-old') },
      ],
      ts: 1,
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Looking.' }], ts: 2 },
    ...(resumed
      ? [
          {
            role: 'user',
            content: [
              {
                type: 'text',
                text: "[TASK RESUMPTION] This task was interrupted 3 days ago. The current working directory is now '/home/dev/shop'.",
              },
              { type: 'text', text: env('/home/dev/shop') },
            ],
            ts: 3,
          },
        ]
      : []),
  ];
  it('its working directory is the folder it went on in', () => {
    expect(parseClineTask({ apiConversationHistory: JSON.stringify(history(true)) }).meta.cwd).toBe(
      '/home/dev/shop',
    );
    // Control: not resumed, the first.
    expect(parseClineTask({ apiConversationHistory: JSON.stringify(history(false)) }).meta.cwd).toBe(
      '/home/dev/shop-old',
    );
  });
});

describe('a Cline task on Windows', () => {
  const file = 'c:\\Apps\\shop\\src\\health.ts';
  const history = [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<task>\nAdd a health check.\n</task>' },
        {
          type: 'text',
          text: '<environment_details>\n# Current Working Directory (c:/Apps/shop) Files\nsrc/\n</environment_details>',
        },
      ],
      ts: 1,
    },
    {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'tooluse_w',
          name: 'write_to_file',
          input: { path: file, content: 'export const ok = true;\n' },
          call_id: 'tooluse_w',
        },
      ],
      ts: 2,
    },
    {
      role: 'user',
      content: [
        {
          type: 'text',
          text: `[write_to_file for '${file}'] Result:\nThe content was successfully saved to c:/Apps/shop/src/health.ts.\n\n<final_file_content path="c:/Apps/shop/src/health.ts">\nexport const ok = true;\n\n</final_file_content>\n`,
        },
      ],
      ts: 3,
    },
  ];
  it('its files are named from the project folder, a drive path being absolute', async () => {
    const { api } = await memoryBrain();
    const { sessions } = await api.importTranscript({
      files: [
        {
          name: '1777000000000/api_conversation_history.json',
          data: new TextEncoder().encode(JSON.stringify(history)),
        },
      ],
    });
    const point = await api.resumePoint(sessions[0]!.sessionId);
    expect(point.filesChanged.map((f) => f.path)).toEqual(['src/health.ts']);
  });
});
