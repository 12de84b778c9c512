/**
 * Section "import": other agents' transcripts imported by `importTranscript` in the page (headless Chromium,
 * worker, wa-sqlite on OPFS; the transcript an OPFS File, read in slices) — a generated Claude-Code-shaped session (mostly
 * `progress` records; Bash calls, Edit/Write calls with `originalFile`, ~1 MB and 5 MB results, compactions) with
 * its `file-history` backups, and a Codex-shaped rollout, each into its own agent.db — against two native anchors
 * in Node on the same files: the same parse and inserts (the engine's importTranscript on better-sqlite3,
 * test/bench/lib/import-native.ts: the target's anchor), and raw rows only (readline + JSON.parse + one
 * better-sqlite3 row per record, one transaction: what storing without deriving anything costs).
 * Measured beside the speed: the worker's peak memory during the import (CDP, test/bench/lib/worker-memory.mjs),
 * the bytes the checkpoint bodies take against the backups' raw bytes, agent.db against the source files, and a
 * second import of the same files (its counts, and the brain's rows before and after).
 * Targets (issues 15 and 32): ≥ 1.0× the anchor's MB/s, worker < 256 MiB, backups stored at ≤ 0.2× raw, agent.db
 * ≤ 0.5× the source files, re-import adds 0.
 *
 * BENCH_IMPORT_MB=<n> (default 500) MB of Claude Code session; BENCH_IMPORT_CODEX_MB=<n> (default: 100, or
 * BENCH_IMPORT_MB when smaller) MB of Codex rollout — the Codex import is ~10× slower per MB (a tool call per 2 KB).
 */
import Database from 'better-sqlite3';
import {
  appendFileSync,
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runnerImport } from 'vite';
import { withBenchPage } from '../lib/browser.mjs';
import { mib, sampleWorkerMemory } from '../lib/worker-memory.mjs';
import { table } from '../lib/format.mjs';

export const title = 'Importing agent transcripts';

