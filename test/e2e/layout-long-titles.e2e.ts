/**
 * Imported histories kept apart and laid out at every width (issue 28), on the built app with the demo project
 * open: 50 SWE runs with long instance ids and long task lines and a Claude Code session of its own cwd imported;
 * then every view at 390 and 1280 px in both themes: the document no wider than the viewport, nothing sticking
 * out, axe clean, screenshots under test/.artifacts/screenshots/long-titles/. A long title is cut in its picker
 * with the whole title on hover and focus. The demo project's files are byte-identical afterwards. A search hit's
 * "Open the step" lands on that step, focused.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateMiniSweAgentTrajectory } from '../fixtures/transcripts/swe-agent';
import { createProfile, openApp, watchErrors, type Profile } from './harness';
import { expectAccessible, expectNoSidewaysOverflow, saveScreenshot } from './ui-helpers';

test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

const views = ['project', 'plan', 'sessions', 'checkpoints', 'storage', 'search'] as const;
const widths = [390, 1280] as const;
const demoPaths = ['.agent/SESSION_SUMMARY.md', '.agent/plan/PLAN.md', '.agent/SESSION.jsonl', 'AGENTS.md'];

/** 50 runs: an instance id with no space to break at, a task line far longer than a title. */
function sweRuns(): { name: string; text: string }[] {
  const base = generateMiniSweAgentTrajectory();
  return Array.from({ length: 50 }, (_, i) => {
    const id = `organisation-with-a-long-name__repository-with-a-long-name-${1000 + i}`;
    // One run's task is long, as real ones are (a PR description with its reproduction): its goal is the whole task.
    const detail =
      i === 7
        ? ` ${'Steps to reproduce: build an app whose config sets sort_keys to False, return a nested mapping from a view, and compare the body with the golden file; the keys come back sorted at every level. '.repeat(8)}`
        : '';
    const line = `Run ${i}: the JSON provider sorts the keys of every nested mapping even when sort_keys is False and the app config says otherwise, which breaks the golden files of downstream users${detail}`;
    return {
      name: `${id}/${id}.traj.json`,
      text: base.text.replaceAll('`flask.json.provider` sorts keys even when `sort_keys=False`.', line),
    };
  });
}

async function demoFiles(): Promise<(string | null)[]> {
  return page.evaluate(
    (paths) =>
      Promise.all(
        paths.map((path) =>
          globalThis.agentBrain!.readProjectBytes(path).then(
            (f) => Array.from(f.bytes).join(','),
            () => null,
          ),
        ),
      ),
    demoPaths,
  );
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context, '/#/project');
  errors = watchErrors(page);
  await page.getByRole('button', { name: 'Open the demo project' }).click();
  await expect(page.getByTestId('project-name')).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  const html = page.locator('html');
  if ((await html.getAttribute('data-theme')) !== theme)
    await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
  await expect(html).toHaveAttribute('data-theme', theme);
}

test('50 long-titled runs and a session of its own cwd imported with the demo open: the demo untouched', async () => {
  test.setTimeout(240_000);
  const before = await demoFiles();
  const runs = sweRuns();
  const claude = generateClaudeCodeSession();
  const importBatch = (files: { name: string; text?: string; base64?: string }[]) =>
    page.evaluate(async (files) => {
      const enc = new TextEncoder();
      const bytes = (f: { text?: string; base64?: string }) =>
        f.text !== undefined ? enc.encode(f.text) : Uint8Array.from(atob(f.base64!), (c) => c.charCodeAt(0));
      const result = await globalThis.agentBrain!.importTranscript({
        files: files.map((f) => ({ name: f.name, data: bytes(f) })),
      });
      return result.sessions.map((s) => s.title);
    }, files);
  const imported: string[] = [];
  for (let i = 0; i < runs.length; i += 5) imported.push(...(await importBatch(runs.slice(i, i + 5))));
  imported.push(
    ...(await importBatch(
      [claude.main, claude.subagent].map((f) => ({
        name: f.name,
        base64: Buffer.from(f.bytes).toString('base64'),
      })),
    )),
  );
  expect(imported).toHaveLength(51);
  for (const title of imported) expect(title.length).toBeLessThanOrEqual(80);
  expect(new Set(imported).size).toBe(51);
  expect(await demoFiles()).toEqual(before);
  expect(errors).toEqual([]);
});

test('every view at 390 and 1280 px in both themes: no wider than the viewport, axe clean', async () => {
  test.setTimeout(400_000);
  const [latest] = await page.evaluate(() => globalThis.agentBrain!.listImportedSessions());
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 700 ? 844 : 800 });
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme);
      for (const view of views) {
        const query =
          view === 'search' ? '?q=sorts' : view === 'project' ? '' : `?session=${latest!.sessionId}`;
        await page.goto(`/#/${view}${query}`);
        await expect(page.locator('main h2').first()).toBeVisible();
        await expect(page.getByText(/^Loading/)).toHaveCount(0);
        await expectNoSidewaysOverflow(page, `${view} at ${width} px, ${theme}`);
        await saveScreenshot(page, `long-titles/${view}-${width}-${theme}`);
        await expectAccessible(page, `${view} at ${width} px, ${theme}`);
      }
    }
  }
  await setTheme('light');
  expect(errors).toEqual([]);
});

