import { expect, test } from '@playwright/test';
import { createProfile, openApp, watchErrors } from './harness';

test('a session, task and step survive a reload and a browser restart', async () => {
  const profile = await createProfile();
  try {
    let context = await profile.launch();
    let page = await openApp(context);
    const errors = watchErrors(page);
    const ids = await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      const { id: sessionId } = await brain.startSession({ title: 'E2E session' });
      const { id: taskId } = await brain.startTask({ sessionId, title: 'E2E task' });
      const { id: stepId } = await brain.recordStep({
        taskId,
        tool: 'edit',
        params: { file: 'a.ts' },
        result: 'ok',
        status: 'ok',
      });
      return { sessionId, taskId, stepId };
    });
    await expect(page.getByRole('button', { name: /E2E session/ })).toBeVisible();
    await expect(page.getByTestId('tasks')).toContainText('E2E task');

    await page.reload();
    await page.waitForFunction(() => globalThis.agentBrain !== undefined);
    await expect(page.getByTestId('tasks')).toContainText('E2E task');
    expect(
      await page.evaluate((taskId) => globalThis.agentBrain!.listSteps(taskId), ids.taskId),
    ).toMatchObject([{ id: ids.stepId, tool: 'edit', params: { file: 'a.ts' } }]);
    expect(errors).toEqual([]);
    await context.close();

    context = await profile.launch();
    page = await openApp(context);
    const after = await page.evaluate(async (sessionId) => {
      const brain = globalThis.agentBrain!;
      const tasks = await brain.listTasks(sessionId);
      return {
        tasks: tasks.map((t) => t.title),
        steps: (await brain.listSteps(tasks[0]!.id)).length,
        ok: await brain.integrityCheck(),
      };
    }, ids.sessionId);
    expect(after).toEqual({ tasks: ['E2E task'], steps: 1, ok: ['ok'] });
    await expect(page.getByTestId('db-name')).toContainText('agent.db');
    await context.close();
  } finally {
    await profile.dispose();
  }
});

test('a second tab neither corrupts nor hangs, and says what is going on', async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const first = await openApp(context);
    await first.evaluate(() => globalThis.agentBrain!.startSession({ title: 'from tab one' }));

    const second = await context.newPage();
    const secondErrors = watchErrors(second);
    await second.goto('/');
    await expect(second.getByRole('alert')).toContainText('open in another tab');
    // The first tab still works while the second waits.
    expect(await first.evaluate(() => globalThis.agentBrain!.integrityCheck())).toEqual(['ok']);

    await second.getByRole('button', { name: 'Take over here' }).click();
    await expect(second.getByRole('button', { name: /from tab one/ })).toBeVisible();
    await expect(first.getByRole('alert')).toContainText('Another tab took this brain over');
    const result = await second.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      await brain.startSession({ title: 'from tab two' });
      return {
        titles: (await brain.listSessions()).map((s) => s.title).sort(),
        ok: await brain.integrityCheck(),
      };
    });
    expect(result).toEqual({ titles: ['from tab one', 'from tab two'], ok: ['ok'] });
    expect(secondErrors).toEqual([]);

    // Closing the owner frees the brain for the other tab at once: no deadlock on reload.
    await second.close();
    await first.getByRole('button', { name: 'Take it back' }).click();
    await expect(first.getByRole('button', { name: /from tab two/ })).toBeVisible();
    await context.close();
  } finally {
    await profile.dispose();
  }
});

test('export then import round-trips; a non-SQLite file is refused and loses nothing', async () => {
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await openApp(context);
    const result = await page.evaluate(async () => {
      const brain = globalThis.agentBrain!;
      await brain.startSession({ title: 'before export' });
      const exported = await brain.exportDatabase();
      await brain.startSession({ title: 'after export' });
      let refused = '';
      try {
        await brain.importDatabase(
          new TextEncoder().encode('PK\u0003\u0004 definitely not sqlite'.repeat(64)),
        );
      } catch (error) {
        refused = (error as { code: string }).code;
      }
      const afterRefusal = (await brain.listSessions()).map((s) => s.title).sort();
      await brain.importDatabase(exported);
      const afterImport = (await brain.listSessions()).map((s) => s.title);
      return { refused, afterRefusal, afterImport, ok: await brain.integrityCheck() };
    });
    expect(result).toEqual({
      refused: 'NotSqlite',
      afterRefusal: ['after export', 'before export'],
      afterImport: ['before export'],
      ok: ['ok'],
    });
    await context.close();
  } finally {
    await profile.dispose();
  }
});
