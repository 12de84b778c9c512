import { expect, type Page } from '@playwright/test';
import { createRequire } from 'node:module';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const screenshotDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.artifacts', 'screenshots');

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** Runs axe-core in the page; serious and critical violations fail the test with where they are. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  }
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${what}`,
  ).toEqual([]);
}

/** Saves a full-page screenshot under test/.artifacts/screenshots/ (git-ignored) to look at. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  // Let transitions and the last refresh settle so the picture shows what a person sees.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Nothing is wider than the viewport: the page does not scroll sideways, and no element sticks out past either
 * edge unless an ancestor that fits clips or scrolls it on purpose (as layout-views.e2e.ts checks the app's views).
 */
export async function expectNoSidewaysOverflow(page: Page, what: string): Promise<void> {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > innerWidth) {
      out.push(`the page is ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
    }
    const fits = (r: DOMRect) => r.left >= -1 && r.right <= width + 1;
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if ((box.width === 0 && box.height === 0) || fits(box)) continue;
      let held = false;
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== 'visible' && fits(up.getBoundingClientRect())) {
          held = true;
          break;
        }
      }
      if (!held) {
        const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].join('.')}`;
        out.push(`${name} spans ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
      }
    }
    return out.slice(0, 10);
  });
  expect(found, `${what}: wider than the viewport`).toEqual([]);
}
