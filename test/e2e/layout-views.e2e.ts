import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, expectNoSidewaysOverflow, saveScreenshot } from './ui-helpers';

// Every view at a phone's and a laptop's width, in both themes, on the demo's data: screenshots under
// test/.artifacts/screenshots/layout/, nothing wider than the viewport, axe clean. Then what each width promises.
test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

const views = ['demo', 'project', 'plan', 'sessions', 'checkpoints', 'storage', 'search'] as const;
const widths = [390, 1280] as const;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context);
  errors = watchErrors(page);
  // The demo's own task, run to its end: every view then has something to show.
  await page.getByLabel('Pace').selectOption({ label: 'as fast as it goes' });
  await page.getByRole('button', { name: 'Start the demo task' }).click();
  await expect(page.getByTestId('demo-finished')).toBeVisible({ timeout: 200_000 });
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

/** Opens a view and waits for its data (not a loading line) before anything is measured. */
async function openView(view: (typeof views)[number], width: number): Promise<void> {
  await page.goto(view === 'search' ? '/#/search?q=cursor' : `/#/${view}`);
  await expect(page.locator('main h2').first()).toBeVisible();
  const shown: Record<(typeof views)[number], () => Promise<void>> = {
    demo: () => expect(page.getByTestId('demo-finished')).toBeVisible(),
    project: () => expect(page.getByTestId('document').getByTestId('preview')).not.toBeEmpty(),
    plan: () => expect(page.getByTestId('resume-point')).toContainText('Everything is done'),
    sessions: () => expect(page.getByTestId('task-graph').getByRole('link').nth(1)).toBeVisible(),
    checkpoints: () =>
      expect(
        page
          .getByTestId('diff')
          .locator(width <= 700 ? '.d2h-code-line' : '.d2h-code-side-line')
          .first(),
      ).toBeVisible(),
    storage: () => expect(page.getByTestId('chart-tasks').getByRole('img')).toBeVisible(),
    search: () => expect(page.getByTestId('hits').getByRole('listitem').first()).toBeVisible(),
  };
  await shown[view]();
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  const html = page.locator('html');
  if ((await html.getAttribute('data-theme')) !== theme) {
    await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
  }
  await expect(html).toHaveAttribute('data-theme', theme);
}

test('every view at 390 and 1280 px in both themes: screenshots, nothing wider than the viewport, axe clean', async () => {
  test.setTimeout(300_000);
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 700 ? 844 : 800 });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      for (const view of views) {
        await openView(view, width);
        await expectNoSidewaysOverflow(page, `${view} at ${width} px, ${theme}`);
        await saveScreenshot(page, `layout/${view}-${width}-${theme}`);
        // The picture showed the diff (a redraw never leaves the box empty on the way).
        if (view === 'checkpoints') await expect(page.locator('.render .d2h-file-wrapper')).toHaveCount(1);
        await expectAccessible(page, `${view} at ${width} px, ${theme}`);
      }
    }
  }
  await setTheme('light');
});

test('below 700 px the views are a menu that names the current one; wider, every view is listed', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/plan');
  const nav = page.getByRole('navigation', { name: 'Views' });
  const menu = nav.getByRole('button');
  await expect(menu).toContainText('Plan & progress');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link')).toHaveCount(0); // folded away, not a strip showing three of seven
  await menu.click();
  await expect(nav.getByRole('link')).toHaveCount(views.length);
  for (const link of await nav.getByRole('link').all()) await expect(link).toBeInViewport();
  await expectNoSidewaysOverflow(page, 'the open menu');
  await saveScreenshot(page, 'layout/menu-open-390-light');
  await expectAccessible(page, 'the open views menu');
  await nav.getByRole('link', { name: 'Storage' }).click();
  await expect(page).toHaveURL(/#\/storage$/);
  await expect(menu).toContainText('Storage');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  // Escape closes it and gives the focus back to the button.
  await menu.click();
  await expect(nav.getByRole('link').first()).toBeVisible();
  await nav.getByRole('link').first().focus();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(menu).toBeFocused();

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole('link')).toHaveCount(views.length);
});

