/**
 * Runs bench pages in headless Chromium: builds test/bench/page with Vite (production build, as users get it),
 * serves it with the corpus files from a small static server, and hands sections a Playwright page.
 *
 * What-if knobs for SQLite settings the engine does not (yet) use, applied to the bench build only by rewriting
 * the foundation's source at build time — the repository's files are not touched:
 *   BENCH_EXPERIMENT=page[,cache][,excl]  page: `PRAGMA page_size = $BENCH_PAGE` (default 65536) for new databases;
 *                                          cache: `cache_size = -$BENCH_CACHE_KIB` (default 65536 KiB); excl: `locking_mode = EXCLUSIVE`;
 *                                          io: count the VFS's reads, writes and syncs (printed with BENCH_DEBUG=1);
 *                                          memvfs: run the engine on wa-sqlite's memory VFS in the worker (no OPFS I/O);
 *                                          tempmem: `temp_store = MEMORY` (statement journals and temp tables off OPFS).
 *                                          nocoalesce: every SQLite write straight to OPFS (no write coalescing).
 *                                          nowal: agent.db in rollback-journal (DELETE) mode, as before the WAL.
 *                                          nomainra: the main database read page by page (no read-ahead).
 */
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { build, runnerImport } from 'vite';
import { chromium } from 'playwright';
import { CACHE } from './corpus.mjs';

const here = (path) => new URL(path, import.meta.url).pathname;
const types = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** `code.replace(from, to)` that fails loudly when the source no longer contains `from` (a knob gone stale). */
function mustReplace(code, from, to, id) {
  if (!code.includes(from))
    throw new Error(`BENCH_EXPERIMENT: ${id} no longer contains ${JSON.stringify(from)}`);
  return code.replace(from, to);
}

function experimentPlugins() {
  const exp = process.env.BENCH_EXPERIMENT ?? '';
  if (!exp) return [];
  return [
    {
      name: 'bench-experiment',
      // Before TypeScript is transpiled, so the source text below matches the repository's files.
      enforce: 'pre',
      transform(code, id) {
        if (id.endsWith('storage/sqlite/migrate.ts') && exp.includes('page')) {
          return mustReplace(
            code,
            "await driver.exec('PRAGMA auto_vacuum = INCREMENTAL');",
            "await driver.exec('PRAGMA page_size = " +
              (process.env.BENCH_PAGE ?? '65536') +
              "; PRAGMA auto_vacuum = INCREMENTAL');",
            id,
          );
        }
        if (id.endsWith('storage/sqlite/vfs/open.ts') && exp.includes('nowal')) {
          // agent.db in rollback-journal (DELETE) mode, as before the WAL (what the WAL costs or saves).
          code = mustReplace(
            code,
            "const wal = where === 'main' && main?.storage === 'opfs';",
            'const wal = false;',
            id,
          );
        }
        if (id.endsWith('storage/sqlite/vfs/open.ts')) {
          let extra = '';
          if (exp.includes('cache'))
            extra += ` PRAGMA cache_size = -${process.env.BENCH_CACHE_KIB ?? '65536'};`;
          if (exp.includes('excl')) extra += ' PRAGMA locking_mode = EXCLUSIVE;';
          if (exp.includes('tempmem')) extra += ' PRAGMA temp_store = MEMORY;';
          return extra
            ? mustReplace(code, 'PRAGMA foreign_keys = ON;', 'PRAGMA foreign_keys = ON;' + extra, id)
            : code;
        }
        if (id.endsWith('storage/sqlite/vfs/opfs.ts') && exp.includes('memvfs')) {
          // The same engine in the same worker, on wa-sqlite's in-memory VFS: what the engine costs without OPFS I/O.
          return mustReplace(
            code,
            "return Object.assign(await createSqliteEngine(module, { vfs, storage: 'opfs', explainIo }), { io });",
            'void vfs; void explainIo; return Object.assign(await createSqliteEngine(module, null), { io });',
            id,
          );
        }
        if (id.endsWith('storage/sqlite/vfs/coalescing-vfs.ts') && exp.includes('nomainra')) {
          // The main database read page by page, as before its read-ahead.
          code = mustReplace(
            code,
            'const mainReadAhead = options.mainReadAhead ?? MAIN_READ_AHEAD;',
            'const mainReadAhead = false;',
            id,
          );
          if (!exp.includes('io')) return code;
        }
        if (id.endsWith('storage/sqlite/vfs/opfs.ts') && exp.includes('nocoalesce')) {
          // Every SQLite write straight to OPFS, as OPFSCoopSyncVFS alone does (the engine before coalescing).
          return mustReplace(
            code,
            'const coalesce = options.coalesce ?? true;',
            'const coalesce = false; void options;',
            id,
          );
        }
        if (id.endsWith('storage/sqlite/vfs/coalescing-vfs.ts') && exp.includes('io')) {
          // The coalescing layer writes its runs through the access handle: count those as the VFS's writes.
          return mustReplace(
            code,
            'stats.flushedWrites++;',
            "stats.flushedWrites++; { const io = (globalThis.__io ??= {}); const p = files.get(fileId)?.path ?? ''; const k = 'write:' + " +
              "(p.endsWith('-journal') ? 'journal' : p.endsWith('-wal') ? 'wal' : 'db'); io[k] = (io[k] ?? 0) + 1; }",
            id,
          );
        }
        if (id.includes('OPFSCoopSyncVFS') && exp.includes('io')) {
          // Counts the VFS's I/O calls per file kind; printed with BENCH_DEBUG=1.
          const count = (name) =>
            `globalThis.__io ??= {}; { const f = this.mapIdToFile.get(fileId); const p = f?.path ?? ''; const k = '${name}:' + (p.endsWith('-journal') ? 'journal' : p.endsWith('-wal') ? 'wal' : 'db'); ` +
            `globalThis.__io[k] = (globalThis.__io[k] ?? 0) + 1; if (k.startsWith('sync:')) console.log('io', JSON.stringify(globalThis.__io)); }`;
          return code
            .replace(
              '  jWrite(fileId, pData, iOffset) {',
              `  jWrite(fileId, pData, iOffset) { ${count('write')}`,
            )
            .replace(
              '  jRead(fileId, pData, iOffset) {',
              `  jRead(fileId, pData, iOffset) { ${count('read')}`,
            )
            .replace('  jSync(fileId, flags) {', `  jSync(fileId, flags) { ${count('sync')}`)
            .replace('  jFileSize(fileId, pSize64) {', `  jFileSize(fileId, pSize64) { ${count('size')}`)
            .replace('  jTruncate(fileId, iSize) {', `  jTruncate(fileId, iSize) { ${count('truncate')}`);
        }
        return null;
      },
    },
  ];
}

