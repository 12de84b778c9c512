/**
 * In-page half of the "import" section, in steps the Node half calls one by one (so it can sample the worker's
 * memory over CDP around the import alone, test/bench/lib/worker-memory.mjs):
 * - `prepare`: the generated Claude-Code-shaped session (progress records, edits with `originalFile`, ~1 MB and 5 MB
 *   results, compactions) with its `file-history/<session>/<hash>@vN` backups, or the Codex-shaped rollout, of about
 *   `mb` MB, written by the page to an OPFS file (lines generated one by one, never one string), the backups Blobs;
 * - `open`: a fresh brain (its own agent.db) for that transcript;
 * - `run`: `importTranscript` of the files (the worker reads them in slices); MB/s, the counts against what was
 *   generated;
 * - `storage`: `audit()`'s bytes, and how many backups' bodies are among the stored checkpoint bodies;
 * - `again`: the same files imported a second time: what it reports added, and the rows counted before and after;
 * - `close`.
 */
import { openBrain, type Brain } from '../../../src/lib/index';
import {
  claudeCodeStream,
  claudeStreamSessionId,
  type StreamCounts,
  type StreamExtras,
} from '../../fixtures/transcripts/claude-code-stream';
import { codexStream, type CodexStreamCounts } from '../../fixtures/transcripts/codex-stream';
import { progress } from './progress';

type Agent = 'claude-code' | 'codex';
export type ImportBenchStep =
  | { readonly step: 'prepare'; readonly agent: Agent; readonly mb: number }
  | { readonly step: 'open'; readonly dbName: string }
  | { readonly step: 'run' | 'storage' | 'again'; readonly agent: Agent }
  | { readonly step: 'close' };

interface Prepared {
  readonly files: { name: string; data: Blob }[];
  readonly transcriptBytes: number;
  readonly backupHashes: Map<string, string>;
  readonly counts: StreamCounts | CodexStreamCounts;
  readonly extras: StreamExtras | null;
}

const prepared = new Map<Agent, Prepared>();
let brain: Brain | null = null;

/**
 * Lines of `stream` until about `bytes`, written to an OPFS file in 1 MiB parts: a File on disk, as a picked
 * file is (a Blob of 500 MB in memory is refused by Chromium's blob storage in an incognito-like context).
 */
async function fileOf(lines: Iterator<string>, bytes: number, name: string, phase: string): Promise<File> {
  const dir = await navigator.storage.getDirectory();
  const handle = await dir.getFileHandle(name, { create: true });
  const out = await handle.createWritable();
  let chunk: string[] = [];
  let chunkBytes = 0;
  let total = 0;
  while (total < bytes) {
    const next = lines.next();
    if (next.done) break;
    chunk.push(next.value, '\n');
    chunkBytes += next.value.length + 1;
    if (chunkBytes >= 1 << 20) {
      await out.write(chunk.join(''));
      total += chunkBytes;
      chunk = [];
      chunkBytes = 0;
      progress(phase, Math.min(total, bytes), bytes);
    }
  }
  await out.write(chunk.join(''));
  await out.close();
  return handle.getFile();
}