test('tables: stacked rows labelled by their column at 390 px; at 1280 px the log keeps "Line" on one line', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/project?file=.agent%2FSESSION.jsonl');
  const table = page.getByRole('region', { name: 'Log lines' }).locator('table');
  await expect(table.locator('tbody tr').nth(2)).toBeVisible();
  await expect(table.locator('tbody tr').first().locator('td').last()).toHaveAttribute('data-label', 'What');
  const cells = await table
    .locator('tbody tr')
    .first()
    .locator('td')
    .evaluateAll((tds) =>
      tds.map((td) => ({
        label: td.getAttribute('data-label'),
        before: getComputedStyle(td, '::before').content,
        width: td.getBoundingClientRect().width,
        rowWidth: td.parentElement!.getBoundingClientRect().width,
      })),
    );
  expect(cells.map((c) => c.label)).toEqual(['Line', 'When', 'Kind', 'What']);
  for (const cell of cells) {
    expect(cell.before).toBe(`"${cell.label}"`);
    // Each cell the width of its row: one above the other, not four squeezed side by side.
    expect(cell.width).toBeGreaterThanOrEqual(cell.rowWidth - 1);
  }
  await expectNoSidewaysOverflow(page, 'SESSION.jsonl at 390 px');
  await saveScreenshot(page, 'layout/session-log-390-light');

  // Another view's table, by the same shared rule: the cleanup dry run (no "Ta/sk", "W/h/y" a letter a line).
  await page.goto('/#/storage');
  await page.getByLabel('Show kept tasks').check();
  const plan = page.getByTestId('cleanup-plan');
  await expect(plan.locator('tbody tr').first()).toBeVisible();
  // The labels are written from the header row on the frame after the rows appear (table-labels.ts): wait for them.
  await expect(plan.locator('tbody tr').first().locator('td').last()).toHaveAttribute('data-label', 'Frees');
  const planCells = await plan
    .locator('tbody tr')
    .first()
    .locator('td')
    .evaluateAll((tds) =>
      tds.map((td) => ({
        label: td.getAttribute('data-label'),
        width: td.getBoundingClientRect().width,
        rowWidth: td.parentElement!.getBoundingClientRect().width,
      })),
    );
  expect(planCells.map((c) => c.label)).toEqual(['Task', 'State', 'Verdict', 'Why', 'Frees']);
  for (const cell of planCells) expect(cell.width).toBeGreaterThanOrEqual(cell.rowWidth - 1);
  await expectNoSidewaysOverflow(page, 'the cleanup dry run at 390 px');
  await saveScreenshot(page, 'layout/cleanup-plan-390-light');
  await page.getByLabel('Show kept tasks').uncheck();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/project?file=.agent%2FSESSION.jsonl');
  const header = table.getByRole('columnheader', { name: 'Line' });
  await expect(header).toBeVisible();
  const lines = await header.evaluate((th) => {
    const range = document.createRange();
    range.selectNodeContents(th);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  expect(lines, '"Line" on one line').toBe(1);
  await saveScreenshot(page, 'layout/session-log-1280-light');
});

test('diffs: unified below 700 px, side by side wider; long lines wrap on request; the first change is in view', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/checkpoints');
  const diff = page.getByTestId('diff');
  await expect(diff.locator('.d2h-code-line').first()).toBeVisible();
  await expect(diff.getByLabel('Unified')).toBeChecked();
  await expect(diff.locator('.d2h-code-side-line')).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.reload();
  await expect(diff.locator('.d2h-code-side-line').first()).toBeVisible();
  await expect(diff.getByLabel('Side by side')).toBeChecked();
  const firstChangeSeen = () =>
    diff.evaluate((root) => {
      const mark = root.querySelector(
        '.d2h-code-side-line ins, .d2h-code-side-line del, .d2h-code-line ins, .d2h-code-line del',
      );
      const pane = mark?.closest('.d2h-file-side-diff, .d2h-file-diff');
      const scroller = root.querySelector('.render');
      if (!mark || !pane || !scroller) return 'no change marked';
      const m = mark.getBoundingClientRect();
      const p = pane.getBoundingClientRect();
      const s = scroller.getBoundingClientRect();
      return m.left >= p.left && m.right <= p.right + 1 && m.top >= s.top && m.bottom <= s.bottom + 1
        ? 'seen'
        : `change at ${m.left}-${m.right} × ${m.top}, pane ${p.left}-${p.right}, box ${s.top}-${s.bottom}`;
    });
  await expect.poll(firstChangeSeen).toBe('seen');

  // Wrapping: no pane scrolls sideways any more, every line fits its side.
  const sideways = () =>
    diff
      .locator('.d2h-file-side-diff, .d2h-file-diff')
      .evaluateAll((panes) => panes.some((pane) => pane.scrollWidth > pane.clientWidth + 1));
  await diff.getByLabel('Wrap long lines').check();
  await expect.poll(sideways).toBe(false);
  await saveScreenshot(page, 'layout/diff-wrapped-1280-light');
  await diff.getByLabel('Unified').check();
  await expect(diff.locator('.d2h-code-line').first()).toBeVisible();
  await expect.poll(sideways).toBe(false);
  await expect.poll(firstChangeSeen).toBe('seen');
});

