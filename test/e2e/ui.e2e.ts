import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, saveScreenshot } from './ui-helpers';
import { seedSessions, type Seeded } from './ui-seed';

// One browser profile for the whole file: the views are clicked through in order on the same data.
test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];
let seeded: Seeded;

test.beforeAll(async () => {
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context);
  errors = watchErrors(page);
  seeded = await seedSessions(page);
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

test('sessions & tasks: timeline, task graph, filter by state, a task with its steps, messages and summaries', async () => {
  await page.getByRole('link', { name: 'Sessions & tasks' }).click();
  await page.getByRole('button', { name: /Fix the parser/ }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Fix the parser' })).toBeVisible();

  const timeline = page.getByTestId('tasks');
  await expect(timeline.getByRole('listitem')).toHaveCount(6);
  await expect(timeline.getByRole('listitem').first()).toContainText('Plan the parser fix');
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Rewrite the list parser' })).toContainText(
    'current',
  );
  await expect(timeline.getByRole('listitem').filter({ hasText: 'First attempt' })).toContainText(
    'superseded',
  );

  // The default task is the session's current one.
  const detail = page.getByTestId('task-detail');
  await expect(detail.locator('#task-heading')).toHaveText('Rewrite the list parser');
  await expect(detail.getByTestId('steps').getByRole('listitem')).toHaveCount(3);
  await expect(detail).toContainText('Steps (3, 1 failed)');
  await expect(detail.getByTestId('messages')).toContainText('all 43 tests pass');
  await expect(detail).toContainText('parseList accepts trailing commas');
  await expect(detail.getByRole('link', { name: 'Child agent: fix the lexer' })).toBeVisible();
  await expect(detail.getByRole('link', { name: 'Plan the parser fix' })).toBeVisible(); // builds on
  await expect(detail.getByRole('link', { name: 'Document the grammar' })).toBeVisible(); // used by

  // A step opens to its full parameters and result.
  await detail.getByText('run_tests').first().click();
  await expect(detail.getByTestId('steps')).toContainText('"failed": 2');

  // The graph draws every task, a child edge per parent link and the references as arcs.
  const graph = page.getByTestId('task-graph');
  await expect(graph.getByRole('link')).toHaveCount(6);
  expect(await graph.locator('path.edge.child').count()).toBe(2);
  expect(await graph.locator('path.edge.reference').count()).toBe(2);
  await expect(page.getByText('child task (2)')).toBeVisible();
  await saveScreenshot(page, 'sessions-light');
  await expectAccessible(page, 'sessions & tasks');

  // Following a link in the graph opens that task (and the URL says so, for the back button).
  await graph.getByRole('link', { name: /Grandchild: token table/ }).click();
  await expect(detail.locator('#task-heading')).toHaveText('Grandchild: token table');
  await expect(detail.getByRole('link', { name: 'Child agent: fix the lexer' })).toBeVisible(); // its parent
  expect(page.url()).toContain(`task=${seeded.tasks.tokens}`);
  await page.goBack();
  await expect(detail.locator('#task-heading')).toHaveText('Rewrite the list parser');

  // Filter: only the unfinished ones.
  const filter = page.getByRole('group', { name: 'Show tasks that are' });
  for (const state of ['done', 'failed', 'superseded'])
    await filter.getByRole('checkbox', { name: new RegExp(`^${state}`) }).uncheck();
  await expect(timeline.getByRole('listitem')).toHaveCount(2);
  await expect(timeline).toContainText('Rewrite the list parser');
  await expect(timeline).toContainText('Child agent: fix the lexer');
  await expect(page.getByText('4 tasks hidden by the filter.')).toBeVisible();
  await filter.getByRole('button', { name: 'Show all' }).click();
  await expect(timeline.getByRole('listitem')).toHaveCount(6);

  // Another session, chosen from the list.
  await page.getByRole('button', { name: /Older session/ }).click();
  await expect(timeline.getByRole('listitem')).toHaveCount(1);
  await expect(timeline).toContainText('Add a CI workflow');
});

test('plan & progress: the resume point first, the checklist with done / in progress / next, the log', async () => {
  await page.getByRole('link', { name: 'Plan & progress' }).click();
  // Not getByLabel('Session'): until the view has switched, the Sessions view's "Sessions" list and regions match
  // it too. The picker's name is its label and then the chosen session's title.
  await page.getByRole('combobox', { name: /^Session\b/ }).selectOption({ label: 'Fix the parser' });
  const resume = page.getByTestId('resume-point');
  await expect(resume).toContainText('next:');
  await expect(resume).toContainText('Run the whole test suite');
  await expect(page.getByTestId('goal')).toContainText('Lists accept trailing commas');

  const checklist = page.getByTestId('checklist').getByRole('listitem');
  await expect(checklist).toHaveCount(4);
  await expect(checklist.nth(0)).toContainText('done');
  await expect(checklist.nth(1)).toContainText('done');
  await expect(checklist.nth(2)).toContainText('in progress');
  await expect(checklist.nth(2)).toHaveAttribute('aria-current', 'step');
  await expect(checklist.nth(2)).toContainText('next');
  await expect(checklist.nth(3)).toContainText('to do');
  await expect(page.getByText('2 of 4 steps finished')).toBeVisible();

  const log = page.getByTestId('progress-log').getByRole('listitem');
  await expect(log.first()).toContainText('All 43 tests pass after the rewrite.');
  await expect(log.first()).toContainText('next: Document the grammar change');
  await expect(page.getByTestId('progress-log')).toContainText(
    'Finished 1. Reproduce the failure with a test',
  );
  await expect(page.getByTestId('validations-done')).toContainText('npm test');
  await expect(page.getByTestId('files-changed')).toContainText('src/parser.ts');
  await expect(page.getByText('Rewrite parseList as a loop')).toBeVisible();
  await expect(page.getByText('Patch the list regex')).toHaveCount(0); // superseded: no longer in force
  await saveScreenshot(page, 'plan-light');
  await expectAccessible(page, 'plan & progress');

  // The agent moves on: the view follows.
  await page.evaluate(async (taskId) => {
    const brain = globalThis.agentBrain!;
    const plan = (await brain.getPlan(taskId as never))!;
    await brain.completePlanStep(plan.steps[2]!.id);
  }, seeded.tasks.parser);
  await expect(resume).toContainText('Document the grammar change');
  await expect(checklist.nth(3)).toHaveAttribute('aria-current', 'step');

  // Every event of this small session fits the verbatim tail: compressing would move none, and the button says so.
  await expect(page.getByRole('button', { name: 'Compress the context now' })).toBeDisabled();
  await expect(page.getByTestId('compress-blocked')).toContainText(
    /^Nothing to move: all \d+ active events fit in the verbatim tail/,
  );
  // Past the tail the older events would move: the button is enabled, and compresses.
  await page.evaluate(
    async ({ sessionId, taskId }) => {
      const brain = globalThis.agentBrain!;
      for (let i = 0; i < 40; i++)
        await brain.recordNote({
          sessionId: sessionId as never,
          taskId: taskId as never,
          text: `Read file ${i}`,
        });
    },
    { sessionId: seeded.sessionId, taskId: seeded.tasks.parser },
  );
  await page.getByRole('button', { name: 'Compress the context now' }).click();
  await expect(page.getByTestId('compressed')).toContainText(
    /Compressed: [1-9]\d* events moved to the history/,
  );
});

test('history search: what compression moved out is found, highlighted, and opens its task', async () => {
  // The plan test compressed the session: the superseded decision left the context but not the history.
  await page.getByRole('link', { name: 'History search' }).click();
  await page.getByLabel('Search the history').fill('regex');
  const hits = page.getByTestId('hits').getByRole('listitem');
  const decision = hits.filter({ hasText: 'Patch the list regex' });
  await expect(decision).toBeVisible();
  await expect(decision.locator('mark').first()).toHaveText(/regex/i);
  await expect(decision).toContainText('decision');
  expect(page.url()).toContain('#/search?q=regex');
  await saveScreenshot(page, 'search-light');
  await expectAccessible(page, 'history search');

  await page.getByLabel('Search the history').fill('parseList rewritten');
  const change = hits.filter({ hasText: 'src/parser.ts' });
  await expect(change).toContainText('file change');
  await change.getByRole('link', { name: /Open the/ }).click();
  await expect(page.getByTestId('task-detail').locator('#task-heading')).toHaveText(
    'Rewrite the list parser',
  );

  await page.goto('/#/search?q=nothing-like-this-anywhere');
  await expect(page.getByText('Nothing found for “nothing-like-this-anywhere”.')).toBeVisible();
});

test('sessions view follows a running agent live', async () => {
  await page.goto(`/#/sessions?session=${seeded.sessionId}&task=${seeded.tasks.lexer}`);
  const detail = page.getByTestId('task-detail');
  await expect(detail.locator('#task-heading')).toHaveText('Child agent: fix the lexer');
  await page.evaluate(async (taskId) => {
    const brain = globalThis.agentBrain!;
    await brain.recordStep({
      taskId: taskId as never,
      tool: 'grep',
      params: { pattern: 'TOKEN_' },
      result: { hits: 7 },
      status: 'ok',
    });
    await brain.setTaskState(taskId as never, 'running');
  }, seeded.tasks.lexer);
  await expect(detail.getByTestId('steps')).toContainText('grep');
  await expect(detail.locator('header .state')).toHaveText('running');
});

test('storage: the facts, an export that imports back, and a refused file said plainly', async () => {
  await page.getByRole('link', { name: 'Storage' }).click();
  const facts = page.getByTestId('storage-facts');
  await expect(facts).toContainText('agent.db in this origin');
  await expect(facts).toContainText(/version \d+/);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export agent.db' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^agent-\d{4}-\d{2}-\d{2}-\d{4}\.db$/);
  const exported = {
    name: file.suggestedFilename(),
    mimeType: 'application/octet-stream',
    buffer: await readFile(await file.path()),
  };
  expect(exported.buffer.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');
  await expect(page.getByText(/^Exported .* as agent-/)).toBeVisible();

  // A file that is not a database is refused; nothing changes.
  await page.getByLabel('Import a database…').setInputFiles({
    name: 'notes.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('PK\u0003\u0004 not a database'.repeat(100)),
  });
  await expect(page.getByTestId('import-error')).toContainText('This file was refused');
  await expect(page.getByTestId('import-error')).toContainText('Your current database is unchanged.');
  await saveScreenshot(page, 'storage-light');
  await expectAccessible(page, 'storage');

  // A new session after the export disappears when the export is imported back.
  await page.evaluate(() => globalThis.agentBrain!.startSession({ title: 'made after the export' }));
  await page.getByLabel('Import a database…').setInputFiles(exported);
  await expect(page.getByTestId('import-done')).toContainText(/^Imported agent-/);
  await page.getByRole('link', { name: 'Sessions & tasks' }).click();
  await expect(page.getByRole('button', { name: /Fix the parser/ })).toBeVisible();
  await expect(page.getByRole('button', { name: /made after the export/ })).toHaveCount(0);
});

test('storage: the audit as charts, the cleanup dry run with each verdict and reason, then run, then the log', async () => {
  await page.goto('/#/storage');
  await expect(page.getByTestId('chart-kinds').locator('canvas')).toBeVisible();
  await page.getByTestId('chart-kinds').getByText('Show the numbers').click();
  await expect(page.getByTestId('chart-kinds').getByRole('row', { name: /^Steps/ })).toBeVisible();
  await expect(page.getByTestId('chart-tasks').getByRole('img')).toHaveAttribute(
    'aria-label',
    /largest first: Rewrite the list parser/,
  );

  const summary = page.getByTestId('cleanup-summary');
  await expect(summary).toContainText('1 task can be cleaned');
  const plan = page.getByTestId('cleanup-plan');
  await expect(plan.getByRole('row', { name: /First attempt: regex patch/ })).toContainText(
    /clean.*superseded/i,
  );
  await page.getByLabel('Show kept tasks').check();
  // Failed, but the latest task of its session: its rollback is still offered, so it keeps its contents.
  await expect(plan.getByRole('row', { name: /Document the grammar/ })).toContainText(
    /keep.*the latest task of its session/i,
  );
  await expect(plan.getByRole('row', { name: /Plan the parser fix/ })).toContainText(
    /keep.*needed by “Rewrite the list parser”/i,
  );
  // The lexer agent runs again (the live test above), so its child is kept through it.
  await expect(plan.getByRole('row', { name: /Grandchild: token table/ })).toContainText(
    /keep.*a child task of “Child agent: fix the lexer”/,
  );
  await saveScreenshot(page, 'storage-cleanup-light');
  await expectAccessible(page, 'storage with charts and cleanup');

  await page.getByRole('button', { name: 'Run cleanup…' }).click();
  await expect(page.getByText('Remove the heavy data of 1 task')).toBeVisible();
  await page.getByRole('button', { name: 'Clean now' }).click();
  await expect(page.getByTestId('cleanup-done')).toContainText('Cleaned 1 task');
  await expect(summary).toContainText('0 tasks can be cleaned');
  const log = page.getByTestId('cleanup-log');
  await expect(log.getByRole('row', { name: /First attempt: regex patch/ })).toContainText(
    '1 step, 0 checkpoints',
  );
  await expect(log.getByRole('row', { name: /Document the grammar/ })).toHaveCount(0);

  // The cleaned task keeps its row and says what happened.
  await page.goto(`/#/sessions?session=${seeded.sessionId}&task=${seeded.tasks.oldTry}`);
  await expect(page.getByTestId('task-detail')).toContainText("Cleanup removed this task's heavy data");
  await page.goto('/#/storage');
  await page.getByRole('button', { name: 'Compact now' }).click();
  await expect(page.getByTestId('compact-done')).toContainText('Compacted:');
});

test('the theme toggle switches to dark, and is remembered by this browser across a reload', async () => {
  await page.goto(`/#/sessions?session=${seeded.sessionId}`);
  // The button reads what it switches to.
  const toDark = page.getByRole('button', { name: 'Dark theme' });
  const toLight = page.getByRole('button', { name: 'Light theme' });
  if (await toLight.isVisible()) await toLight.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await toDark.click();
  await expect(toLight).toBeVisible();
  await expect(toDark).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(background).toBe('rgb(18, 18, 24)');
  await page.reload();
  await page.waitForFunction(() => globalThis.agentBrain !== undefined);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => localStorage.getItem('agent-brain.theme'))).toBe('dark');
  await expect(page.getByTestId('task-detail')).toBeVisible();
  await saveScreenshot(page, 'sessions-dark');
  await expectAccessible(page, 'sessions & tasks, dark');
  await page.getByRole('link', { name: 'Storage' }).click();
  await expect(page.getByTestId('storage-facts')).toBeVisible();
  await saveScreenshot(page, 'storage-dark');
  await expectAccessible(page, 'storage, dark');
  await toLight.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
});

