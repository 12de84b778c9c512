/**
 * Issue 17, items 1 and 2, on the built app: a rollback's undo still works after two automatic cleanup passes
 * (the restore task is the latest of its session, so it keeps its contents); a newer task makes the old ones
 * cleanable and the dry run says why; pin/unpin, rollback refused with the reason once cleanup took the contents,
 * deleting a session and a project kept in this browser.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];
let ids: { sessionId: number; earlier: number; fix: number };
let restoreTaskId = 0;
let changelogTaskId = 0;

test.beforeAll(async () => {
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context, '/#/project');
  errors = watchErrors(page);
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

/** The engine's count of automatic cleanup passes that ran (its status, as the Storage view shows it). */
const autoRuns = () => page.evaluate(async () => (await globalThis.agentBrain!.audit()).autoCleanup.runs);
const heavyRemovedAt = (taskId: number) =>
  page.evaluate(async (id) => (await globalThis.agentBrain!.getTask(id as never)).heavyRemovedAt, taskId);
const fileText = (path: string) =>
  page.evaluate(async (p) => (await globalThis.agentBrain!.readProjectFile(p)).text, path);

test('a rollback can be undone after two automatic cleanup passes', async () => {
  await page.getByRole('button', { name: 'Open the demo project' }).click();
  await expect(page.getByTestId('project-name')).toContainText('the built-in demo project');

  ids = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    // Automatic cleanup stays on, as a person has it; only its timings are shortened so two passes come soon:
    // one after each change (debounced), one when idle.
    await brain.setAutoCleanup({ enabled: true, debounceMs: 300, maxWaitMs: 2_000, idleMs: 1_500 });
    const { id: sessionId } = await brain.startSession({ title: 'Fix pagination' });
    const change = async (taskId: number, path: string, edit: (text: string) => string) => {
      const file = await brain.readProjectFile(path);
      const after = edit(file.text);
      await brain.writeProjectFile(path, after, { expectedVersion: file.version });
      await brain.checkpointFile({ taskId: taskId as never, path, before: file.text, after });
    };
    // An earlier task of the session, superseded by the fix: the control that cleanup passes do clean.
    const { id: earlier } = await brain.startTask({ sessionId, title: 'Look around' });
    await change(earlier, 'README.md', (t) => `${t}\nNotes taken.\n`);
    await brain.setTaskState(earlier, 'done');
    const { id: fix } = await brain.startTask({ sessionId, title: 'Fix the page size bug' });
    await change(fix, 'src/paginate.ts', (t) => t.replace('<=', '<'));
    await brain.setTaskState(fix, 'done');
    return { sessionId, earlier, fix };
  });
  const fixed = await fileText('src/paginate.ts');

  await page.goto(`/#/checkpoints?session=${ids.sessionId}&task=${ids.fix}`);
  await expect(page.getByTestId('entries').getByRole('link')).toHaveCount(1);
  await page.getByRole('button', { name: 'Roll back this file…' }).click();
  const dialog = page.getByTestId('rollback-dialog');
  await dialog.getByRole('button', { name: 'Roll back 1 file' }).click();
  await expect(page.getByTestId('rollback-done')).toContainText('Rolled back 1 file.');
  await expect.poll(() => fileText('src/paginate.ts')).not.toBe(fixed);

  // Two automatic passes after the rollback: the first after its change, the second when idle.
  const runs = await autoRuns();
  await expect.poll(autoRuns, { timeout: 30_000 }).toBeGreaterThanOrEqual(runs + 2);
  // The passes did clean: the task the fix superseded lost its contents. The fix and its restore did not.
  expect(await heavyRemovedAt(ids.earlier)).not.toBeNull();
  expect(await heavyRemovedAt(ids.fix)).toBeNull();

  await page.getByRole('link', { name: 'see it, or undo it from there' }).click();
  await expect(page.getByRole('heading', { name: 'Checkpoints' })).toBeVisible();
  const selected = page.locator('[aria-current="true"]');
  await expect(selected).toHaveText('Restore: Fix the page size bug');
  restoreTaskId = Number(new URL(page.url().replace('#/', '')).searchParams.get('task'));
  expect(await heavyRemovedAt(restoreTaskId)).toBeNull();
  await page.getByRole('button', { name: 'Roll back the whole task…' }).click();
  await expect(dialog.getByRole('listitem')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Roll back 1 file' }).click();
  await expect(page.getByTestId('rollback-done')).toContainText('Rolled back 1 file.');
  await expect.poll(() => fileText('src/paginate.ts')).toBe(fixed);
  // Undoing the restore is named so, not "Restore: Restore: …".
  const titles = await page.evaluate(
    async (sessionId) => (await globalThis.agentBrain!.listTasks(sessionId as never)).map((t) => t.title),
    ids.sessionId,
  );
  expect(titles).toEqual([
    'Look around',
    'Fix the page size bug',
    'Restore: Fix the page size bug',
    'Undo restore: Fix the page size bug',
  ]);
});

