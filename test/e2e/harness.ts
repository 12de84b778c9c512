import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumArgs, chromiumPath } from '../chromium';

/** A browser profile on disk, so data survives closing and relaunching the browser (a real restart). */
export interface Profile {
  readonly dir: string;
  launch(): Promise<BrowserContext>;
  dispose(): Promise<void>;
}

export async function createProfile(): Promise<Profile> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-brain-e2e-'));
  return {
    dir,
    launch: () =>
      chromium.launchPersistentContext(dir, {
        executablePath: chromiumPath(),
        args: chromiumArgs,
        headless: true,
        baseURL: `http://127.0.0.1:${process.env['E2E_PORT'] ?? 4173}`,
      }),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Collects console errors and uncaught exceptions; a test asserts the list is empty. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Opens the app and waits until its brain is open and scriptable. */
export async function openApp(context: BrowserContext, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  await page.waitForFunction(() => globalThis.agentBrain !== undefined, null, { timeout: 30_000 });
  return page;
}
