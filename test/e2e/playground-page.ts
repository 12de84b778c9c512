/** The playground page's endpoint form, as a person fills it (playground-agent and playground-sandbox e2e). */
import type { Page } from '@playwright/test';

export const playgroundKey = 'sk-playground-test-4f1c2a';

export async function fillEndpoint(page: Page, url: string, options: { stream: boolean; timeout?: number }) {
  await page.getByLabel('URL').fill(url);
  await page.getByLabel('Model').fill('scripted');
  await page.getByLabel('Key').fill(playgroundKey);
  await page.getByLabel('Stream (SSE)').setChecked(options.stream);
  await page.getByLabel('Timeout (s)').fill(String(options.timeout ?? 30));
}
