/**
 * The "follow" bench's agent: a dedicated worker that writes a generated Claude-Code-shaped session
 * (claude-code-stream.ts, the import bench's generator) into a file of an OPFS folder, as an agent appends to its
 * transcript — first a backlog of `bytes`, then on at `rate` bytes a second, one append every `tickMs`. The append
 * phase holds one sync access handle open (the follower's `getFile` reads the file meanwhile, and a
 * `FileSystemObserver` reports each flush); each append is a write at the end and a flush. (A writable stream with
 * `keepExistingData` would copy the whole 1 GB file at each append; a handle opened and closed per append made
 * Chromium refuse the brain's own writes with QuotaExceededError at 1.3 GB used of a 12 GB quota, twice in three
 * runs — each new handle reserves capacity ahead.) Every `markEveryMs` an append carries a unique marker in the
 * output of its first Bash result; the worker posts the marker with the time its append was flushed (epoch ms, the
 * `performance.timeOrigin` clock the page shares), so the page can time how long until a search finds it.
 */
import { claudeCodeStream, type StreamCounts } from '../../fixtures/transcripts/claude-code-stream';

export type WriterRequest =
  | { readonly op: 'backlog'; readonly dir: string; readonly name: string; readonly bytes: number }
  | {
      readonly op: 'append';
      readonly rate: number;
      readonly seconds: number;
      readonly tickMs: number;
      readonly markEveryMs: number;
    };

export type WriterMessage =
  | { readonly op: 'progress'; readonly done: number; readonly total: number }
  | { readonly op: 'mark'; readonly marker: string; readonly at: number; readonly size: number }
  | {
      readonly op: 'done';
      readonly bytes: number;
      readonly size: number;
      readonly lines: number;
      readonly calls: number;
      readonly appends: number;
      readonly markers: number;
      /** The longest gap between two appends (ms): the writer kept its pace when it is near tickMs. */
      readonly maxGapMs: number;
    }
  | { readonly op: 'error'; readonly message: string };

/** What the generator writes in every Bash result: a marker goes after it (in `content` and `stdout` alike). */
const MARK_AFTER = 'Tests: 120 passed';

const counts: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
const lines = claudeCodeStream(15, Number.MAX_SAFE_INTEGER, counts);
const encoder = new TextEncoder();
let file: FileSystemFileHandle | null = null;
/** The append phase's handle, open from its first append to its end. */
let open: FileSystemSyncAccessHandle | null = null;
let size = 0;
const now = () => performance.timeOrigin + performance.now();
const post = (message: WriterMessage) => postMessage(message);

/** Lines until about `bytes` (the line crossing it whole); `mark`, when given, goes into the first Bash result. */
function take(bytes: number, mark: string | null): { text: string; marked: boolean } {
  const parts: string[] = [];
  let n = 0;
  let marked = false;
  while (n < bytes) {
    let line = lines.next().value as string;
    if (mark !== null && !marked && line.includes(MARK_AFTER)) {
      line = line.replaceAll(MARK_AFTER, `${MARK_AFTER} ${mark}`);
      marked = true;
    }
    parts.push(line, '\n');
    n += line.length + 1;
  }
  return { text: parts.join(''), marked };
}

async function append(bytes: Uint8Array) {
  open ??= await file!.createSyncAccessHandle();
  let done = 0;
  while (done < bytes.length) {
    const n = open.write(bytes.subarray(done), { at: size + done });
    if (n <= 0) throw new Error(`Short write at ${size + done}: the storage quota is full?`);
    done += n;
  }
  open.flush();
  size += bytes.length;
}

async function backlog(dirName: string, name: string, bytes: number) {
  const root = await navigator.storage.getDirectory();
  const dir = await root.getDirectoryHandle(dirName, { create: true });
  file = await dir.getFileHandle(name, { create: true });
  const handle = await file.createSyncAccessHandle();
  try {
    handle.truncate(0);
    size = 0;
    while (size < bytes) {
      const chunk = encoder.encode(take(Math.min(1 << 20, bytes - size), null).text);
      handle.write(chunk, { at: size });
      size += chunk.length;
      post({ op: 'progress', done: Math.min(size, bytes), total: bytes });
    }
    handle.flush();
  } finally {
    handle.close();
  }
  return size;
}

async function appendFor(rate: number, seconds: number, tickMs: number, markEveryMs: number) {
  const started = now();
  let written = 0;
  let appends = 0;
  let markers = 0;
  let lastMarkAt = -Infinity;
  let lastAppendAt = started;
  let maxGapMs = 0;
  for (let tick = 1; ; tick++) {
    const at = now();
    const elapsed = at - started;
    if (elapsed >= seconds * 1000) break;
    const due = rate * (elapsed / 1000) - written;
    if (due > 0) {
      const mark = at - lastMarkAt >= markEveryMs ? `fwmark${String(markers).padStart(6, '0')}x` : null;
      const { text, marked } = take(due, mark);
      const bytes = encoder.encode(text);
      await append(bytes);
      const closed = now();
      written += bytes.length;
      appends++;
      maxGapMs = Math.max(maxGapMs, closed - lastAppendAt);
      lastAppendAt = closed;
      if (marked && mark !== null) {
        markers++;
        lastMarkAt = at;
        post({ op: 'mark', marker: mark, at: closed, size });
      }
    }
    const wait = started + tick * tickMs - now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return { bytes: written, appends, markers, maxGapMs };
}

onmessage = async ({ data }: MessageEvent<WriterRequest>) => {
  try {
    if (data.op === 'backlog') {
      const bytes = await backlog(data.dir, data.name, data.bytes);
      post({
        op: 'done',
        bytes,
        size,
        lines: counts.lines,
        calls: counts.calls,
        appends: 1,
        markers: 0,
        maxGapMs: 0,
      });
    } else {
      let r;
      try {
        r = await appendFor(data.rate, data.seconds, data.tickMs, data.markEveryMs);
      } finally {
        open?.close();
        open = null;
      }
      post({ op: 'done', ...r, size, lines: counts.lines, calls: counts.calls });
    }
  } catch (error) {
    post({ op: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
};