test('a newer task makes the old ones cleanable, and the dry run says why; a pin keeps one', async () => {
  changelogTaskId = await page.evaluate(async (sessionId) => {
    const brain = globalThis.agentBrain!;
    // Off now, so the dry run can be read before anything is cleaned.
    await brain.setAutoCleanup({ enabled: false });
    return (await brain.startTask({ sessionId: sessionId as never, title: 'Add a changelog' })).id;
  }, ids.sessionId);

  await page.goto('/#/storage');
  const plan = page.getByTestId('cleanup-plan');
  const row = (title: string) =>
    plan.getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) });
  await expect(row('Undo restore: Fix the page size bug')).toContainText(
    'superseded: a newer task of its session, “Add a changelog”, has started',
  );
  await expect(row('Undo restore: Fix the page size bug')).toContainText('clean');
  await expect(row('Restore: Fix the page size bug')).toContainText(
    '“Undo restore: Fix the page size bug”, has started',
  );
  await saveScreenshot(page, 'retention-dry-run-light');

  // Pin the fix in its task detail: the dry run keeps it, and says so; unpinned, it is cleanable again.
  await page.goto(`/#/sessions?session=${ids.sessionId}&task=${ids.fix}`);
  const detail = page.getByTestId('task-detail');
  await detail.getByRole('button', { name: 'Pin' }).click();
  await expect(detail.getByRole('button', { name: 'Unpin' })).toHaveAttribute('aria-pressed', 'true');
  await expect(detail).toContainText('Pinned: cleanup keeps its steps and checkpoints');
  await expectAccessible(page, 'task detail with pin');
  await page.goto('/#/storage');
  await page.getByLabel('Show kept tasks').check();
  const fixRow = row('Fix the page size bug');
  await expect(fixRow).toContainText('keep');
  await expect(fixRow).toContainText('pinned');

  await page.goto(`/#/sessions?session=${ids.sessionId}&task=${ids.fix}`);
  await detail.getByRole('button', { name: 'Unpin' }).click();
  await expect(detail.getByRole('button', { name: 'Pin' })).toHaveAttribute('aria-pressed', 'false');
  await page.goto('/#/storage');
  await expect(fixRow).toContainText(
    'superseded: a newer task of its session, “Restore: Fix the page size bug”',
  );

  // Cleanup from the Storage view: the old tasks lose their contents, and rollback says it cannot.
  await page.getByRole('button', { name: 'Run cleanup…' }).click();
  await page.getByRole('button', { name: 'Clean now' }).click();
  await expect(page.getByTestId('cleanup-done')).toContainText('Cleaned 3 tasks');
  await expect.poll(() => heavyRemovedAt(restoreTaskId)).not.toBeNull();
  await page.goto(`/#/checkpoints?session=${ids.sessionId}&task=${restoreTaskId}`);
  await expect(page.getByTestId('entry-removed')).toContainText(
    "Rollback is not possible: cleanup removed this task's file contents",
  );
  for (const name of ['Roll back this file…', 'Roll back the whole task…']) {
    const button = page.getByRole('button', { name });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(/Rollback is not possible: cleanup removed/);
  }
  await saveScreenshot(page, 'retention-rollback-gone-light');
  await expectAccessible(page, 'checkpoints with contents removed');
});

