/**
 * Input bounds through the real lib, worker and OPFS (issue 13, finding 10): JSON nested too deep, too large, or
 * not cloneable at all is refused with a typed error before anything is posted — never a hang, never an untyped
 * RangeError or DataCloneError — and what is accepted comes back exactly. The damaged-row reads of finding 5
 * are tested on the engine in Node (test/unit/unreadable-rows.test.ts): importDatabase refuses such a file.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain, type Json } from '../../src/lib/index';

const open: Brain[] = [];
let counter = 0;

async function freshBrain() {
  const brain = await openBrain({
    dbName: `bounds-${Date.now().toString(36)}-${++counter}.db`,
    closeOnPageHide: false,
  });
  open.push(brain);
  const { id: sessionId } = await brain.startSession({ title: 'bounds' });
  const { id: taskId } = await brain.startTask({ sessionId, title: 'deep' });
  return { brain, sessionId, taskId };
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((brain) => brain.close()));
});

function nested(levels: number, shape: 'array' | 'object', leaf: Json = 'leaf'): Json {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

const refused = (code: string, message: RegExp) =>
  expect.objectContaining({ name: 'BrainError', code, message: expect.stringMatching(message) });

describe('JSON arguments are bounded before postMessage', () => {
  it('refuses step params nested 1,500 / 2,000 / 5,000 levels with InvalidArgument; 64 levels round-trip exactly', async () => {
    const { brain, taskId } = await freshBrain();
    await expect(
      brain.recordStep({ taskId, tool: 't', params: nested(1_500, 'object'), status: 'ok' }),
    ).rejects.toEqual(
      refused(
        'InvalidArgument',
        /^params is nested 1,500 levels deep; the limit is 64 \(level 65 is at params\.a\.a/,
      ),
    );
    await expect(
      brain.recordStep({ taskId, tool: 't', params: nested(2_000, 'array'), status: 'ok' }),
    ).rejects.toEqual(refused('InvalidArgument', /^params is nested 2,000 levels deep; the limit is 64 /));
    await expect(
      brain.recordStep({ taskId, tool: 't', result: nested(5_000, 'array'), status: 'ok' }),
    ).rejects.toEqual(refused('InvalidArgument', /^result is nested 5,000 levels deep; the limit is 64 /));
    // Nothing half-recorded, and the worker still answers.
    expect(await brain.listSteps(taskId)).toEqual([]);
    // 64 levels are recorded and come back exactly.
    // 61 levels around a leaf of 3 (object, array, object): 64 in all.
    const params = nested(61, 'object', { list: [1, 'two', null, true, { '': -0.5 }] });
    const result = nested(64, 'array', 'é\u2028"\\');
    await brain.recordStep({ taskId, tool: 't', params, result, status: 'ok' });
    const [step] = await brain.listSteps(taskId);
    expect(step?.params).toEqual(params);
    expect(step?.result).toEqual(result);
    expect(step).not.toHaveProperty('unreadable');
  }, 20_000);

  it('refuses step JSON past the engine’s size limit with TooLarge', async () => {
    const { brain, taskId } = await freshBrain();
    await expect(
      brain.recordStep({ taskId, tool: 't', params: 'x'.repeat(8_000_000), status: 'ok' }),
    ).rejects.toEqual(
      refused('TooLarge', /^params is 8,000,002 characters of JSON; the limit is 8,000,000\.$/),
    );
  });

  it('refuses appendJsonl records nested too deep, before the folder is even looked at', async () => {
    const { brain } = await freshBrain();
    await expect(brain.appendJsonl('.agent/x.jsonl', [{ ok: 1 }, nested(1_500, 'array')])).rejects.toEqual(
      refused('InvalidArgument', /^records\[1\] is nested 1,500 levels deep; the limit is 64 /),
    );
  });
});

describe('any call’s arguments', () => {
  it('refuses nesting the worker could not take, in arguments not typed Json', async () => {
    const { brain, sessionId } = await freshBrain();
    const input = { sessionId, text: 'x', extra: nested(1_500, 'object') };
    await expect(brain.recordNote(input as never)).rejects.toEqual(
      refused('InvalidArgument', /^recordNote's argument 1 is nested more than 64 levels deep /),
    );
    expect(await brain.listEvents(sessionId)).toEqual([]);
  }, 20_000);

  it('turns a structured-clone failure (a function, a DOM node) into InvalidArgument', async () => {
    const { brain } = await freshBrain();
    await expect(brain.startSession({ title: 'x', extra: () => 1 } as never)).rejects.toEqual(
      refused(
        'InvalidArgument',
        /^startSession cannot send its arguments to the worker: .*could not be cloned/,
      ),
    );
    await expect(
      brain.startSession({ title: 'x', node: document.createElement('div') } as never),
    ).rejects.toEqual(refused('InvalidArgument', /^startSession cannot send its arguments to the worker: /));
    // Control: the same call with plain data goes through.
    const { id } = await brain.startSession({ title: 'plain' });
    expect((await brain.getSession(id)).title).toBe('plain');
  });
});
