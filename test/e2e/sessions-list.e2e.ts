/**
 * A sessions list a person can scan, responsive with 1,000 sessions (issue 28), on the built app: 1,000 small
 * imported runs of two agents over eight working folders, finished, stopped and cut, beside a few of the brain's
 * own. Opening Sessions, typing into its filter, choosing an agent and a state and showing more rows: no
 * main-thread task over 100 ms (a PerformanceObserver long-task probe; this file runs alone, see long-tasks.ts).
 * Then the list at 390 and 1280 px in both themes: no wider than the viewport, axe clean, screenshots under
 * test/.artifacts/screenshots/sessions-list/.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { drawn, quiet, watchLongTasks } from './long-tasks';
import { miniRun, sweRun } from './small-runs';
import { expectAccessible, expectNoSidewaysOverflow, saveScreenshot } from './ui-helpers';

test.describe.configure({ mode: 'serial', retries: 0 });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

const runs = 1000;
const miniRuns = 700;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context, '/#/search');
  errors = watchErrors(page);
  const files = Array.from({ length: runs }, (_, i) => (i < miniRuns ? miniRun(i) : sweRun(i)));
  for (let at = 0; at < files.length; at += 100) {
    const added = await page.evaluate(
      async (batch) => {
        const enc = new TextEncoder();
        const result = await globalThis.agentBrain!.importTranscript({
          files: batch.map((f) => ({ name: f.name, data: enc.encode(f.text) })),
        });
        return result.sessions.length;
      },
      files.slice(at, at + 100),
    );
    expect(added).toBe(100);
  }
  // A few of the brain's own sessions: no agent, no folder of their own.
  await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    for (let i = 0; i < 5; i++) {
      const { id: sessionId } = await brain.startSession({ title: `Own work ${i}` });
      const { id: taskId } = await brain.startTask({ sessionId, title: 'Work' });
      if (i % 2 === 0) await brain.setTaskState(taskId, 'done');
    }
  });
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test('1,000 sessions render and filter with no main-thread task over 100 ms', async () => {
  test.setTimeout(300_000);
  const overview = await page.evaluate(async () => {
    const started = performance.now();
    const { sessions, projects } = await globalThis.agentBrain!.sessionsOverview();
    return {
      ms: Math.round(performance.now() - started),
      sessions: sessions.map((s) => ({ title: s.title, agent: s.agent, state: s.state })),
      projects: projects.length,
    };
  });
  expect(overview.sessions).toHaveLength(runs + 5);
  expect(overview.projects).toBe(9); // eight services and SWE-agent's /testbed
  const count = page.getByTestId('sessions-count');

  // The probe sees a long task when there is one (the control), then none from the list.
  await quiet(page);
  const control = await watchLongTasks(page);
  // A task of the page's own (a timer), busy for 150 ms.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          const until = performance.now() + 150;
          while (performance.now() < until);
          resolve();
        }),
      ),
  );
  await quiet(page); // as before the probe's own stop below
  const seen = await control.stop();
  expect(
    seen.some((ms) => ms >= 140),
    `the control's long tasks: ${JSON.stringify(seen)}`,
  ).toBe(true);

  await quiet(page);
  const probe = await watchLongTasks(page);
  // Locators by id and test id only while the probe watches: Playwright resolves a role or a label with its own
  // script in the page, and over a large page that script alone can be a long task.
  const list = page.getByTestId('sessions-list');
  await page.locator('nav a[href="#/sessions"]').click();
  await expect(count).toHaveText('1,005 sessions in 10 groups');
  await expect(list.locator('button[aria-pressed="true"]')).toHaveCount(1);

  const find = page.locator('#sessions-find');
  await find.pressSequentially('issue-12', { delay: 20 });
  // acme__parser-issue-12 and -120 … -129: their folders (i % 8) are all eight services.
  const matching = overview.sessions.filter((s) => s.title.toLowerCase().includes('issue-12')).length;
  expect(matching).toBe(11);
  await expect(count).toHaveText('11 of 1,005 sessions in 8 groups');
  await find.fill('');
  await page.locator('#sessions-agent').selectOption({ label: 'SWE-agent (300)' });
  await expect(count).toHaveText('300 of 1,005 sessions');
  const sweStopped = overview.sessions.filter((s) => s.agent === 'swe-agent' && s.state === 'stopped').length;
  expect(sweStopped).toBe(150);
  await page.locator('#sessions-state').selectOption('stopped');
  await expect(count).toHaveText(`${sweStopped} of 1,005 sessions`);
  await page.locator('#sessions-agent').selectOption('all');
  await page.locator('#sessions-state').selectOption('running');
  const running = overview.sessions.filter((s) => s.state === 'running').length;
  await expect(count).toHaveText(new RegExp(`^${running} of 1,005 sessions`));
  await page.locator('#sessions-state').selectOption('all');
  await expect(count).toHaveText('1,005 sessions in 10 groups');
  const rows = list.locator('li li');
  const before = await rows.count();
  await list.getByTestId('show-more-rows').first().click();
  await expect.poll(() => rows.count()).toBe(before + 50);
  await drawn(page);
  const tasks = await probe.stop();
  console.log(
    `sessionsOverview of 1,005 sessions: ${overview.ms} ms in the page; long tasks (ms): ${JSON.stringify(tasks)}`,
  );
  expect(
    tasks.filter((ms) => ms > 100),
    'main-thread tasks over 100 ms',
  ).toEqual([]);
  expect(errors).toEqual([]);
});

test('the list at 390 and 1280 px in both themes: no wider than the viewport, axe clean', async () => {
  test.setTimeout(300_000);
  for (const width of [390, 1280] as const) {
    await page.setViewportSize({ width, height: width < 700 ? 844 : 800 });
    for (const theme of ['light', 'dark'] as const) {
      const html = page.locator('html');
      if ((await html.getAttribute('data-theme')) !== theme)
        await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
      await expect(html).toHaveAttribute('data-theme', theme);
      await page.goto('/#/sessions');
      await expect(page.getByTestId('sessions-count')).toHaveText('1,005 sessions in 10 groups');
      await expectNoSidewaysOverflow(page, `sessions at ${width} px, ${theme}`);
      await saveScreenshot(page, `sessions-list/sessions-${width}-${theme}`);
      await expectAccessible(page, `sessions at ${width} px, ${theme}`);
    }
  }
  expect(errors).toEqual([]);
});
