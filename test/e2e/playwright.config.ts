import { defineConfig } from '@playwright/test';

const port = Number(process.env['E2E_PORT'] ?? 4173);
// Several people can build and serve their own copy at once: E2E_OUTDIR=<dir> E2E_PORT=<port> (default dist, 4173).
// Give E2E_OUTDIR as an absolute path (vite resolves a relative one against its root, src/ui).
const outDir = process.env['E2E_OUTDIR'];
// The files whose long-task probes must not share the 2 cores with another test (test/e2e/long-tasks.ts).
const alone = ['**/ui-perf.e2e.ts', '**/sessions-list.e2e.ts'];

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: '../.artifacts/e2e-results',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Files in parallel on the 2 cores (a file's tests stay in order, in one worker): ~3.6 min instead of ~6.6.
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: { baseURL: `http://127.0.0.1:${port}` },
  projects: [
    { name: 'app', testIgnore: alone },
    // Long tasks are wall-clock time: the main-thread checks run alone, once every other file is done.
    { name: 'alone', testMatch: alone, dependencies: ['app'], workers: 1 },
  ],
  webServer: {
    // The built app (`npm run test:e2e` builds it first), served as a user would get it.
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort${outDir ? ` --outDir ${outDir}` : ''}`,
    cwd: '../..',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
