/**
 * In-page half of the checkpoints section: replays the corpus through the engine, reads every entry back and
 * checks it byte for byte, then times random single reads on a cold engine (a fresh worker, empty caches).
 */
import {
  openBrain,
  type Brain,
  type CheckpointBody,
  type CheckpointContent,
  type CheckpointEntryId,
  type TaskId,
} from '../../../src/lib/index';
import { createRandom } from '../../helpers/random';
import { progress } from './progress';

interface Manifest {
  bodies: { offset: number; length: number; text: boolean; sha256: string }[];
  batches: { label: string; changes: { path: string; before: number | null; after: number | null }[] }[];
}

const MiB = 1024 * 1024;

function sameBody(got: CheckpointBody, want: CheckpointBody): boolean {
  if (want === null || typeof want === 'string') return got === want;
  if (!(got instanceof Uint8Array) || got.length !== want.length) return false;
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return false;
  return true;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function loadCorpus(base: string) {
  const manifest = (await (await fetch(`${base}/manifest.json`)).json()) as Manifest;
  const bytes = new Uint8Array(await (await fetch(`${base}/bodies.bin`)).arrayBuffer());
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const values: CheckpointBody[] = manifest.bodies.map((body) => {
    const raw = bytes.subarray(body.offset, body.offset + body.length);
    return body.text ? decoder.decode(raw) : raw.slice();
  });
  return {
    manifest,
    values,
    value: (index: number | null) => (index === null ? null : (values[index] as CheckpointBody)),
  };
}

let leftOpen: Brain | null = null;

export async function closeCheckpointsBrain(): Promise<void> {
  await leftOpen?.close();
  leftOpen = null;
}

export async function checkpointsBench(options: {
  corpusUrl: string;
  dbName: string;
  randomReads: number;
  seed: number;
  /** Reopen the brain for the cold-start passes (off for an in-memory what-if run, where reopening loses all). */
  reopen: boolean;
  /**
   * Stop after the write and the batched read, the brain left open (its worker alive for a CPU profile to be
   * taken, BENCH_CPU_PROFILE); `closeCheckpointsBrain` closes it.
   */
  writeAndReadOnly?: boolean;
}) {
  const { manifest, value } = await loadCorpus(options.corpusUrl);
  let brain: Brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  const { id: sessionId } = await brain.startSession({ title: 'bench replay' });

  // Write: one task and one checkpointFiles call (one transaction) per package version.
  const batches: { id: CheckpointEntryId; before: number | null; after: number | null }[][] = [];
  let rawBytes = 0;
  let writeMs = 0;
  for (const [index, batch] of manifest.batches.entries()) {
    progress('writing checkpoint batches', index, manifest.batches.length);
    const { id: taskId } = await brain.startTask({ sessionId, title: batch.label });
    const inputs = batch.changes.map((change) => ({
      taskId: taskId as TaskId,
      path: change.path,
      before: value(change.before),
      after: value(change.after),
    }));
    for (const change of batch.changes) {
      for (const index of [change.before, change.after])
        if (index !== null) rawBytes += manifest.bodies[index]?.length ?? 0;
    }
    const started = performance.now();
    const { ids } = await brain.checkpointFiles(inputs);
    writeMs += performance.now() - started;
    batches.push(
      ids.map((id, i) => ({
        id,
        before: batch.changes[i]?.before ?? null,
        after: batch.changes[i]?.after ?? null,
      })),
    );
  }
  progress('writing checkpoint batches', manifest.batches.length, manifest.batches.length);
  // Phase marks for BENCH_DEBUG=1 (with BENCH_EXPERIMENT=io, the worker's I/O counts print between them).
  console.log(`[phase] written in ${writeMs.toFixed(0)} ms`);
  const entries = batches.flat();
  let mismatches = 0;
  const check = (entry: (typeof entries)[number], got: { before: CheckpointBody; after: CheckpointBody }) => {
    if (!sameBody(got.before, value(entry.before)) || !sameBody(got.after, value(entry.after))) mismatches++;
  };

  // Read everything back, a task at a time (readCheckpoints: one call, one transaction per task), right after
  // writing as the native anchor does; check every byte.
  let readMs = 0;
  for (const batch of batches) {
    const started = performance.now();
    const got = await brain.readCheckpoints(batch.map((entry) => entry.id));
    readMs += performance.now() - started;
    batch.forEach((entry, i) => check(entry, got[i] as CheckpointContent));
  }
  console.log(`[phase] read a task per call in ${readMs.toFixed(0)} ms`);
  if (options.writeAndReadOnly) {
    leftOpen = brain;
    return { writeMs, readMs, rawBytes, mismatches };
  }
  const info = await brain.info();
  const integrity = await brain.integrityCheck();

  // Again one entry per call, on a fresh engine (a new worker: empty caches).
  const reopen = async () => {
    if (!options.reopen) return;
    await brain.close();
    brain = await openBrain({ dbName: options.dbName, closeOnPageHide: false });
  };
  await reopen();
  let singleReadMs = 0;
  for (const entry of entries) {
    const started = performance.now();
    const got = await brain.readCheckpoint(entry.id);
    singleReadMs += performance.now() - started;
    check(entry, got);
  }

  console.log(`[phase] read one per call in ${singleReadMs.toFixed(0)} ms`);
  // Random single reads on a cold engine.
  await reopen();
  const random = createRandom(options.seed, 'lcg');
  const latencies: number[] = [];
  const slow: string[] = [];
  for (let i = 0; i < options.randomReads; i++) {
    const entry = random.pick(entries);
    const started = performance.now();
    const got = await brain.readCheckpoint(entry.id);
    const ms = performance.now() - started;
    latencies.push(ms);
    const size = (index: number | null) => (index === null ? 0 : (manifest.bodies[index]?.length ?? 0));
    if (ms > 10)
      slow.push(
        `#${i} ${ms.toFixed(0)} ms (${((size(entry.before) + size(entry.after)) / 1024).toFixed(0)} KiB)`,
      );
    check(entry, got);
  }
  console.log(`[phase] random reads done; over 10 ms: ${slow.join(', ')}`);
  latencies.sort((a, b) => a - b);
  const exported = await brain.exportDatabase();
  await brain.close();
  return {
    entries: entries.length,
    rawBytes,
    writeMs,
    readMs,
    writeMiBs: rawBytes / MiB / (writeMs / 1000),
    readMiBs: rawBytes / MiB / (readMs / 1000),
    singleReadMiBs: rawBytes / MiB / (singleReadMs / 1000),
    mismatches,
    integrity,
    fileBytes: info.fileBytes,
    pageSize: info.pageSize,
    random: {
      count: latencies.length,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
    },
    // The database file, for Node to inspect (body counts and sizes) without a dedicated API.
    databaseBase64: toBase64(exported),
  };
}
