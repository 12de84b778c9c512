/** listSteps(taskId, { last }): a live view's timeline reads only the latest steps of a long task, in order. */
import { describe, expect, it } from 'vitest';
import { memoryBrain } from './engine-helpers';

describe('listSteps with last', () => {
  it('gives the latest n steps in order; all of them without it; refuses a bad n', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession({ title: 's' });
    const { id: taskId } = await api.startTask({ sessionId, title: 't' });
    for (let i = 0; i < 12; i++) await api.recordStep({ taskId, tool: `t${i}`, status: 'ok' });
    expect((await api.listSteps(taskId, { last: 3 })).map((s) => s.tool)).toEqual(['t9', 't10', 't11']);
    expect(await api.listSteps(taskId, { last: 50 })).toHaveLength(12);
    expect(await api.listSteps(taskId)).toHaveLength(12);
    for (const last of [0, -1, 1.5, '3'])
      await expect(api.listSteps(taskId, { last } as never)).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
  });
});
