import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';

// One profile: a first visit runs the demo (paused, killed, resumed), then every view is read on its data.
test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

test.beforeAll(async () => {
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context);
  errors = watchErrors(page);
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

const nav = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name });
const actionsShown = () => page.getByTestId('demo-actions').getByRole('listitem').count();

test('a first visit opens on the demo; the long task starts, pauses, is killed mid-action and resumes to the end', async () => {
  test.setTimeout(180_000);
  await expect(page.getByRole('heading', { name: 'See agent-brain work in a minute' })).toBeVisible();
  await expect(nav('Demo')).toHaveAttribute('aria-current', 'page');
  await saveScreenshot(page, 'demo-first-visit-light');
  await expectAccessible(page, 'demo, first visit');

  await page.getByLabel('Pace').selectOption({ label: 'as fast as it goes' });
  await page.getByRole('button', { name: 'Start the demo task' }).click();
  await expect(page.getByTestId('demo-project-open')).toContainText('tiny-paginate');
  await expect.poll(actionsShown, { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
  // Newest first, numbered down: the newest action is not "1".
  const reversed = await page
    .getByTestId('demo-actions')
    .evaluate((list) => (list as HTMLOListElement).reversed);
  expect(reversed).toBe(true);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('demo-stopped')).toContainText(/^Paused after \d+ actions\.$/);
  const pausedAt = await page.getByTestId('demo-next').textContent();
  expect(pausedAt).toMatch(/^next:/);
  await expect(page.getByTestId('progress')).toContainText(/of \d+/);
  await saveScreenshot(page, 'demo-paused-light');

  // Resume, then kill the tab in the middle of the work.
  await page.getByRole('button', { name: 'Resume the demo task' }).click();
  const before = await actionsShown();
  await expect.poll(actionsShown, { timeout: 60_000 }).toBeGreaterThanOrEqual(Math.min(12, before + 4));
  await page.getByRole('button', { name: 'Kill the tab' }).click();
  await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
  expect(await page.evaluate(() => globalThis.agentBrain!.integrityCheck())).toEqual(['ok']);
  await expect(page.getByTestId('demo-next')).toContainText('next:');

  await page.getByLabel('Pace').selectOption({ label: 'as fast as it goes' });
  await page.getByRole('button', { name: 'Resume the demo task' }).click();
  await expect(page.getByTestId('demo-finished')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('progress')).toContainText(/Plan finished.*(\d+) of \1/);

  // Every plan step done exactly once, and no passed check run again after it passed with no change since.
  const outcome = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const session = (await brain.listSessions()).find((s) => s.title.startsWith('Demo agent'))!;
    const events = await brain.listEvents(session.id);
    const done = events.filter((e) => e.kind === 'plan_step_done').map((e) => e.planStepId);
    return {
      steps: (await brain.resumePoint(session.id)).plan!.steps.map((s) => s.state),
      doneTwice: done.length - new Set(done).size,
    };
  });
  expect(outcome.steps.every((s) => s === 'done')).toBe(true);
  expect(outcome.doneTwice).toBe(0);
  await saveScreenshot(page, 'demo-finished-light');
});

test('every view on the demo data shows it', async () => {
  await nav('Plan & progress').click();
  await expect(page.getByTestId('resume-point')).toContainText('Everything is done');
  const checklist = page.getByTestId('checklist').getByRole('listitem');
  await expect(checklist.nth(3)).toBeVisible();
  await expect(checklist.filter({ hasText: 'done' })).toHaveCount(await checklist.count());
  await saveScreenshot(page, 'plan-demo-light');
  await expectAccessible(page, 'plan on the demo');

  await nav('Sessions & tasks').click();
  const graph = page.getByTestId('task-graph');
  await expect(graph.getByRole('link').nth(1)).toBeVisible();
  expect(await graph.locator('path.edge.child').count()).toBeGreaterThanOrEqual(1);
  await expect(
    page
      .getByTestId('task-detail')
      .getByTestId('events')
      .getByRole('listitem')
      .filter({ hasText: 'validation' })
      .first(),
  ).toContainText(/passed|failed/);
  await saveScreenshot(page, 'sessions-demo-light');
  await expectAccessible(page, 'sessions on the demo');

  await nav('Checkpoints').click();
  await expect(page.getByTestId('entries').getByRole('link').nth(1)).toBeVisible();
  await expect(page.getByTestId('diff').locator('.d2h-code-side-line').first()).toBeVisible();
  await saveScreenshot(page, 'checkpoints-demo-light');
  await expectAccessible(page, 'checkpoints on the demo');

  await nav('History search').click();
  await page.getByLabel('Search the history').fill('test');
  await expect(page.getByTestId('hits').getByRole('listitem').first()).toBeVisible();
  await expect(page.getByTestId('hits').locator('mark').first()).toBeVisible();
  await saveScreenshot(page, 'search-demo-light');

  await nav('Storage').click();
  await expect(page.getByTestId('chart-tasks').getByRole('img')).toHaveAttribute(
    'aria-label',
    /largest first/,
  );
  await expect(page.getByTestId('cleanup-summary')).toContainText('can be cleaned');
  await saveScreenshot(page, 'storage-demo-light');

  await nav('Project').click();
  await expect(page.getByTestId('project-name')).toContainText('demo');
  await page
    .getByRole('navigation', { name: 'Project files' })
    .getByRole('link', { name: 'plan/PROGRESS.md' })
    .click();
  await expect(page.getByTestId('document').getByTestId('preview')).not.toBeEmpty();
  await saveScreenshot(page, 'project-demo-light');

  // The same views in the dark theme, each shot once its data is on screen.
  const dataShown = {
    demo: () => expect(page.getByTestId('demo-finished')).toBeVisible(),
    // The view opens on its file list (no file chosen by the route): open the same document as above.
    project: async () => {
      await page
        .getByRole('navigation', { name: 'Project files' })
        .getByRole('link', { name: 'plan/PROGRESS.md' })
        .click();
      await expect(page.getByTestId('document').getByTestId('preview')).not.toBeEmpty();
    },
    plan: () => expect(page.getByTestId('resume-point')).toContainText('Everything is done'),
    sessions: () => expect(page.getByTestId('task-graph').getByRole('link').nth(1)).toBeVisible(),
    checkpoints: () => expect(page.getByTestId('diff').locator('.d2h-code-side-line').first()).toBeVisible(),
    storage: () => expect(page.getByTestId('cleanup-summary')).toContainText('can be cleaned'),
    search: () => expect(page.getByRole('search')).toBeVisible(),
  };
  await page.getByRole('button', { name: 'Dark theme' }).click();
  for (const [view, shown] of Object.entries(dataShown)) {
    await page.goto(`/#/${view}`);
    await expect(page.locator('main h2').first()).toBeVisible();
    await shown();
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    await saveScreenshot(page, `${view}-demo-dark`);
    await expectAccessible(page, `${view}, dark`);
  }
});
