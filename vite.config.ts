import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { VitePWA } from 'vite-plugin-pwa';
import { chromiumArgs, chromiumPath } from './test/chromium.ts';

const isBrowserRun = process.argv.includes('browser') || process.env['VITEST_BROWSER'] === '1';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * `vite build --mode lib`: the embedding API as an ES module library. Library mode inlines the wasm into the
 * worker file, so the library is two self-contained files (entry + worker) with no asset paths to configure.
 */
const libraryConfig: ViteUserConfig = {
  root: here('.'),
  publicDir: false as const,
  worker: { format: 'es' as const },
  build: {
    outDir: here('./dist-lib'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: { entry: here('./src/lib/index.ts'), formats: ['es' as const], fileName: 'agent-brain' },
  },
};

const appConfig: ViteUserConfig = {
  // The app's page lives with the UI; the repository's top level stays as the design card has it.
  root: here('./src/ui'),
  publicDir: here('./public'),
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rollupOptions: {
      input: { app: here('./src/ui/index.html'), playground: here('./src/ui/playground/index.html') },
    },
  },
  plugins: [
    svelte({ configFile: here('./svelte.config.js') }),
    // Offline: a service worker precaches the whole build (wasm and worker included). A new build waits until
    // every tab of the old one is closed, so an update never swaps code under an open session.
    VitePWA({
      injectRegister: null,
      registerType: 'prompt',
      manifest: {
        name: 'agent-brain',
        short_name: 'agent-brain',
        description: "An AI coding agent's external brain, in the browser.",
        theme_color: '#5b3df5',
        background_color: '#14141b',
        icons: [{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,wasm,svg,webmanifest}'],
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallbackDenylist: [/^\/playground\//],
      },
    }),
  ],
  worker: { format: 'es' as const },
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
};

export default defineConfig(({ mode }) => (mode === 'lib' ? libraryConfig : appConfig));
