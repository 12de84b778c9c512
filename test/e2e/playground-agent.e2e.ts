/**
 * The playground page (/playground.html) against a scripted model on localhost: a run that calls every brainTools
 * tool and fixes the workspace's failing test, reloaded mid-run (streamed before, not streamed after), resumes
 * from the resume prompt without running the passed check again, its transcript shown again from the brain's
 * messages; and endpoints that fail are shown plainly: a start that fails leaves no session, a run that fails later
 * is resumed.
 */
import { expect, test, type Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brainToolNames } from '../../src/lib/model-tools/call';
import { createProfile, watchErrors } from './harness';
import { fillEndpoint as fill, playgroundKey as key } from './playground-page';
import { startScriptedModel, type ScriptedModel } from './scripted-model';

const lastMessage = (r: ScriptedModel['requests'][number]) => r.messages.at(-1);

/** The transcript's turns as the page shows them (who, then what). */
const turns = (page: Page) => page.getByRole('list', { name: 'Transcript' }).locator('li').allInnerTexts();

/** How many messages the brain keeps for the tab's run. */
const storedMessages = (page: Page) =>
  page.evaluate(async () => {
    const { brain, run } = globalThis.playgroundAgent!;
    const { sessionId, taskId } = run()!;
    return (await brain.listMessages(sessionId, taskId)).length;
  });