test('charts fit: the legend is beside the chart, not drawn over a bar, and the tasks chart fits at 390 px', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/storage');
  const chart = page.getByTestId('chart-reclaim');
  const legend = chart.locator('.legend li'); // aria-hidden: the chart's name and table say it already
  await expect(legend).toHaveText(['Kept', 'Cleanup would free', 'Free pages']);
  const [canvasBox, legendBox] = await Promise.all([
    chart.locator('canvas').boundingBox(),
    chart.locator('.legend').boundingBox(),
  ]);
  expect(legendBox!.y + legendBox!.height).toBeLessThanOrEqual(canvasBox!.y + 0.5);
  for (const id of ['chart-kinds', 'chart-reclaim', 'chart-tasks']) {
    const box = await page.getByTestId(id).locator('canvas').boundingBox();
    expect(box!.x + box!.width, id).toBeLessThanOrEqual(390);
  }
});

test('search: a superseded decision says so; no title repeats its kind or path; the example finds something', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/search');
  const input = page.getByLabel('Search the history');
  const examples = ((await input.getAttribute('placeholder')) ?? '').replace(/^e\.g\.\s*/, '').split(/,\s*/);
  expect(examples.length).toBeGreaterThanOrEqual(2);
  const hits = page.getByTestId('hits').getByRole('listitem');
  for (const example of examples) {
    await input.fill(example);
    await expect(page.getByRole('status').filter({ hasText: `for “${example}”` })).toBeVisible();
    await expect(hits.first(), `the example “${example}” finds something in the demo`).toBeVisible();
  }

  await input.fill('decision cursors');
  await expect(page.getByRole('status').filter({ hasText: '“decision cursors”' })).toBeVisible();
  await expect(hits.filter({ hasText: 'superseded decision' }).first()).toBeVisible();
  await expect(hits.filter({ hasText: 'superseded decision' }).first()).toContainText('No longer in force');
  // The decision that replaced it reads as a plain decision.
  await expect(
    hits.filter({ hasText: 'Cursors are opaque base64 strings' }).first().getByTestId('hit-kind'),
  ).toHaveText('decision');
  await saveScreenshot(page, 'layout/search-superseded-1280-light');

  await input.fill('paginate.ts');
  await expect(page.getByRole('status').filter({ hasText: '“paginate.ts”' })).toBeVisible();
  for (const item of await hits.all()) {
    const kind = (await item.getByTestId('hit-kind').textContent())!.trim();
    const title = (await item.getByTestId('hit-title').count())
      ? await item.getByTestId('hit-title').innerText()
      : '';
    const snippet = await item.locator('.snippet').innerText();
    expect(title.toLowerCase(), 'the title repeats the kind').not.toContain(kind.replace(/^superseded /, ''));
    expect(
      snippet.toLowerCase().startsWith(`${kind.replace(/^superseded /, '')}:`),
      'the text repeats the kind',
    ).toBe(false);
    const path = (await item.locator('code.path').count())
      ? await item.locator('code.path').innerText()
      : null;
    if (path) expect(title.split(path).length - 1, `“${title}” says ${path} twice`).toBeLessThanOrEqual(1);
  }
});

