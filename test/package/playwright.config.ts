import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../chromium';

// The consumer fixture (README.md here): packs the package, installs it into a generated Vite app, builds and
// serves that app itself (each test file starts its own preview servers on free ports), so no webServer here.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.e2e.ts',
  outputDir: '../.artifacts/package-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: { launchOptions: { executablePath: chromiumPath(), args: chromiumArgs } },
});
