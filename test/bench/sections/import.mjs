/**
 * Section "import": other agents' transcripts imported by `importTranscript` in the page (headless Chromium,
 * worker, wa-sqlite on OPFS; the file a Blob read in slices) — a generated Claude-Code-shaped session (mostly
 * `progress` records, Bash calls) and a Codex-shaped rollout — against a native anchor in Node on the same bytes:
 * readline + JSON.parse + better-sqlite3 inserts (one row per message and tool result, one transaction). Target:
 * the engine at ≥ 0.5× the anchor's MB/s; a re-import adds nothing.
 *
 * BENCH_IMPORT_MB=<n> (default 100; the issue's figure is 500) MB per transcript.
 */
import Database from 'better-sqlite3';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runnerImport } from 'vite';
import { withBenchPage } from '../lib/browser.mjs';
import { table } from '../lib/format.mjs';

export const title = 'Importing agent transcripts';

/** The same lines the page generates, written to a file. */
async function writeTranscript(path, agent, bytes) {
  const file = agent === 'claude-code' ? 'claude-code-stream.ts' : 'codex-stream.ts';
  const { module } = await runnerImport(
    new URL(`../../fixtures/transcripts/${file}`, import.meta.url).pathname,
  );
  const counts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
  const lines =
    agent === 'claude-code'
      ? module.claudeCodeStream(15, Number.MAX_SAFE_INTEGER, counts)
      : module.codexStream(16, Number.MAX_SAFE_INTEGER, counts);
  const fd = openSync(path, 'w');
  let total = 0;
  let chunk = [];
  let chunkBytes = 0;
  for (const line of lines) {
    if (total >= bytes) break;
    chunk.push(line, '\n');
    chunkBytes += line.length + 1;
    if (chunkBytes >= 1 << 20) {
      writeSync(fd, chunk.join(''));
      total += chunkBytes;
      chunk = [];
      chunkBytes = 0;
    }
  }
  writeSync(fd, chunk.join(''));
  closeSync(fd);
}

/** readline + JSON.parse + better-sqlite3: what a native importer of the same file does at least. */
async function nativeImport(path, dbPath) {
  const started = performance.now();
  const db = new Database(dbPath);
  db.pragma('journal_mode = DELETE');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, data TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO items (kind, data) VALUES (?, ?)');
  let rows = 0;
  let bytes = 0;
  db.exec('BEGIN');
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    bytes += Buffer.byteLength(line) + 1;
    if (line.includes('"type":"progress"')) continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const kind = record.type ?? 'unknown';
    if (kind === 'token_count' || kind === 'turn_context') continue;
    insert.run(String(kind), JSON.stringify(record.message ?? record.payload ?? record));
    rows++;
  }
  db.exec('COMMIT');
  db.close();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, mbPerSecond: bytes / 1e6 / seconds, rows };
}

export async function run({ mb = Number(process.env.BENCH_IMPORT_MB ?? 100) } = {}) {
  const loadBefore = loadavg()[0];
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  try {
    const native = {};
    for (const agent of ['claude-code', 'codex']) {
      const path = join(dir, `${agent}.jsonl`);
      await writeTranscript(path, agent, mb * 1024 * 1024);
      native[agent] = await nativeImport(path, join(dir, `${agent}.db`));
      rmSync(path);
    }
    const engine = await withBenchPage((page) =>
      page.evaluate((options) => globalThis.bench.importTranscripts(options), {
        dbName: `bench-import-${Date.now()}`,
        mb,
      }),
    );
    const loadAfter = loadavg()[0];
    let ok = true;
    const rows = engine.map((e) => {
      const n = native[e.agent];
      const ratio = e.mbPerSecond / n.mbPerSecond;
      const counted = e.imported.prompts === e.generated.prompts && e.imported.calls === e.generated.calls;
      ok &&= ratio >= 0.5 && counted && e.reimportAdded === 0;
      return [
        e.agent,
        `${(e.bytes / 1e6).toFixed(0)} MB, ${e.lines.toLocaleString('en')} lines`,
        `${e.mbPerSecond.toFixed(1)} MB/s (${e.seconds.toFixed(1)} s)`,
        `${n.mbPerSecond.toFixed(1)} MB/s`,
        `${ratio.toFixed(2)}×`,
        `${e.imported.prompts}/${e.generated.prompts} prompts, ${e.imported.calls}/${e.generated.calls} calls`,
        String(e.reimportAdded),
      ];
    });
    return {
      ok,
      lines: [
        `A generated Claude-Code-shaped session (20 \`progress\` records per Bash call, ~1 KB results) and a ` +
          `Codex-shaped rollout, ${mb} MB each, imported as Blobs from the page; the native anchor reads the same ` +
          `bytes in Node (readline + JSON.parse, progress lines skipped by a substring test, one better-sqlite3 row ` +
          `per record, one transaction). Load average (1 min, 2 cores): ${loadBefore.toFixed(2)} before, ` +
          `${loadAfter.toFixed(2)} after. Worker memory is not measured here (not done).`,
        '',
        table(
          [
            'transcript',
            'size',
            'importTranscript',
            'native anchor',
            'vs anchor',
            'counted',
            're-import adds',
          ],
          rows,
        ),
        '',
        `agent.db after both: ${(engine.at(-1).dbBytes / 1e6).toFixed(1)} MB. Target ≥ 0.5× the anchor: ${ok ? 'met' : 'NOT met'}.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
