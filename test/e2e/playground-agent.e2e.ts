/**
 * The playground page (/playground.html) against a scripted model on localhost: a run that calls every brainTools
 * tool and fixes the workspace's failing test, reloaded mid-run (streamed before, not streamed after), resumes
 * from the resume prompt without running the passed check again; and endpoints that fail are shown plainly.
 */
import { expect, test } from '@playwright/test';
import { brainToolNames } from '../../src/lib/model-tools/call';
import { createProfile, watchErrors } from './harness';
import { fillEndpoint as fill, playgroundKey as key } from './playground-page';
import { startScriptedModel, type ScriptedModel } from './scripted-model';

const lastMessage = (r: ScriptedModel['requests'][number]) => r.messages.at(-1);

const afterNoteProgress = (r: ScriptedModel['requests'][number]) => {
  const last = lastMessage(r);
  if (last?.role !== 'tool') return false;
  const call = r.messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.id === last.tool_call_id);
  return call?.function.name === 'note_progress';
};

test('a run calls every brain tool, fixes the test, and resumes after a reload without redoing the passed check', async () => {
  const model = await startScriptedModel();
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/playground.html');
    await expect(page.getByRole('status')).toContainText('Ready');

    // Held: the request that follows note_progress (the first part is done); the page is reloaded meanwhile.
    model.holdOnce(afterNoteProgress);
    await fill(page, `${model.url}/v1`, { stream: true });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect.poll(() => model.held.length, { timeout: 60_000 }).toBe(1);
    const beforeReload = model.requests.length;

    // The person switches streaming off (the setting lives in sessionStorage) and reloads mid-run.
    await page.evaluate(() => {
      const k = 'agent-brain.playground.endpoint';
      const s = JSON.parse(sessionStorage.getItem(k) ?? '{}') as Record<string, unknown>;
      sessionStorage.setItem(k, JSON.stringify({ ...s, stream: false }));
    });
    await page.reload();
    await expect(page.getByRole('status')).toContainText('Done:', { timeout: 60_000 });

    const requests = model.requests;
    const before = requests.slice(0, beforeReload);
    const after = requests.slice(beforeReload);
    // Streamed before the reload, not after; the key reached the endpoint as a bearer token.
    expect(before.every((r) => r.stream)).toBe(true);
    expect(after.length).toBeGreaterThan(3);
    expect(after.every((r) => !r.stream)).toBe(true);
    expect(new Set(requests.map((r) => r.authorization))).toEqual(new Set([`Bearer ${key}`]));

    // After the reload the model's context starts from the resume prompt, which says the check passed.
    const resumed = after[0]!.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(resumed).toContain('# Resuming session');
    expect(resumed).toContain('passed, nothing changed since — do not run again: run_check');
    expect(after.every((r) => r.messages.filter((m) => m.role === 'user').length === 1)).toBe(true);
    const callsAfter = after.flatMap((r) => r.reply?.calls ?? []);
    expect(callsAfter).not.toContain('run_check');
    expect(callsAfter).toContain('skip_plan_step');

    // Every brainTools tool offered was called at least once, and none came back as an error.
    const offered = requests[0]!.toolNames;
    const called = new Set(requests.flatMap((r) => r.reply?.calls ?? []));
    expect(offered).toEqual([
      'list_files',
      'read_file',
      'write_file',
      'edit_file',
      'run_check',
      ...brainToolNames,
    ]);
    expect(brainToolNames.filter((n) => !called.has(n))).toEqual([]);
    const toolResults = requests.flatMap((r) =>
      r.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''),
    );
    expect(toolResults.filter((t) => t.startsWith('Error'))).toEqual([]);

    // The brain's own record: two check runs (failed, then passed), both before the reload; the edit with bodies.
    const record = await page.evaluate(async () => {
      const { brain, workspace, run } = globalThis.playgroundAgent!;
      const { sessionId, taskId } = run()!;
      const steps = await brain.listSteps(taskId);
      const checks = steps
        .filter((s) => s.tool === 'run_check')
        .map((s) => (s.result as { exitCode?: number } | null)?.exitCode ?? null);
      const entries = await brain.listCheckpoints(taskId);
      const sumEntry = entries.find((e) => e.path === 'src/sum.js')!;
      const body = await brain.readCheckpoint(sumEntry.id);
      const point = await brain.resumePoint(sessionId);
      const db = new TextDecoder().decode(await brain.exportDatabase());
      return {
        checks,
        tools: steps.map((s) => s.tool),
        task: (await brain.getTask(taskId)).state,
        before: body.before,
        after: body.after,
        newFile: entries.some((e) => e.path === 'test/negative.test.js'),
        plan: point.plan?.steps.map((s) => s.state),
        sum: await workspace.read('src/sum.js'),
        keyInDb: db.includes('sk-playground-test'),
        keyInLocalStorage: JSON.stringify({ ...localStorage }).includes('sk-playground-test'),
        keyInSession: JSON.stringify({ ...sessionStorage }).includes('sk-playground-test'),
      };
    });
    expect(record.checks).toEqual([1, 0]);
    expect(record.tools).toEqual([
      'list_files',
      'read_file',
      'read_file',
      'run_check',
      'edit_file',
      'write_file',
      'run_check',
    ]);
    expect(record.task).toBe('done');
    expect(record.before).toContain('return a - b;');
    expect(record.after).toContain('return a + b;');
    expect(record.newFile).toBe(true);
    expect(record.plan).toEqual(['done', 'done', 'skipped']);
    expect(record.sum).toContain('return a + b;');
    expect(record).toMatchObject({ keyInDb: false, keyInLocalStorage: false, keyInSession: true });
    await expect(page.getByText('never in playground-agent.db, never in an export')).toBeVisible();
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
    await model.close();
  }
});