test('at 640 px wide every view fits without sideways scrolling, and the keyboard reaches the navigation', async () => {
  await page.setViewportSize({ width: 640, height: 900 });
  try {
    await page.goto(`/#/sessions?session=${seeded.sessionId}`);
    await expect(page.getByTestId('task-detail')).toBeVisible();
    for (const view of ['plan', 'sessions', 'storage', 'search']) {
      await page.goto(`/#/${view}?session=${seeded.sessionId}`);
      await page.waitForFunction(() => globalThis.agentBrain !== undefined);
      await expect(page.locator('main')).not.toBeEmpty();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${view} scrolls sideways`).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `${view}-640`);
    }
    // Tab from the top of a fresh page: the skip button, the link to the playground, the theme toggle, then the
    // views' menu (below 700 px the views fold into it), opened with Enter.
    await page.goto('/#/storage');
    await page.reload();
    await expect(page.getByTestId('storage-facts')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Playground' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Dark theme' })).toBeFocused();
    await page.keyboard.press('Tab');
    const menu = page.getByRole('navigation', { name: 'Views' }).getByRole('button');
    await expect(menu).toBeFocused();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    const firstView = page.getByRole('navigation', { name: 'Views' }).getByRole('link').first();
    await expect(firstView).toBeFocused();
    const href = await firstView.getAttribute('href');
    const label = (await firstView.innerText()).replace(/^[^\p{L}]+/u, '').trim(); // without its icon
    await page.keyboard.press('Enter');
    // The choice closes the menu, which then names the view.
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toContainText(label);
    expect(new URL(page.url()).hash).toBe(href);
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});
