/**
 * Issue 13, findings 7 and 8, on the built app: `.agent` files that froze the page or blanked the preview now
 * show their text with the sentence that says why, with no long task on the page; a file wearing the app's own
 * class names (the project chooser's full-cover drop hint) stays a plain div inside the preview box.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import {
  emphasisDelimiters,
  impersonation,
  nestedBlockquotes,
  oneLineNestedLists,
} from '../fixtures/hostile-markdown';
import { createProfile, openApp, watchErrors, type Profile } from './harness';

test.describe.configure({ mode: 'serial' });

let profile: Profile;
let context: BrowserContext;
let page: Page;
let errors: string[];

test.beforeAll(async () => {
  profile = await createProfile();
  context = await profile.launch();
  page = await openApp(context, '/#/project');
  errors = watchErrors(page);
  await page.getByRole('button', { name: 'Open the demo project' }).click();
  await expect(page.getByTestId('project-name')).toContainText('the built-in demo project');
});

test.afterAll(async () => {
  await context?.close();
  await profile?.dispose();
});

test.afterEach(() => {
  expect(errors, 'console errors').toEqual([]);
});

const fileLink = (name: string) =>
  page.getByRole('navigation', { name: 'Project files' }).getByRole('link', { name, exact: true });

const writeFile = (path: string, text: string) =>
  page.evaluate(
    async ([path, text]) => {
      await globalThis.agentBrain!.writeAgentFile(path, text, { expectedVersion: null });
    },
    [path, text] as const,
  );

/** Starts collecting the page's long tasks; the returned function gives the longest so far (ms). */
async function watchLongTasks(): Promise<() => Promise<number>> {
  await page.evaluate(() => {
    const state = globalThis as { __longest?: number };
    state.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) state.__longest = Math.max(state.__longest ?? 0, entry.duration);
    }).observe({ type: 'longtask' });
  });
  return () =>
    page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return (globalThis as { __longest?: number }).__longest ?? 0;
    });
}

for (const [file, make, sentence] of [
  [
    'DEEP-QUOTES.md',
    () => nestedBlockquotes(20_000),
    'Preview off: this file nests 20,000 levels deep (limit 100); showing its text.',
  ],
  [
    'DEEP-LISTS.md',
    () => oneLineNestedLists(20_000),
    'Preview off: this file nests 20,000 levels deep (limit 100); showing its text.',
  ],
  [
    'EMPHASIS.md',
    () => emphasisDelimiters(200_000),
    'Preview off: this file has 200,000 emphasis marks (*, _ or ~) in one paragraph (limit 5,000); showing its text.',
  ],
] as const) {
  test(`${file}: the preview says why it is off and shows the text; the page stays responsive`, async () => {
    const source = make();
    await writeFile(`.agent/${file}`, source);
    const longest = await watchLongTasks();
    await fileLink(file).click();
    const preview = page.getByTestId('document').getByTestId('preview');
    // The same preview showed the file before (maybe with the same sentence) until this one is rendered.
    const showsSource = () =>
      preview.locator('pre').evaluate((pre, text) => pre.textContent === text, source);
    await expect.poll(showsSource).toBe(true);
    await expect(preview.getByTestId('preview-off')).toHaveText(sentence);
    // The editor beside the preview holds the same text, so this bounds the whole page, not only the preview.
    expect(await longest()).toBeLessThan(400);
  });
}

test('a file wearing the app’s own class names stays a plain div inside the preview', async () => {
  // The drop hint's class as the built app's CSS names it (Svelte adds a hash).
  const appClass = await page.evaluate(() => {
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        const match =
          rule instanceof CSSStyleRule && /^\.drop-hint\.(svelte-[\w-]+)$/.exec(rule.selectorText);
        if (match) return `drop-hint ${match[1]}`;
      }
    }
    return null;
  });
  expect(appClass, 'the app styles a .drop-hint').not.toBeNull();
  await writeFile('.agent/FAKE.md', impersonation(appClass!));
  await fileLink('FAKE.md').click();
  const preview = page.getByTestId('document').getByTestId('preview');
  const fake = preview.getByText('FAKE: your data was deleted.');
  await expect(fake).toBeVisible();
  expect(await fake.evaluate((div) => div.getAttributeNames())).toEqual([]);
  const [box, fakeBox] = [await preview.boundingBox(), await fake.boundingBox()];
  expect(box && fakeBox).toBeTruthy();
  expect(fakeBox!.x).toBeGreaterThanOrEqual(box!.x);
  expect(fakeBox!.y).toBeGreaterThanOrEqual(box!.y);
  expect(fakeBox!.x + fakeBox!.width).toBeLessThanOrEqual(box!.x + box!.width);
  expect(fakeBox!.y + fakeBox!.height).toBeLessThanOrEqual(box!.y + box!.height);
});