test('an imported run’s goal, its whole first message, takes three lines in the Plan view, all of it on focus', async () => {
  // The run whose first message is longest.
  const { swe, point } = await page.evaluate(async () => {
    const brain = globalThis.agentBrain!;
    const all = await Promise.all(
      (await brain.listImportedSessions()).map(async (r) => ({
        swe: r,
        point: await brain.resumePoint(r.sessionId),
      })),
    );
    return all.reduce((a, b) => (b.point.goal.length > a.point.goal.length ? b : a));
  });
  expect(point.goal.length).toBeGreaterThan(1_000);
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 700 ? 844 : 800 });
    await page.goto(`/#/plan?session=${swe.sessionId}`);
    const goal = page.getByTestId('goal');
    await expect(goal).toHaveAttribute('title', point.goal);
    // The pointer away from it (it shows the whole goal under the pointer).
    const away = { x: width - 2, y: (width < 700 ? 844 : 800) - 2 };
    await page.mouse.move(away.x, away.y);
    const lineHeight = await goal.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight));
    const clamped = (await goal.boundingBox())!.height;
    expect(clamped).toBeLessThanOrEqual(lineHeight * 3 + 2);
    await goal.hover();
    await expect.poll(async () => (await goal.boundingBox())!.height).toBeGreaterThan(clamped);
    await page.mouse.move(away.x, away.y);
    await expect.poll(async () => (await goal.boundingBox())!.height).toBe(clamped);
    // Reached with the keyboard (Tab onto it), as a keyboard user reads it.
    await goal.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(goal).toBeFocused();
    await expect.poll(async () => (await goal.boundingBox())!.height).toBeGreaterThan(clamped);
    await saveScreenshot(page, `long-titles/plan-goal-focused-${width}`);
    await goal.blur();
  }
  expect(errors).toEqual([]);
});

/** Elements wider than the nearest card (`.panel`) they are in: a column spilling out of its card. */
async function spillsOutOfCards(): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const panel of document.querySelectorAll('.panel')) {
      const box = panel.getBoundingClientRect();
      for (const element of panel.querySelectorAll('*')) {
        const r = element.getBoundingClientRect();
        if (r.width === 0 || r.right <= box.right + 1) continue;
        let held = false;
        for (let up = element.parentElement; up && up !== panel; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') held = true;
        if (!held) out.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`);
      }
    }
    return out.slice(0, 10);
  });
}

test('at 1280: the Project view’s file column stays in its card; a session’s details start beside its list; the picker is cut with its whole title on hover', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/project');
  await expect(page.getByRole('navigation', { name: 'Project files' })).toBeVisible();
  expect(await spillsOutOfCards()).toEqual([]);

  const [latest] = await page.evaluate(() => globalThis.agentBrain!.listImportedSessions());
  const tasks = await page.evaluate((id) => globalThis.agentBrain!.listTasks(id), latest!.sessionId);
  await page.goto(`/#/sessions?session=${latest!.sessionId}&task=${tasks[0]!.id}`);
  const detail = page.getByTestId('task-detail');
  await expect(detail).toBeVisible();
  const top = await detail.evaluate((el) => el.getBoundingClientRect().top + scrollY);
  expect(top, 'the task details start within the first screens, not below the list').toBeLessThan(1_200);
  expect(await spillsOutOfCards()).toEqual([]);

  for (const view of ['plan', 'checkpoints'] as const) {
    await page.goto(`/#/${view}?session=${latest!.sessionId}`);
    const picker = page.getByLabel('Session');
    await expect(picker).toBeVisible();
    const title = await page.evaluate(
      async (id) => (await globalThis.agentBrain!.getSession(id)).title,
      latest!.sessionId,
    );
    await expect(picker).toHaveAttribute('title', title);
    const width = await picker.evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(640);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1280);
  }
});

test('a search hit’s "Open the step" opens that step, scrolled into view, with the focus on it', async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#/search?q=pytest');
  const open = page.getByRole('link', { name: 'Open the step' }).first();
  await expect(open).toBeVisible();
  await open.click();
  await expect(page).toHaveURL(/[?&]step=\d+/);
  const step = new URL(page.url().replace('#/', '')).searchParams.get('step');
  const summary = page.locator(`summary[data-step="${step}"]`);
  await expect(summary).toBeFocused();
  await expect(summary).toBeInViewport();
  await expect(page.locator(`details:has(> summary[data-step="${step}"])`)).toHaveAttribute('open', '');
  expect(errors).toEqual([]);
});
