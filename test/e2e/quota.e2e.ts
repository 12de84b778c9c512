import { expect, test } from '@playwright/test';
import { createProfile, openApp } from './harness';

test('a full storage quota is reported clearly and leaves no half-written data', async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await openApp(context);
    const sessionId = await page.evaluate(
      async () => (await globalThis.agentBrain!.startSession({ title: 'quota' })).id,
    );
    const origin = new URL(page.url()).origin;
    const cdp = await context.newCDPSession(page);
    const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    // Leave ~1 MiB of room, then try to write far more than that in one step.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 1024 * 1024 });
    const outcome = await page.evaluate(async (id) => {
      const brain = globalThis.agentBrain!;
      const { id: taskId } = await brain.startTask({ sessionId: id, title: 'big' });
      // 1 MiB of base64 (768 KiB of random bytes): steps are stored packed, and zlib cannot pack these below 768 KiB.
      const raw = new Uint8Array(768 * 1024);
      for (let at = 0; at < raw.length; at += 65_536) crypto.getRandomValues(raw.subarray(at, at + 65_536));
      let binary = '';
      for (const byte of raw) binary += String.fromCharCode(byte);
      const big = btoa(binary);
      try {
        for (let i = 0; i < 20; i++) {
          await brain.recordStep({ taskId, tool: 'dump', result: big, status: 'ok' });
        }
        return { code: 'none', message: '', steps: -1, ok: [] as string[] };
      } catch (error) {
        const { code, message } = error as { code: string; message: string };
        return {
          code,
          message,
          steps: (await brain.listSteps(taskId)).length,
          ok: await brain.integrityCheck(),
        };
      }
    }, sessionId);
    expect(outcome.code, outcome.message).toBe('QuotaExceeded');
    expect(outcome.message).toMatch(/quota/i);
    expect(outcome.steps).toBeLessThan(20);
    expect(outcome.ok).toEqual(['ok']);

    // With room again, the same brain goes on writing, and every step that was acknowledged is whole.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    const after = await page.evaluate(async (id) => {
      const brain = globalThis.agentBrain!;
      const tasks = await brain.listTasks(id);
      const task = tasks.find((t) => t.title === 'big')!;
      await brain.recordStep({ taskId: task.id, tool: 'small', status: 'ok' });
      const steps = await brain.listSteps(task.id);
      return {
        whole: steps
          .filter((s) => s.tool === 'dump')
          .every((s) => (s.result as string).length === 1024 * 1024),
        last: steps.at(-1)?.tool,
        ok: await brain.integrityCheck(),
      };
    }, sessionId);
    expect(after).toEqual({ whole: true, last: 'small', ok: ['ok'] });
    await context.close();
  } finally {
    await profile.dispose();
  }
});
