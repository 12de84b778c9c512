import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { playwright } from '@vitest/browser-playwright';
import { VitePWA } from 'vite-plugin-pwa';
import { chromiumArgs, chromiumPath } from './test/chromium.ts';
import { themeBootScript } from './src/ui/theme.ts';

const isBrowserRun = process.argv.includes('browser') || process.env['VITEST_BROWSER'] === '1';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The package's runtime dependencies stay imports in its entries; everything else is bundled. */
const packageDependencies = Object.keys(
  (JSON.parse(readFileSync(here('./package.json'), 'utf8')) as { dependencies?: Record<string, string> })
    .dependencies ?? {},
);
const isPackageDependency = (id: string) =>
  packageDependencies.some((name) => id === name || id.startsWith(`${name}/`));

/**
 * Vite writes a worker's URL as `new URL("…", '' + import.meta.url)`; a consumer's bundler only follows
 * `new URL('./…', import.meta.url)` (and `new Worker(` right before it), so the package says it that way.
 */
const bundlerReadableUrls: Plugin = {
  name: 'agent-brain:bundler-readable-urls',
  renderChunk(code) {
    // new URL(/* @vite-ignore */ new URL("./x", import.meta.url).href, "" + import.meta.url) → new URL("./x", import.meta.url)
    const nested =
      /new URL\(\s*(?:\/\* @vite-ignore \*\/\s*)?new URL\(("\.\/[^"]+"), import\.meta\.url\)\.href,\s*(?:""|'') \+ import\.meta\.url\s*\)/g;
    // The line count stays (the sourcemap's lines still hold); bundlers allow any white space there.
    const rewritten = code.replace(
      nested,
      (match: string, file: string) => `new URL(${file},${match.replace(/[^\n]/g, '')} import.meta.url)`,
    );
    return rewritten === code ? null : { code: rewritten, map: null };
  },
};

/** Every page of the app (the app and both playground pages) gets the theme before its first paint. */
const themeBeforePaint: Plugin = {
  name: 'agent-brain:theme-before-paint',
  transformIndexHtml: () => [{ tag: 'script', children: themeBootScript, injectTo: 'head' }],
};

/**
 * `vite build --mode lib`: the embedding API as an npm package in `dist-lib/`. Not Vite's library mode, which
 * inlines the wasm into the worker as base64 (3.3 MB, no streaming compilation, refused by a strict CSP): a normal
 * build of two entries (`agent-brain.js`, `markdown.js`) with a relative base, so the workers and the wasm are
 * files next to them, referenced as `new URL('./…', import.meta.url)` — what any bundler follows to emit them.
 * The workers are self-contained; the entries import the package's dependencies.
 */
const libraryConfig: ViteUserConfig = {
  root: here('.'),
  publicDir: false as const,
  base: './',
  worker: {
    format: 'es' as const,
    plugins: () => [bundlerReadableUrls],
    rollupOptions: { output: { entryFileNames: '[name].js', assetFileNames: '[name][extname]' } },
  },
  experimental: {
    renderBuiltUrl: (file, { hostId }) => {
      const relative = path.posix.relative(path.posix.dirname(hostId), file);
      return {
        runtime: `new URL(${JSON.stringify(relative.startsWith('.') ? relative : `./${relative}`)}, import.meta.url).href`,
      };
    },
  },
  plugins: [bundlerReadableUrls],
  build: {
    outDir: here('./dist-lib'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    minify: false,
    assetsInlineLimit: 0,
    modulePreload: false,
    copyPublicDir: false,
    rollupOptions: {
      input: { 'agent-brain': here('./src/lib/index.ts'), markdown: here('./src/lib/markdown-entry.ts') },
      preserveEntrySignatures: 'strict',
      external: isPackageDependency,
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
        assetFileNames: '[name][extname]',
      },
    },
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
      input: {
        app: here('./src/ui/index.html'),
        playground: here('./src/ui/playground/index.html'),
        agentPlayground: here('./src/ui/playground.html'),
      },
    },
  },
  plugins: [
    svelte({ configFile: here('./svelte.config.js') }),
    themeBeforePaint,
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
    include: ['comlink', 'fflate', 'diff', 'fossil-delta', 'marked', 'dompurify', '@noble/hashes/sha2.js'],
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
          // Real SQLite work on 2 shared cores: Vitest's 5 s default is passed by a loaded machine, not a bug.
          testTimeout: 30_000,
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
