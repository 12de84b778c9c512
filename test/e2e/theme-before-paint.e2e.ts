/**
 * Every page of the app — the app and both playground pages — wears the remembered theme before any of its
 * scripts runs (no flash of the other theme): the one inline script vite.config.ts injects from theme.ts. The
 * pages' own scripts are blocked here, so what sets the theme can only be that inline script; the control is a
 * page with nothing remembered, which stays without a theme of its own.
 */
import { expect, test } from '@playwright/test';
import { createProfile } from './harness';

for (const path of ['/', '/playground.html', '/playground/']) {
  test(`${path} has the remembered theme before its scripts run`, async () => {
    const profile = await createProfile();
    const context = await profile.launch();
    try {
      const page = await context.newPage();
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.goto(path);
      await expect(page.locator('html')).not.toHaveAttribute('data-theme', /./);
      for (const theme of ['dark', 'light']) {
        await page.evaluate((t) => localStorage.setItem('agent-brain.theme', t), theme);
        await page.reload();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      }
    } finally {
      await context.close();
      await profile.dispose();
    }
  });
}