/** The same lines the page generates, written to a file; returns the Claude Code session's backups. */
async function writeTranscript(path, agent, bytes) {
  const file = agent === 'claude-code' ? 'claude-code-stream.ts' : 'codex-stream.ts';
  const { module } = await runnerImport(
    new URL(`../../fixtures/transcripts/${file}`, import.meta.url).pathname,
  );
  const counts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
  const backups = [];
  const lines =
    agent === 'claude-code'
      ? module.claudeCodeStream(15, Number.MAX_SAFE_INTEGER, counts, {
          backup: (name, body) => backups.push({ name, body }),
        })
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
  return { backups, sessionId: module.claudeStreamSessionId };
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

const MiB = 1024 * 1024;
const MEMORY_TARGET = 256 * MiB;
const STORAGE_TARGET = 0.2;
/** agent.db against the source files (issue 32: history stored once, compactly). */
const DB_TARGET = 0.5;
/** MB/s against the same parse and inserts in native Node (issue 32). */
const SPEED_TARGET = 1.0;
const metOr = (ok) => (ok ? 'met' : '**NOT met**');

/** The figures of one transcript, in the page: its files, the import under the memory sampler, a re-import. */
async function importInPage(page, sampler, agent, mb) {
  const call = (step) => page.evaluate((s) => globalThis.bench.importTranscripts(s), step);
  const made = await call({ step: 'prepare', agent, mb });
  await call({ step: 'open', dbName: `bench-import-${agent}-${Date.now()}` });
  try {
    sampler.start();
    let result;
    try {
      result = await call({ step: 'run', agent });
    } catch (error) {
      await sampler.stop().catch(() => {});
      throw error;
    }
    const memory = await sampler.stop();
    if (process.env.BENCH_MEMORY_TRACE)
      appendFileSync(
        process.env.BENCH_MEMORY_TRACE,
        memory.trace.map((t) => JSON.stringify({ agent, ...t })).join('\n') + '\n',
      );
    delete memory.trace;
    const stored = await call({ step: 'storage', agent });
    return { ...made, ...result, memory, ...stored, again: await call({ step: 'again', agent }) };
  } finally {
    await call({ step: 'close' });
  }
}

export async function run({ smoke = false } = {}) {
  // Smoke run: 2 MB of Claude Code session, 1 MB of Codex rollout.
  // The smoke's Claude Code session is over 4 MiB: the built app's line reader must start (checked below).
  const mb = smoke ? 5 : Number(process.env.BENCH_IMPORT_MB ?? 500);
  const codexMb = smoke ? 1 : Number(process.env.BENCH_IMPORT_CODEX_MB ?? Math.min(100, mb));
  const loadBefore = loadavg()[0];
  const sizes = { 'claude-code': mb, codex: codexMb };
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  try {
    const native = {};
    const sameInserts = {};
    const twoThreads = {};
    const { module: anchor } = await runnerImport(
      new URL('../lib/import-native.ts', import.meta.url).pathname,
    );
    for (const agent of ['claude-code', 'codex']) {
      const path = join(dir, `${agent}.jsonl`);
      const { backups, sessionId } = await writeTranscript(path, agent, sizes[agent] * MiB);
      native[agent] = await nativeImport(path, join(dir, `${agent}.db`));
      rmSync(join(dir, `${agent}.db`));
      // The same files the page imports, under the same names, through the engine's own importTranscript.
      const name = agent === 'claude-code' ? `${sessionId}.jsonl` : 'rollout-2026-11-01T00-00-00-big.jsonl';
      const files = [
        { name, path },
        ...backups.map((b) => ({ name: `file-history/${sessionId}/${b.name}`, text: b.body })),
      ];
      sameInserts[agent] = await anchor.engineImportAnchor(
        new Database(join(dir, `${agent}-engine.db`)),
        files,
      );
      rmSync(join(dir, `${agent}-engine.db`));
      // For scale, not a target: the same with the engine's line reader on a second thread, as the page reads.
      twoThreads[agent] = await anchor.engineImportAnchor(new Database(join(dir, `${agent}-two.db`)), files, {
        twoThreads: true,
      });
      rmSync(path);
      rmSync(join(dir, `${agent}-two.db`));
    }
    const engine = await withBenchPage(async (page) => {
      const sampler = await sampleWorkerMemory(page);
      try {
        const out = [];
        for (const agent of ['claude-code', 'codex'])
          out.push({ agent, ...(await importInPage(page, sampler, agent, sizes[agent])) });
        return out;
      } finally {
        await sampler.dispose();
      }
    });
    const loadAfter = loadavg()[0];
    // From this size the page reads a transcript on a second worker (engine/importers/read-ahead.ts).
    const { READ_AHEAD_MIN_BYTES: readAheadFrom } = (
      await runnerImport(new URL('../../../src/engine/importers/read-ahead.ts', import.meta.url).pathname)
    ).module;
    return report(engine, native, sameInserts, twoThreads, {
      mb,
      codexMb,
      loadBefore,
      loadAfter,
      readAheadFrom,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(
  engine,
  native,
  sameInserts,
  twoThreads,
  { mb, codexMb, loadBefore, loadAfter, readAheadFrom },
) {
  let ok = true;
  // Correctness whatever the sizes: every prompt and call counted on both sides, a re-import adds nothing.
  let sound = true;
  const speed = [];
  const memory = [];
  const storage = [];
  for (const e of engine) {
    const n = native[e.agent];
    const same = sameInserts[e.agent];
    // The target's anchor: the same parse and inserts natively (the engine's code on better-sqlite3).
    const ratio = e.mbPerSecond / same.mbPerSecond;
    const two = twoThreads[e.agent];
    const sameCounted =
      same.instructions === e.generated.prompts &&
      same.toolCalls === e.generated.calls &&
      two.instructions === e.generated.prompts &&
      two.toolCalls === e.generated.calls;
    const counted = e.imported.prompts === e.generated.prompts && e.imported.calls === e.generated.calls;
    const reimportOk = e.again.added === 0 && e.again.changed.length === 0;
    // A transcript of 4 MiB or more is read by the brain worker's line reader (a second worker): sampled, so seen.
    const readerOk = e.transcriptBytes < readAheadFrom || e.memory.workers >= 2;
    // Both workers together: the brain worker and the line reader it starts for the import.
    const memoryOk = e.memory.together < MEMORY_TARGET;
    const dbOk = e.dbBytes / (e.transcriptBytes + e.backupBytes) <= DB_TARGET;
    ok &&= ratio >= SPEED_TARGET && counted && sameCounted && reimportOk && memoryOk && dbOk && readerOk;
    sound &&= counted && sameCounted && reimportOk && readerOk;
    speed.push([
      e.agent,
      `${(e.transcriptBytes / 1e6).toFixed(0)} MB, ${e.lines.toLocaleString('en')} lines`,
      `${e.mbPerSecond.toFixed(1)} MB/s (${e.seconds.toFixed(1)} s)`,
      `${same.mbPerSecond.toFixed(1)} MB/s (${same.seconds.toFixed(1)} s)${sameCounted ? '' : ' **counts differ**'}`,
      `${ratio.toFixed(2)}× ${metOr(ratio >= SPEED_TARGET)}`,
      `${two.mbPerSecond.toFixed(1)} MB/s (${(e.mbPerSecond / two.mbPerSecond).toFixed(2)}×)`,
      `${n.mbPerSecond.toFixed(1)} MB/s (${(e.mbPerSecond / n.mbPerSecond).toFixed(2)}×)`,
      `${e.imported.prompts}/${e.generated.prompts} prompts, ${e.imported.calls}/${e.generated.calls} calls`,
      `${e.again.added} (rows changed: ${e.again.changed.length === 0 ? 'none' : e.again.changed.join(', ')})`,
    ]);
    memory.push([
      e.agent,
      `**${mib(e.memory.together)}** ${metOr(memoryOk)}`,
      `${mib(e.memory.sum)} (${e.memory.workers} workers sampled${readerOk ? '' : ': **the line reader did not start**'})`,
      `${mib(e.memory.heapUsed)} / ${mib(e.memory.heapTotal)}`,
      mib(e.memory.backing),
      mib(e.memory.wasm),
      String(e.memory.samples),
    ]);
    const sourceBytes = e.transcriptBytes + e.backupBytes;
    storage.push([
      e.agent,
      `${(e.transcriptBytes / 1e6).toFixed(1)} MB + ${e.backupFiles} backups ${(e.backupBytes / 1e6).toFixed(1)} MB`,
      `${(e.dbBytes / 1e6).toFixed(1)} MB (${(e.dbBytes / sourceBytes).toFixed(3)}×) ${metOr(dbOk)}`,
      `${e.checkpointEntries.toLocaleString('en')} entries: ${(e.checkpoint.stored / 1e6).toFixed(2)} MB stored of ${(e.checkpoint.raw / 1e6).toFixed(1)} MB raw`,
      Object.entries(e.content)
        .map(([k, v]) => `${k} ${(v / 1e6).toFixed(1)}`)
        .join(', '),
    ]);
  }
  const cc = engine.find((e) => e.agent === 'claude-code');
  const storageRatio = cc.checkpoint.stored / cc.backupBytes;
  const storageOk = storageRatio <= STORAGE_TARGET && cc.backupsStored === cc.backupFiles;
  ok &&= storageOk;
  return {
    ok,
    sound,
    lines: [
      `A generated Claude-Code-shaped session of ${mb} MB (24 \`progress\` records per Bash call; an Edit or Write ` +
        `of one of 6 source files with \`originalFile\` every 4th turn; a ~1 MB Bash result every 100th turn, one ` +
        `of 5 MB; a compaction every 1,500 turns) with its \`file-history\` backups, and a Codex-shaped rollout of ` +
        `${codexMb} MB, written by the page to OPFS files (the backups Blobs) and imported each into a fresh agent.db. Two native anchors read the ` +
        `same files in Node: **the same parse and inserts** (the target's anchor) — the engine's own ` +
        `\`importTranscript\` (parsers, recorder, repositories, schema) on better-sqlite3 through the driver port, ` +
        `no worker, wasm or OPFS — and, for scale, **raw rows only** (readline + JSON.parse, progress lines skipped ` +
        `by a substring test, one better-sqlite3 row per record, nothing derived). The page reads a transcript of 4 MiB ` +
        `or more on a second thread (the brain worker's line reader: read, parse, steps packed) while the brain worker ` +
        `writes; the anchors run on one thread, and, for scale (no target), the same parse and inserts natively with the ` +
        `engine's line reader on a worker_thread (the transcript in memory; steps packed there with fflate). Load average (1 min, 2 cores): ${loadBefore.toFixed(2)} before, ` +
        `${loadAfter.toFixed(2)} after.`,
      '',
      table(
        [
          'transcript',
          'size',
          'importTranscript (page)',
          'same parse and inserts, native',
          `vs it (≥ ${SPEED_TARGET.toFixed(1)}×)`,
          'the same on two threads, native (vs it)',
          'raw rows only, native (vs it)',
          'counted',
          're-import adds',
        ],
        speed,
      ),
      '',
      `Worker memory during the import, peak of one sample every ~100 ms (CDP \`Runtime.getHeapUsage\` + the ` +
        `byte length of the worker's wasm memories) — the brain worker and the line reader it starts for a large ` +
        `transcript, summed in each sample; the other columns are the brain worker's — target < ${mib(MEMORY_TARGET)}:`,
      '',
      table(
        [
          'transcript',
          'workers together, peak (heap total + buffers + wasm)',
          'one worker, highest peak',
          'JS heap used / total',
          'ArrayBuffers',
          'wasm (SQLite)',
          'samples',
        ],
        memory,
      ),
      '',
      table(
        [
          'transcript',
          'source files',
          `agent.db (vs source, ≤ ${DB_TARGET}×)`,
          'checkpoint bodies',
          'content in agent.db (MB)',
        ],
        storage,
      ),
      '',
      `file-history backups: ${cc.backupFiles} whole copies, ${(cc.backupBytes / 1e6).toFixed(1)} MB raw; ` +
        `${cc.backupsStored} of them are among the stored checkpoint bodies (by SHA-256); every checkpoint body of ` +
        `the session (all versions of the edited files, the backups' included) takes ` +
        `${(cc.checkpoint.stored / 1e6).toFixed(2)} MB = **${storageRatio.toFixed(3)}× the backups' raw bytes** ` +
        `(target ≤ ${STORAGE_TARGET}×: ${metOr(storageOk)}). Backups the importer read as bodies (the transcript ` +
        `had no \`originalFile\` for them): ${cc.added.backups}.`,
      '',
      `All targets: ${ok ? 'met' : '**NOT met**'}.`,
    ],
  };
}
