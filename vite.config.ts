import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { chromiumArgs, chromiumPath } from './test/chromium.ts';

const isBrowserRun = process.argv.includes('browser') || process.env['VITEST_BROWSER'] === '1';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The app's page lives with the UI; the repository's top level stays as the design card has it.
  root: here('./src/ui'),
  publicDir: here('./public'),
  build: { outDir: here('./dist'), emptyOutDir: true, target: 'es2022', sourcemap: true },
  plugins: [svelte({ configFile: here('./svelte.config.js') })],
  worker: { format: 'es' },
  optimizeDeps: {
    exclude: ['@journeyapps/wa-sqlite'],
    include: ['comlink', 'fflate', 'diff', 'fossil-delta', 'marked', 'dompurify'],
  },
  test: {
    root: here('.'),
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          root: here('.'),
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          root: here('.'),
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 60_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                // Resolved only for a browser run, so `vitest --project node` works without Chromium.
                executablePath: isBrowserRun ? chromiumPath() : undefined,
                args: chromiumArgs,
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