async function removeFile(name: string) {
  await (await navigator.storage.getDirectory()).removeEntry(name);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function prepare(agent: Agent, mb: number) {
  const bytes = mb * 1024 * 1024;
  const backups: { name: string; body: string }[] = [];
  let extras: StreamExtras | null = null;
  let counts: StreamCounts | CodexStreamCounts;
  let lines: Iterator<string>;
  if (agent === 'claude-code') {
    extras = { edits: 0, backups: 0, backupBytes: 0, compactions: 0, bigResults: 0 };
    const c: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
    counts = c;
    lines = claudeCodeStream(15, Number.MAX_SAFE_INTEGER, c, {
      extras,
      backup: (name, body) => backups.push({ name, body }),
    });
  } else {
    const c: CodexStreamCounts = { lines: 0, prompts: 0, calls: 0 };
    counts = c;
    lines = codexStream(16, Number.MAX_SAFE_INTEGER, c);
  }
  const name =
    agent === 'claude-code' ? `${claudeStreamSessionId}.jsonl` : 'rollout-2026-11-01T00-00-00-big.jsonl';
  const blob = await fileOf(lines, bytes, `bench-import-${name}`, `generating ${agent}`);
  const files: { name: string; data: Blob }[] = [{ name, data: blob }];
  const backupHashes = new Map<string, string>();
  for (const b of backups) {
    files.push({ name: `file-history/${claudeStreamSessionId}/${b.name}`, data: new Blob([b.body]) });
    backupHashes.set(b.name, await sha256(b.body));
  }
  prepared.set(agent, { files, transcriptBytes: blob.size, backupHashes, counts, extras });
  return {
    transcriptBytes: blob.size,
    lines: counts.lines,
    extras,
    backupFiles: backups.length,
    backupBytes: files.slice(1).reduce((n, f) => n + f.data.size, 0),
  };
}

/** Rows the brain holds, by kind (from `audit()`): what a re-import must leave as they are. */
async function rowCounts(b: Brain) {
  const a = await b.audit();
  return {
    ...a.counts,
    events: a.light.events.rows,
    searchDocuments: a.light.searchDocuments.rows,
    imported: (await b.listImportedSessions()).reduce((n, s) => n + s.items, 0),
  };
}

/** How many of the backups' bodies (by SHA-256) are among the stored checkpoint bodies of `sessionId`'s tasks. */
async function backupsStored(
  b: Brain,
  sessionId: Parameters<Brain['listTasks']>[0],
  hashes: Map<string, string>,
) {
  if (hashes.size === 0) return 0;
  const stored = new Set<string>();
  for (const task of await b.listTasks(sessionId)) {
    const entries = await b.listCheckpoints(task.id);
    for (let i = 0; i < entries.length; i += 200) {
      for (const c of await b.readCheckpoints(entries.slice(i, i + 200).map((e) => e.id))) {
        for (const body of [c.before, c.after]) if (typeof body === 'string') stored.add(await sha256(body));
      }
    }
  }
  return [...hashes.values()].filter((h) => stored.has(h)).length;
}

const sessions = new Map<Agent, Parameters<Brain['listTasks']>[0]>();

async function run(agent: Agent) {
  const p = prepared.get(agent)!;
  const started = performance.now();
  const result = await brain!.importTranscript({ files: p.files }, (r) =>
    progress(`importing ${agent} (MB)`, Math.round(r.bytesDone / 1e6), Math.round(r.bytesTotal / 1e6)),
  );
  // Steps are indexed just behind the import, when the worker is idle; a search catches up first. Timed (and
  // sampled) with it: a session is imported when it is searchable.
  await brain!.searchHistory('bench');
  const seconds = (performance.now() - started) / 1000;
  const s = result.sessions[0]!;
  sessions.set(agent, s.sessionId);
  return {
    agent,
    seconds,
    mbPerSecond: p.transcriptBytes / 1e6 / seconds,
    generated: { prompts: p.counts.prompts, calls: p.counts.calls },
    imported: { prompts: s.added.instructions, calls: s.added.toolCalls },
    added: s.added,
  };
}

async function storage(agent: Agent) {
  const b = brain!;
  const audit = await b.audit();
  return {
    checkpoint: { stored: audit.bytes.checkpointStored, raw: audit.bytes.checkpointRaw },
    checkpointEntries: audit.counts.checkpointEntries,
    // Where agent.db's bytes are (UTF-8 bytes of each kind's content; the FTS index and b-tree overhead not counted).
    content: {
      steps: audit.bytes.steps,
      messages: audit.bytes.messages,
      summaries: audit.bytes.summaries,
      events: audit.light.events.bytes,
      searchDocuments: audit.light.searchDocuments.bytes,
      free: audit.freeBytes,
    },
    dbBytes: audit.fileBytes,
    backupsStored: await backupsStored(b, sessions.get(agent)!, prepared.get(agent)!.backupHashes),
  };
}

async function again(agent: Agent) {
  const b = brain!;
  const before = await rowCounts(b);
  const files = prepared.get(agent)!.files;
  const result = await b.importTranscript({ files });
  const after = await rowCounts(b);
  const added = Object.values(result.sessions[0]!.added).reduce((n, v) => n + v, 0);
  const changed = Object.keys(before).filter(
    (k) => before[k as keyof typeof before] !== after[k as keyof typeof after],
  );
  prepared.delete(agent);
  await removeFile(`bench-import-${files[0]!.name}`);
  return { added, changed, rows: before };
}

export async function importBench(step: ImportBenchStep) {
  switch (step.step) {
    case 'prepare':
      return prepare(step.agent, step.mb);
    case 'open':
      brain = await openBrain({ dbName: step.dbName, startEmpty: true });
      await brain.setAutoCleanup({ enabled: false });
      return null;
    case 'run':
      return run(step.agent);
    case 'storage':
      return storage(step.agent);
    case 'again':
      return again(step.agent);
    case 'close':
      await brain?.close();
      brain = null;
      return null;
    default:
      return step satisfies never;
  }
}
