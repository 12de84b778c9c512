/**
 * brainTools / callBrainTool on the real engine (wa-sqlite in Node, memory VFS): every tool called with the input a
 * model would send, its result read as the model reads it, and bad inputs answered with what to fix. Every schema
 * is checked against the JSON Schema meta-schemas (draft-07 and 2020-12, by ajv) — the contract a model sees.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import {
  brainToolNames,
  brainTools,
  callBrainTool,
  type BrainToolResult,
} from '../../src/lib/model-tools/index';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

const ok = (result: BrainToolResult) => {
  expect(result.ok, result.text).toBe(true);
  return result.text;
};
const idIn = (text: string, label: string) => Number(new RegExp(`${label} (\\d+)`).exec(text)?.[1]);

async function brainWithTask() {
  const { api } = await memoryBrain({ memoryFiles: fakeMemoryFiles().provider });
  const { id: sessionId } = await api.startSession({ title: 'CSV export' });
  const { id: taskId } = await api.startTask({ sessionId, title: 'Add CSV export to reports' });
  return { api, sessionId, taskId };
}

describe('tool definitions', () => {
  it('are valid JSON Schemas (draft-07 and 2020-12), closed objects, in both shapes', async () => {
    const { api } = await brainWithTask();
    const tools = brainTools(api);
    expect(tools.names).toEqual(brainToolNames);
    expect(tools.names).toHaveLength(15);
    const drafts = [new Ajv({ strict: true }), new Ajv2020({ strict: true })];
    for (const [i, tool] of tools.anthropic.entries()) {
      for (const ajv of drafts)
        expect(ajv.validateSchema(tool.input_schema), `${tool.name}: ${ajv.errorsText()}`).toBe(true);
      expect(tool.input_schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description.length).toBeGreaterThan(120);
      expect(tools.openai[i]).toEqual({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
      });
      // Every schema compiles and accepts what it should: an object with its required properties.
      expect(() => drafts[1]!.compile(tool.input_schema)).not.toThrow();
    }
  });

  it('a bound session and task leave the schemas and are filled in', async () => {
    const { api, sessionId, taskId } = await brainWithTask();
    const tools = brainTools(api, { sessionId, taskId, only: ['record_decision', 'note_progress'] });
    expect(tools.names).toEqual(['record_decision', 'note_progress']);
    const decision = tools.anthropic[0]!.input_schema;
    expect(Object.keys(decision.properties)).toEqual(['text', 'why', 'supersedes']);
    expect(decision.required).toEqual(['text']);
    ok(await tools.call('record_decision', '{"text":"Quote every field"}'));
    const [event] = await api.listEvents(sessionId, { kinds: ['decision'] });
    expect(event).toMatchObject({ kind: 'decision', text: 'Quote every field', taskId });
    const refused = await tools.call('raise_blocker', { text: 'x' });
    expect(refused).toMatchObject({ ok: false, code: 'UnknownTool' });
    expect(refused.text).toContain('record_decision, note_progress');
  });
});

describe('every tool on the real engine', () => {
  it('decisions, blockers, questions, progress', async () => {
    const { api, sessionId, taskId } = await brainWithTask();
    const first = ok(
      await callBrainTool(api, 'record_decision', { sessionId, text: 'Hand-written quoting' }),
    );
    const firstId = idIn(first, 'event');
    const second = ok(
      await callBrainTool(api, 'record_decision', {
        sessionId,
        taskId,
        text: 'Use papaparse for quoting',
        why: 'RFC 4180 edge cases',
        supersedes: firstId,
      }),
    );
    expect(second).toContain(`replacing decision ${firstId}`);
    const blocker = idIn(
      ok(await callBrainTool(api, 'raise_blocker', { sessionId, text: 'npm is down' })),
      'event',
    );
    const question = idIn(
      ok(await callBrainTool(api, 'ask_question', { sessionId, text: 'Semicolons or commas?' })),
      'event',
    );
    ok(await callBrainTool(api, 'answer_question', { sessionId, questionId: question, text: 'Commas' }));
    let resume = ok(await callBrainTool(api, 'read_resume_point', { sessionId }));
    expect(resume).toContain(`npm is down (blockerId ${blocker})`);
    expect(resume).toContain('Use papaparse for quoting — because RFC 4180 edge cases');
    expect(resume).not.toContain('Hand-written quoting');
    ok(await callBrainTool(api, 'resolve_blocker', { sessionId, blockerId: blocker, text: 'mirror is up' }));
    ok(await callBrainTool(api, 'note_progress', { taskId, text: 'Writer done', next: 'Wire the button' }));
    resume = ok(await callBrainTool(api, 'read_resume_point', { sessionId }));
    expect(resume).not.toContain('## Open blockers');
    expect(resume).toContain('It said it would next: Wire the button');
    const kinds = (await api.listEvents(sessionId)).map((e) => e.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['decision', 'blocker', 'blocker_resolved', 'question', 'answer', 'progress']),
    );
  });

  it('a plan and its steps, history search, a skill draft', async () => {
    const { api, sessionId, taskId } = await brainWithTask();
    const created = ok(
      await callBrainTool(api, 'create_plan', {
        taskId,
        goal: 'Reports download as CSV',
        steps: [
          { what: 'Write the CSV writer', why: 'quoting is the hard part' },
          { what: 'Try XML' },
          { what: 'Wire the button' },
        ],
      }),
    );
    const [write, xml, wire] = [...created.matchAll(/planStepId (\d+)/g)].map((m) => Number(m[1]));
    expect(created).toContain('1. [todo] Write the CSV writer');
    expect(ok(await callBrainTool(api, 'start_plan_step', { planStepId: write }))).toContain(
      'is now started',
    );
    expect(ok(await callBrainTool(api, 'start_plan_step', { planStepId: write }))).toContain(
      'was already started',
    );
    ok(await callBrainTool(api, 'complete_plan_step', { planStepId: write, note: 'done with tests' }));
    const skipped = ok(
      await callBrainTool(api, 'skip_plan_step', { planStepId: xml, reason: 'not asked for' }),
    );
    expect(skipped).toContain(`Next: step 3 (planStepId ${wire})`);
    await api.recordFileChange({ sessionId, taskId, path: 'src/csv.ts', change: 'created' });
    await api.recordValidation({ sessionId, taskId, name: 'npm test', result: 'passed' });
    ok(await callBrainTool(api, 'complete_plan_step', { planStepId: wire }));
    await api.setTaskState(taskId, 'done');

    const found = ok(await callBrainTool(api, 'search_history', { query: 'csv.ts', limit: 5 }));
    expect(found).toMatch(/^\d+ hits?:\n- \[/);
    expect(found).toContain('src/csv.ts');
    expect(found).toContain(`session ${sessionId}`);
    expect(ok(await callBrainTool(api, 'search_history', { query: 'zebra' }))).toContain(
      'No history matches',
    );
    const resume = ok(await callBrainTool(api, 'read_resume_point', { sessionId }));
    expect(resume).toContain('do not run again: npm test');
    expect(resume).toContain('src/csv.ts (created');
    const draft = ok(await callBrainTool(api, 'draft_skill', { taskId }));
    expect(draft).toContain('nothing saved');
    expect(draft).toContain('npm test');
  });

  it('memory files without a project folder: an error that says what to do', async () => {
    const { api } = await brainWithTask();
    const read = await callBrainTool(api, 'read_memory', { file: 'MEMORY.md' });
    expect(read.ok).toBe(false);
    expect(read.text).toMatch(/read_memory failed \(\w+\): .*folder/i);
    const write = await callBrainTool(api, 'write_memory', {
      file: 'PROJECT_MEMORY.md',
      text: '# Facts\n',
      expectedVersion: null,
    });
    expect(write.ok).toBe(false);
    expect(write.text).toMatch(/folder/i);
  });
});

describe('bad input gets an answer a model can act on', () => {
  it('names the missing, mistyped and unknown parameters and what the tool takes', async () => {
    const { api, sessionId } = await brainWithTask();
    const missing = await callBrainTool(api, 'record_decision', { sessionId });
    expect(missing).toMatchObject({ ok: false, code: 'InvalidInput' });
    expect(missing.text).toContain('text is required');
    expect(missing.text).toContain(
      'It takes { sessionId: integer, text: string, taskId?: integer, why?: string, supersedes?: integer }',
    );
    const typo = await callBrainTool(api, 'raise_blocker', { sessionId, txt: 'x' });
    expect(typo.text).toContain('"txt" is not a parameter');
    const wrongType = await callBrainTool(api, 'start_plan_step', { planStepId: '3' });
    expect(wrongType.text).toContain('planStepId must be integer, not string');
    const nested = await callBrainTool(api, 'create_plan', { taskId: 1, goal: 'g', steps: [{ why: 'w' }] });
    expect(nested.text).toContain('steps.0.what is required');
    const badEnum = await callBrainTool(api, 'read_memory', { file: 'NOTES.md' });
    expect(badEnum.text).toContain('"MEMORY.md" | "PROJECT_MEMORY.md"');
    const badJson = await callBrainTool(api, 'read_resume_point', '{sessionId: 1');
    expect(badJson.text).toContain('not valid JSON');
    expect(await callBrainTool(api, 'forget_everything', {})).toMatchObject({
      ok: false,
      code: 'UnknownTool',
    });
    // Nothing was recorded by any refused call.
    expect(await api.listEvents(sessionId)).toEqual([]);
  });

  it('passes the engine refusal on with a hint: unknown ids, a second plan', async () => {
    const { api, sessionId, taskId } = await brainWithTask();
    const unknown = await callBrainTool(api, 'resolve_blocker', { sessionId, blockerId: 999 });
    expect(unknown).toMatchObject({ ok: false });
    expect(unknown.text).toMatch(/resolve_blocker failed \((NotFound|Conflict|InvalidArgument)\)/);
    const stepMissing = await callBrainTool(api, 'complete_plan_step', { planStepId: 999 });
    expect(stepMissing.text).toContain('What to do:');
    const plan = { taskId, goal: 'g', steps: [{ what: 'a' }] };
    ok(await callBrainTool(api, 'create_plan', plan));
    const again = await callBrainTool(api, 'create_plan', plan);
    expect(again.ok).toBe(false);
    expect(again.text).toMatch(/create_plan failed/);
    const notDone = await callBrainTool(api, 'draft_skill', { taskId });
    expect(notDone.text).toContain('What to do: Only a finished task');
  });
});