test('a model that asks for the passed check again after the reload is told it passed; it is not run', async () => {
  const model = await startScriptedModel();
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    await page.goto('/playground.html');
    await expect(page.getByRole('status')).toContainText('Ready');
    model.holdOnce(afterNoteProgress);
    await fill(page, `${model.url}/distrustful/v1`, { stream: false });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect.poll(() => model.held.length, { timeout: 60_000 }).toBe(1);
    const beforeReload = model.requests.length;
    await page.reload();
    await expect(page.getByRole('status')).toContainText('Done:', { timeout: 60_000 });

    const after = model.requests.slice(beforeReload);
    expect(after[0]!.reply?.calls).toEqual(['run_check']);
    const answer = after[1]!.messages.at(-1);
    expect(answer?.role).toBe('tool');
    expect(answer?.content).toMatch(
      /^Not run again: run_check passed \(event \d+\) and no file changed since\.$/,
    );
    const checks = await page.evaluate(async () => {
      const { brain, run } = globalThis.playgroundAgent!;
      const steps = await brain.listSteps(run()!.taskId);
      return steps.filter((s) => s.tool === 'run_check').length;
    });
    expect(checks).toBe(2);
    await context.close();
  } finally {
    await profile.dispose();
    await model.close();
  }
});

test('an endpoint that fails, answers garbage, stays silent or stalls is shown plainly, and the run can be resumed', async () => {
  const model = await startScriptedModel();
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    await page.goto('/playground.html');
    await expect(page.getByRole('status')).toContainText('Ready');
    const alert = page.getByRole('alert');

    await fill(page, `${model.url}/fail/v1`, { stream: false });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(alert).toContainText('The endpoint answered 500 Internal Server Error');
    await expect(alert).toContainText('model overloaded, try later');

    await fill(page, `${model.url}/garbage/v1`, { stream: false });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(alert).toContainText("The endpoint's answer is not JSON");
    await expect(alert).toContainText('<html><body>Bad gateway page');

    await fill(page, `${model.url}/silent/v1`, { stream: false, timeout: 2 });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(alert).toContainText(
      `Could not reach ${model.url}/silent/v1/chat/completions: no answer within 2 s.`,
    );

    await fill(page, `${model.url}/stall/v1`, { stream: true, timeout: 2 });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(alert).toContainText('The stream stalled: nothing for 2 s');
    await expect(alert).toContainText('Thinking');
    await expect(page.getByRole('status')).toContainText('unfinished');

    // Nobody is left waiting: the same run resumes on a working endpoint and finishes.
    await fill(page, `${model.url}/v1`, { stream: false });
    await page.getByRole('button', { name: 'Resume the run' }).click();
    await expect(page.getByRole('status')).toContainText('Done:', { timeout: 60_000 });
    await expect(alert).toBeHidden();
    await context.close();
  } finally {
    await profile.dispose();
    await model.close();
  }
});
