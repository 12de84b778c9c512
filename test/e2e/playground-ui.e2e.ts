/**
 * The playground pages as a person meets them (issue 28): the app's header and theme, a link from the app and one
 * back, and a layout that holds at a phone's and a laptop's width in both themes — nothing wider than the viewport,
 * axe clean, screenshots under test/.artifacts/screenshots/playground/ — with a finished run's transcript on show.
 */
import { expect, test, type Page } from '@playwright/test';
import { createProfile, openApp, watchErrors } from './harness';
import { fillEndpoint } from './playground-page';
import { startScriptedModel } from './scripted-model';
import { expectAccessible, expectNoSidewaysOverflow, saveScreenshot } from './ui-helpers';

const widths = [390, 1280] as const;
const themes = ['light', 'dark'] as const;

async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const html = page.locator('html');
  if ((await html.getAttribute('data-theme')) !== theme)
    await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
  await expect(html).toHaveAttribute('data-theme', theme);
}

async function everyLayout(page: Page, name: string): Promise<void> {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const theme of themes) {
      await setTheme(page, theme);
      const what = `${name} at ${width} px, ${theme}`;
      await expectNoSidewaysOverflow(page, what);
      await expectAccessible(page, what);
      await saveScreenshot(page, `playground/${name}-${width}-${theme}`);
    }
  }
}

test("the playground wears the app's header and theme, links back to the app, and holds at 390 and 1280 px", async () => {
  test.setTimeout(180_000);
  const model = await startScriptedModel();
  const profile = await createProfile();
  try {
    const context = await profile.launch();
    const page = await openApp(context);
    const errors = watchErrors(page);
    // The system says dark: a light page below is the remembered setting, not the default.
    await page.emulateMedia({ colorScheme: 'dark' });

    // From the app's header to the playground.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Playground' }).click();
    await expect(page).toHaveURL(/\/playground\.html$/);
    await expect(page.getByRole('status')).toContainText('Ready');
    await expect(page.getByRole('banner')).toContainText('agent-brain');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    // A finished run, so the transcript and the workspace have something (long lines included) to lay out.
    await fillEndpoint(page, `${model.url}/v1`, { stream: false });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(page.getByRole('status')).toContainText('Done:', { timeout: 60_000 });
    await expect(page.getByRole('list', { name: 'Transcript' }).locator('li').first()).toBeVisible();
    await everyLayout(page, 'agent');

    // An error shown: the alert fits as well.
    await fillEndpoint(page, `${model.url}/garbage/v1`, { stream: false });
    await page.getByRole('button', { name: 'Start a new run' }).click();
    await expect(page.getByRole('alert')).toContainText('The run did not start');
    await everyLayout(page, 'agent-error');

    // The theme is the app's setting: chosen here (light, last), the app opens in it, and the other way round.
    await setTheme(page, 'light');
    expect(await page.evaluate(() => localStorage.getItem('agent-brain.theme'))).toBe('light');
    await page.getByRole('link', { name: '← Back to the app' }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.waitForFunction(() => globalThis.agentBrain !== undefined);
    await expect(page.getByRole('navigation', { name: 'Views' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await page.goto('/playground.html');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // After a reload, the finished run's transcript is there again.
    await expect(page.getByRole('status')).toContainText('Done:');
    await expect(page.getByRole('list', { name: 'Transcript' }).locator('li').first()).toBeVisible();

    // The toy embedding page: the same header, a link back, the same layouts.
    await page.goto('/playground/');
    await expect(page.getByRole('status')).toContainText('Done: 4 steps recorded in playground.db');
    await expect(page.getByRole('link', { name: '← Back to the app' })).toHaveAttribute('href', '/');
    await everyLayout(page, 'toy');
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await profile.dispose();
    await model.close();
  }
});