const sessionCount = (page: Page) =>
  page.evaluate(async () => (await globalThis.playgroundAgent!.brain.listSessions()).length);

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
    const turnsBefore = await turns(page);
    expect(turnsBefore.length).toBeGreaterThan(5);

    // The person switches streaming off (the setting lives in sessionStorage) and reloads mid-run.
    await page.evaluate(() => {
      const k = 'agent-brain.playground.endpoint';
      const s = JSON.parse(sessionStorage.getItem(k) ?? '{}') as Record<string, unknown>;
      sessionStorage.setItem(k, JSON.stringify({ ...s, stream: false }));
    });
    await page.reload();
    await expect(page.getByRole('status')).toContainText('Done:', { timeout: 60_000 });

    // The transcript came back from the brain after the reload, and the resumed run went on below it.
    const turnsDone = await turns(page);
    expect(turnsDone.slice(0, turnsBefore.length)).toEqual(turnsBefore);
    expect(turnsDone[turnsBefore.length]).toMatch(/^Given to the model\s+# Resuming session/);
    expect(turnsDone.length).toBeGreaterThan(turnsBefore.length + 3);
    expect(turnsDone.length).toBe(await storedMessages(page));
    // Reloaded once done: the same transcript, nothing resumed, nothing asked of the model.
    const requestsDone = model.requests.length;
    await page.reload();
    await expect(page.getByRole('status')).toContainText('Done:');
    await expect(page.getByRole('status')).toContainText('Start a new run to begin again');
    expect(await turns(page)).toEqual(turnsDone);
    await expect(page.getByRole('button', { name: 'Resume the run' })).toBeHidden();
    expect(model.requests.length).toBe(requestsDone);

    const requests = model.requests;
    // The first request, sent before the run's session existed, offered the very tools every later one did.
    expect(new Set(requests.map((r) => r.tools)).size).toBe(1);
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

/** A URL on localhost where nothing listens: the port of a server just closed. */
async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

test('a start that fails leaves no session and says what failed; a run that fails later is resumed, its transcript kept', async () => {
  const model = await startScriptedModel();
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await context.newPage();
    await page.goto('/playground.html');
    await expect(page.getByRole('status')).toContainText('Ready');
    const alert = page.getByRole('alert');
    const status = page.getByRole('status');
    const start = page.getByRole('button', { name: 'Start a new run' });
    const resume = page.getByRole('button', { name: 'Resume the run' });
    const didNotStart = async () => {
      await expect(status).toContainText('The run did not start: nothing was recorded.');
      await expect(alert).toContainText('The run did not start: the model endpoint failed.');
      await expect(alert).toContainText('Nothing was recorded: no session was created.');
      await expect(resume).toBeHidden();
      await expect(start).toBeEnabled();
    };

    // Nothing listens there.
    const nowhere = await unreachableUrl();
    await fill(page, `${nowhere}/v1`, { stream: false });
    await start.click();
    await expect(alert).toContainText(`Could not reach ${nowhere}/v1/chat/completions: Failed to fetch.`);
    await didNotStart();

    await fill(page, `${model.url}/fail/v1`, { stream: false });
    await start.click();
    await expect(alert).toContainText('The endpoint answered 500 Internal Server Error');
    await expect(alert).toContainText('model overloaded, try later');
    await didNotStart();

    await fill(page, `${model.url}/garbage/v1`, { stream: false });
    await start.click();
    await expect(alert).toContainText("The endpoint's answer is not JSON");
    await expect(alert).toContainText('<html><body>Bad gateway page');
    await didNotStart();

    await fill(page, `${model.url}/silent/v1`, { stream: false, timeout: 2 });
    await start.click();
    await expect(alert).toContainText(
      `Could not reach ${model.url}/silent/v1/chat/completions: no answer within 2 s.`,
    );
    await didNotStart();

    await fill(page, `${model.url}/stall/v1`, { stream: true, timeout: 2 });
    await start.click();
    await expect(alert).toContainText('The stream stalled: nothing for 2 s');
    await expect(alert).toContainText('Thinking');
    await didNotStart();

    // Five starts reached (or tried) the endpoint; none left a session, a message or a run to resume.
    expect(await sessionCount(page)).toBe(0);
    expect(await page.evaluate(() => globalThis.playgroundAgent!.run())).toBeNull();
    await expect(page.getByRole('list', { name: 'Transcript' }).locator('li')).toHaveCount(0);

    // The control: a start the model answers is a session, which a failure later leaves unfinished, resumable.
    model.failOnce(afterNoteProgress);
    await fill(page, `${model.url}/v1`, { stream: false });
    await start.click();
    await expect(alert).toContainText(
      'The run stopped: the model endpoint failed. The endpoint answered 500',
    );
    await expect(status).toContainText('unfinished; Resume continues it');
    expect(await sessionCount(page)).toBe(1);
    const turnsStopped = await turns(page);
    expect(turnsStopped.length).toBeGreaterThan(5);
    const files = await page.evaluate(() => globalThis.playgroundAgent!.workspace.snapshot());
    expect(files['src/sum.js']).toContain('return a + b;');

    // A start that fails now leaves that run as it was: its transcript, its workspace, its Resume.
    await fill(page, `${model.url}/fail/v1`, { stream: false });
    await start.click();
    await expect(alert).toContainText('The endpoint answered 500 Internal Server Error');
    await expect(status).toContainText('The run did not start: nothing was recorded.');
    await expect(resume).toBeVisible();
    expect(await turns(page)).toEqual(turnsStopped);
    expect(await page.evaluate(() => globalThis.playgroundAgent!.workspace.snapshot())).toEqual(files);
    expect(await sessionCount(page)).toBe(1);

    // A reload shows it again, and Resume continues it below what was said.
    await page.reload();
    await expect(status).toContainText('is unfinished: Resume continues it.');
    expect(await turns(page)).toEqual(turnsStopped);
    await fill(page, `${model.url}/v1`, { stream: false });
    await resume.click();
    await expect(status).toContainText('Done:', { timeout: 60_000 });
    await expect(alert).toBeHidden();
    const turnsDone = await turns(page);
    expect(turnsDone.slice(0, turnsStopped.length)).toEqual(turnsStopped);
    expect(turnsDone[turnsStopped.length]).toMatch(/^Given to the model\s+# Resuming session/);
    expect(turnsDone.length).toBe(await storedMessages(page));
    expect(await sessionCount(page)).toBe(1);
    await context.close();
  } finally {
    await profile.dispose();
    await model.close();
  }
});