test('/ focuses the search from any view; Escape closes a dialog', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/sessions');
  await expect(page.getByTestId('task-graph')).toBeVisible();
  await page.locator('body').press('/');
  await expect(page).toHaveURL(/#\/search/);
  const input = page.getByLabel('Search the history');
  await expect(input).toBeFocused();
  await expect(input).toHaveValue(''); // the slash is the shortcut, not typed
  // In a text field a slash is just a slash.
  await page.keyboard.type('src/');
  await expect(input).toHaveValue('src/');

  // The whole-brain import's confirmation (here refusing a file that is no archive) closes on Escape.
  await page.goto('/#/storage');
  await page.getByLabel('Import a brain…').setInputFiles({
    name: 'not-an-archive.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('PK\u0003\u0004 not really'.repeat(50)),
  });
  const dialog = page.getByTestId('archive-confirm');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('polish: the theme button names the theme it switches to; the demo has one name; the Project view opens a file', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/demo');
  await setTheme('light');
  await expect(page.locator('header button.theme')).toHaveText(/Dark theme/);
  await page.locator('header button.theme').click();
  await expect(page.locator('header button.theme')).toHaveText(/Light theme/);
  await setTheme('light');

  await expect(page.getByTestId('demo-project-open')).toContainText('tiny-paginate');
  await page.goto('/#/project');
  await expect(page.getByTestId('project-name')).toContainText('tiny-paginate');
  await expect(page.getByTestId('project-name')).not.toContainText(/^demo\b/);
  // No empty "Pick a file" pane: the project's memory is open.
  await expect(page.getByTestId('document').getByRole('heading', { level: 3 })).toHaveText(
    '.agent/PROJECT_MEMORY.md',
  );
  await page.goto('/#/storage');
  await expect(page.getByTestId('archive-contents')).toContainText('in the project “tiny-paginate”');

  // A file with one problem (a JSONL line an editor cut short, as a person's hand edit might) says "1 problem".
  const problems = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const file = await brain.readAgentFile('.agent/HISTORY.jsonl');
    await brain.writeAgentFile('.agent/HISTORY.jsonl', `${file.text}{"kind":"note","text":"cut\n`, {
      expectedVersion: file.version,
    });
    return (await brain.listAgentFiles()).find((f) => f.path === '.agent/HISTORY.jsonl')?.problems.length;
  });
  expect(problems).toBe(1);
  await page.goto('/#/project');
  const flag = page.getByRole('navigation', { name: 'Project files' }).getByTestId('file-problems');
  await expect(flag).toHaveAttribute('title', '1 problem');
  await expect(flag).toHaveText(/^\W*1 problem$/);
});

test('a refused database import says once that nothing changed, and the older export line is gone', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/storage');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export agent.db' }).click();
  await download;
  await expect(page.getByText(/^Exported .* as /).first()).toBeVisible();
  await page.getByLabel('Import a database…').setInputFiles({
    name: 'notes.db',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('not a database at all '.repeat(40)),
  });
  const error = page.getByTestId('import-error');
  await expect(error).toContainText('This file was refused');
  const text = (await error.textContent()) ?? '';
  expect(text.match(/nothing (was )?changed|unchanged/gi), text).toHaveLength(1);
  await expect(
    page.locator('section[aria-labelledby="file-heading"]').getByText(/^\s*Exported /),
  ).toHaveCount(0);
});