test('deleting a session says what goes, what stays and what cleanup removes', async () => {
  await page.goto(`/#/sessions?session=${ids.sessionId}`);
  await page.getByRole('button', { name: 'Delete session…' }).click();
  const dialog = page.getByTestId('delete-session-dialog');
  await expect(dialog.getByRole('heading', { name: 'Delete the session “Fix pagination”?' })).toBeVisible();
  await expect(dialog).toContainText('Deleted now: the session, with its messages, summaries and event log');
  await expect(dialog).toContainText('Kept: its 5 tasks (title, state, links), as tasks of no session.');
  // Four were cleaned already; the new task is what cleanup will take.
  await expect(dialog.getByTestId('delete-session-cleanup')).toContainText(
    'Cleanup will remove the steps and checkpoint contents of the one task that still holds them',
  );
  await expectAccessible(page, 'delete session confirmation');
  await saveScreenshot(page, 'retention-delete-session-light');
  await dialog.getByRole('button', { name: 'Delete session', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Sessions' }).getByText('Fix pagination')).toHaveCount(0);
  const sessions = await page.evaluate(async () => (await globalThis.agentBrain!.listSessions()).length);
  expect(sessions).toBe(0);
  // The tasks stay, as orphans cleanup takes a few at a time.
  const plan = await page.evaluate(async () => await globalThis.agentBrain!.planCleanup());
  expect(plan.tasks.find((t) => t.taskId === changelogTaskId)).toMatchObject({
    sessionId: null,
    verdict: 'clean',
    reasons: [{ kind: 'orphan' }],
  });
});

test('the rollback dialog says once that a file changed since the checkpoint', async () => {
  const { sessionId, taskId } = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const { id: sessionId } = await brain.startSession({ title: 'Docs' });
    const { id: taskId } = await brain.startTask({ sessionId, title: 'Note the fix' });
    const file = await brain.readProjectFile('README.md');
    const after = `${file.text}\nFixed in 1.0.1.\n`;
    const written = await brain.writeProjectFile('README.md', after, { expectedVersion: file.version });
    await brain.checkpointFile({ taskId, path: 'README.md', before: file.text, after });
    // A person edits it afterwards.
    await brain.writeProjectFile('README.md', `${after}Reviewed.\n`, { expectedVersion: written.version });
    return { sessionId, taskId };
  });
  await page.goto(`/#/checkpoints?session=${sessionId}&task=${taskId}`);
  await page.getByRole('button', { name: 'Roll back the whole task…' }).click();
  const item = page.getByTestId('rollback-dialog').getByRole('listitem');
  await expect(item).toContainText('changed since the checkpoint');
  const text = (await item.textContent()) ?? '';
  expect(text.match(/changed since the checkpoint/gi)).toHaveLength(1);
  await expect(item.getByRole('checkbox', { name: 'Overwrite it anyway' })).not.toBeChecked();
  await expect(
    page.getByTestId('rollback-dialog').getByRole('button', { name: 'Roll back 0 files' }),
  ).toBeDisabled();
  await page.getByTestId('rollback-dialog').getByRole('button', { name: 'Cancel' }).click();
});

test('a project kept in this browser can be deleted after a confirmation', async () => {
  await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const data = new TextEncoder().encode('# realproj\n');
    await brain.importFolderFiles([{ path: 'README.md', data }], { name: 'realproj' });
  });
  await page.goto('/#/project');
  await page.getByRole('button', { name: 'Close project' }).click();
  await expect(page.getByRole('button', { name: 'Open realproj' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete realproj' }).click();
  const confirm = page.getByRole('group', { name: 'Delete realproj' });
  await expect(confirm).toContainText('The brain — sessions, tasks, checkpoints — is not changed.');
  await expectAccessible(page, 'delete project confirmation');
  await confirm.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page.getByRole('button', { name: 'Open realproj' })).toHaveCount(0);
  const names = await page.evaluate(async () =>
    (await globalThis.agentBrain!.listProjects()).map((p) => p.name),
  );
  expect(names).not.toContain('realproj');
});