/** The page is built once per process (a run of several sections shares it) and removed when the process exits. */
let built = null;
function buildPage() {
  built ??= buildPageOnce();
  return built;
}

async function buildPageOnce() {
  // One build per run: bench runs of several people may overlap on this machine.
  const outDir = join(CACHE, `page-dist-${process.pid}`);
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  await build({
    configFile: false,
    logLevel: 'warn',
    root: here('../page'),
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      minify: process.env.BENCH_MINIFY !== '0',
    },
    worker: { format: 'es', plugins: () => experimentPlugins() },
    plugins: experimentPlugins(),
  });
  return outDir;
}

/** Serves `/` from the built page and `/files/…` from the cache (corpora). */
function serve(pageDir) {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const [root, rest] = url.pathname.startsWith('/files/')
      ? [CACHE, url.pathname.slice('/files/'.length)]
      : [pageDir, url.pathname.slice(1) || 'index.html'];
    const file = normalize(join(root, decodeURIComponent(rest)));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Builds and serves the page, opens it in Chromium, runs `fn(page, baseUrl)`, and always cleans up. */
/**
 * A progress line from the bench page (`test/bench/page/progress.ts`): "phase: done of total (pct)". On a terminal
 * it rewrites one line; in a log (CI) it prints a line at most every 5 s per phase, and the last one.
 */
let lastShown = { phase: '', at: 0 };
function showProgress(json) {
  let report;
  try {
    report = JSON.parse(json);
  } catch {
    return;
  }
  const { phase, done, total } = report;
  const pct = total > 0 ? Math.floor((100 * done) / total) : 0;
  const line = `  ${phase}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} (${pct} %)`;
  const finished = done >= total;
  if (process.stderr.isTTY) {
    process.stderr.write(`\r\x1b[2K${line}${finished ? '\n' : ''}`);
    return;
  }
  const now = Date.now();
  if (!finished && phase === lastShown.phase && now - lastShown.at < 5000) return;
  lastShown = { phase, at: now };
  process.stderr.write(`${line}\n`);
}

export async function withBenchPage(fn) {
  const { module } = await runnerImport(here('../../chromium.ts'));
  const pageDir = await buildPage();
  const server = await serve(pageDir);
  const baseUrl = `http://127.0.0.1:${server.address().port}`;
  // A profile on disk, as a person's browser has: a fresh context is incognito-like, its OPFS held in memory with
  // a small quota (the follow section's 1 GiB file plus the brain hit QuotaExceededError at ~1.4 GB used).
  const profileDir = await mkdtemp(join(tmpdir(), 'agent-brain-bench-'));
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: module.chromiumPath(),
    args: module.chromiumArgs,
    headless: true,
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
      else if (message.text().startsWith('[progress] ')) showProgress(message.text().slice(11));
      else if (process.env.BENCH_DEBUG) console.log('  [page]', message.text());
    });
    await page.goto(`${baseUrl}/`);
    await page.waitForFunction(() => globalThis.bench !== undefined, null, { timeout: 30_000 });
    const result = await fn(page, baseUrl);
    if (errors.length > 0) {
      // The same error repeated (a failing background job) is shown once, with its count.
      const counts = new Map();
      for (const e of errors) counts.set(e, (counts.get(e) ?? 0) + 1);
      const shown = [...counts].map(([e, n]) => (n > 1 ? `${e} (×${n})` : e));
      throw new Error(`The bench page reported errors:\n${shown.join('\n')}`);
    }
    return result;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
    await rm(profileDir, { recursive: true, force: true });
  }
}
