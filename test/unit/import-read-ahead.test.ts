/**
 * A transcript read on a second thread (engine/importers/read-ahead.ts) is imported exactly as one read here: every
 * row of every table of agent.db the same, byte for byte — over a real structured-clone boundary (a MessageChannel;
 * the brain worker uses a nested Worker), with the awkward lines in it (not JSON, CRLF, bytes that are not UTF-8, a
 * torn last line, a meta that changes mid-file). A step packed ahead is stored only for the very text the writer
 * computed (a control shows the bytes are taken when it is), a reader that cannot start leaves the import to this
 * thread, one that fails mid-way fails the import with its error and leaves nothing, and the reader is never more
 * than its window ahead.
 */
import { describe, expect, it } from 'vitest';
import { BrainError } from '../../src/core/errors';
import {
  READ_AHEAD_WINDOW,
  readAheadWith,
  serveReadAhead,
  type ReaderPort,
  type ReaderThread,
} from '../../src/engine/importers/read-ahead';
import { packStepAhead, type PackedStep } from '../../src/engine/tool-calls/step-texts';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import {
  packJson,
  packJsonNative,
  unpackJson,
  type StoredJson,
} from '../../src/storage/sqlite/repos/step-json';
import { codexStream, type CodexStreamCounts } from '../fixtures/transcripts/codex-stream';
import {
  claudeCodeStream,
  claudeStreamSessionId,
  type StreamCounts,
} from '../fixtures/transcripts/claude-code-stream';
import { memoryBrain } from './engine-helpers';
import { intercepted, type WireMessage } from '../fixtures/reader-threads';

const enc = new TextEncoder();

/** A reader thread over a MessageChannel: the same messages and clones a nested worker gets. */
function channelThread(
  watch?: { sent: number; acked: number; maxAhead: number },
  // fflate, as a read on one thread packs: every stored byte can be compared. The worker's default is native zlib.
  pack: (text: string) => StoredJson | Promise<StoredJson> = packJson,
): ReaderThread {
  const { port1, port2 } = new MessageChannel();
  const readerSide = port2 as unknown as ReaderPort;
  if (watch) {
    const post = readerSide.postMessage.bind(readerSide);
    readerSide.postMessage = (m: unknown, t?: Transferable[]) => {
      if ((m as { type: string }).type === 'batch') watch.sent++;
      watch.maxAhead = Math.max(watch.maxAhead, watch.sent - watch.acked);
      post(m, t);
    };
  }
  // Packing whatever the backlog: here both sides share one thread, so the writer would never be behind.
  serveReadAhead(readerSide, { pack, packFromBacklog: 0 });
  const writerSide = port1 as unknown as ReaderPort;
  if (watch) {
    const post = writerSide.postMessage.bind(writerSide);
    writerSide.postMessage = (m: unknown, t?: Transferable[]) => {
      if ((m as { type: string }).type === 'ack') watch.acked++;
      post(m, t);
    };
  }
  return {
    port: writerSide,
    onFailure: () => undefined,
    terminate: () => {
      port1.close();
      port2.close();
    },
  };
}

/** A channel thread whose messages to the writer pass through `change` first. */
const interceptedThread = (change: (m: WireMessage) => WireMessage) => intercepted(channelThread(), change);

/** Tables that differ, with their first differing row (an empty object when agent.db is the same). */
const sameRows = async (a: SqlDriver, b: SqlDriver) => diffRows(await tableRows(a), await tableRows(b));

function diffRows(x: Record<string, unknown[]>, y: Record<string, unknown[]>) {
  const out: Record<string, unknown> = {};
  for (const name of new Set([...Object.keys(x), ...Object.keys(y)])) {
    const [rx, ry] = [x[name] ?? [], y[name] ?? []];
    const i = rx.findIndex((r, j) => JSON.stringify(r) !== JSON.stringify(ry[j]));
    if (rx.length !== ry.length || i >= 0)
      out[name] = { rows: [rx.length, ry.length], first: [rx[i], ry[i]] };
  }
  return out;
}

async function tableRows(db: SqlDriver) {
  const tables = await db.all<{ name: string }>(
    // _migrations: when each brain was created, not what it holds.
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_migrations' ORDER BY name",
  );
  const out: Record<string, unknown[]> = {};
  // Sorted here: some tables are WITHOUT ROWID.
  const key = (row: unknown) =>
    JSON.stringify(row, (_, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));
  for (const { name } of tables)
    out[name] = (await db.all(`SELECT * FROM "${name}"`)).sort((a, b) => (key(a) < key(b) ? -1 : 1));
  return out;
}

function codexFile(count = 3_000): Blob {
  const counts: CodexStreamCounts = { lines: 0, prompts: 0, calls: 0 };
  const lines = [...codexStream(7, count, counts)];
  // Awkward lines: not JSON, a CRLF ending, bytes that are not UTF-8, and a torn last line.
  lines.splice(40, 0, '{"timestamp": "2026-11-01T00:00:0');
  lines[60] = `${lines[60]}\r`;
  const parts: BlobPart[] = lines.map((l) => `${l}\n`);
  parts.splice(80, 0, new Uint8Array([0xff, 0xfe, 0x7b, 0x0a]));
  parts.push('{"timestamp":"2026-11-01T05:00:00Z","type":"response_item","payload":{"type":"mess');
  return new Blob(parts);
}

function claudeFiles() {
  const counts: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
  const backups: { name: string; data: Blob }[] = [];
  const lines = [
    ...claudeCodeStream(3, 4_000, counts, {
      backup: (name, body) =>
        backups.push({ name: `file-history/${claudeStreamSessionId}/${name}`, data: new Blob([body]) }),
    }),
  ];
  return [
    { name: `projects/big/${claudeStreamSessionId}.jsonl`, data: new Blob(lines.map((l) => `${l}\n`)) },
    ...backups,
  ];
}

const rollout = 'rollout-2026-11-01T00-00-00-0f6a2d9e.jsonl';

describe('a transcript read ahead on another thread', () => {
  it.each([
    ['codex', () => [{ name: rollout, data: codexFile() }]],
    ['claude-code', claudeFiles],
  ])('%s: every row of agent.db is what a read on this thread writes', async (_, files) => {
    const given = files();
    const here = await memoryBrain();
    const watch = { sent: 0, acked: 0, maxAhead: 0 };
    const elsewhere = await memoryBrain({
      readAhead: readAheadWith(() => channelThread(watch), { minBytes: 0 }),
    });
    const progressHere: number[] = [];
    const progressThere: number[] = [];
    const a = await here.api.importTranscript({ files: given }, (p) => void progressHere.push(p.bytesDone));
    const b = await elsewhere.api.importTranscript(
      { files: given },
      (p) => void progressThere.push(p.bytesDone),
    );
    expect(watch.sent).toBeGreaterThan(1);
    expect(b).toEqual(a);
    expect(a.sessions[0]!.added.toolCalls).toBeGreaterThan(100);
    expect(await sameRows(elsewhere.database.driver, here.database.driver)).toEqual({});
    expect(progressThere.at(-1)).toBe(progressHere.at(-1));
    expect(watch.maxAhead).toBeLessThanOrEqual(READ_AHEAD_WINDOW);
  });

  it('packed on native zlib (the worker’s way): other bytes, the same steps', async () => {
    const given = [{ name: rollout, data: codexFile() }];
    const here = await memoryBrain();
    const native = await memoryBrain({
      readAhead: readAheadWith(() => channelThread(undefined, packJsonNative), { minBytes: 0 }),
    });
    await here.api.importTranscript({ files: given });
    await native.api.importTranscript({ files: given });
    const steps = async (db: SqlDriver) =>
      (
        await db.all<{ id: number; params: StoredJson; result: StoredJson }>(
          'SELECT * FROM steps ORDER BY id',
        )
      ).map((s) => ({
        ...s,
        params: unpackJson(s.params, s.id, 'params'),
        result: unpackJson(s.result, s.id, 'result'),
      }));
    const [a, b] = [await steps(here.database.driver), await steps(native.database.driver)];
    expect(b.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
    // byte_counters: the bytes stored, which another stream changes by a few.
    const {
      steps: _a,
      byte_counters: _b,
      ...rest
    } = await sameRows(native.database.driver, here.database.driver);
    expect(rest).toEqual({});
  });

  it('a reader that cannot start leaves the unit to this thread', async () => {
    const given = [{ name: rollout, data: codexFile() }];
    const here = await memoryBrain();
    let started = 0;
    const broken = await memoryBrain({
      readAhead: readAheadWith(
        () => {
          started++;
          return {
            port: { postMessage: () => undefined, onmessage: null },
            onFailure: (listener) => queueMicrotask(() => listener('its script could not be loaded')),
            terminate: () => undefined,
          };
        },
        { minBytes: 0 },
      ),
    });
    const a = await here.api.importTranscript({ files: given });
    const b = await broken.api.importTranscript({ files: given });
    expect(started).toBe(1);
    expect(b).toEqual(a);
    expect(await sameRows(broken.database.driver, here.database.driver)).toEqual({});
  });

  it('a reader that fails mid-way fails the import with its error, and nothing is written', async () => {
    let batches = 0;
    const brain = await memoryBrain({
      readAhead: readAheadWith(
        // The reader's second batch never comes: it failed reading the file (a DOMException in a browser).
        () =>
          interceptedThread((m) =>
            m.type === 'batch' && ++batches === 2
              ? { type: 'error', code: null, name: 'NotReadableError', message: 'The file changed.' }
              : m,
          ),
        { minBytes: 0 },
      ),
    });
    const before = await tableRows(brain.database.driver);
    const error = await brain.api
      .importTranscript({ files: [{ name: rollout, data: codexFile() }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'NotReadableError', message: 'The file changed.' });
    // Its size sample at open may land meanwhile (an idle job): not the import's.
    const after = await tableRows(brain.database.driver);
    const { size_samples: _a, ...rest } = diffRows(after, before);
    expect(rest).toEqual({});
    expect(after['sessions']).toEqual([]);
  });

  it('a cancel mid-way stops the reader and leaves nothing', async () => {
    let terminated = 0;
    let batches = 0;
    const brain = await memoryBrain({
      readAhead: readAheadWith(
        () => {
          const thread = intercepted(channelThread(), (m) => {
            if (m.type === 'batch') batches++;
            return m;
          });
          return { ...thread, terminate: () => (terminated++, thread.terminate()) };
        },
        { minBytes: 0 },
      ),
    });
    const before = await tableRows(brain.database.driver);
    const error = await brain.api
      // ~6 MB: seconds of import, so a throttled report (every 100 ms) comes while the reader is reading.
      .importTranscript({ files: [{ name: rollout, data: codexFile(12_000) }] }, (p) =>
        p.bytesDone > 0 ? 'cancel' : undefined,
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'Cancelled' });
    expect(batches).toBeGreaterThan(0);
    expect(terminated).toBe(1);
    const { size_samples: _a, ...rest } = diffRows(await tableRows(brain.database.driver), before);
    expect(rest).toEqual({});
  });

  it("a brain error of the reader's comes back as itself", async () => {
    const brain = await memoryBrain({
      readAhead: readAheadWith(
        () =>
          interceptedThread(() => ({
            type: 'error',
            code: 'TooLarge',
            name: 'BrainError',
            message: 'A line is too long.',
          })),
        { minBytes: 0 },
      ),
    });
    const error = await brain.api
      .importTranscript({ files: [{ name: rollout, data: codexFile() }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrainError);
    expect(error).toMatchObject({ code: 'TooLarge', message: 'A line is too long.' });
  });
});

describe('a step packed ahead', () => {
  /** Every packed result of every batch given other bytes (and, with `otherText`, another text too). */
  const tampered = (otherText: boolean) => (m: WireMessage) => {
    if (m.type !== 'batch') return m;
    for (const g of m.groups as { ahead: (PackedStep | null)[] }[])
      g.ahead = g.ahead.map((a) =>
        a?.result
          ? {
              ...a,
              result: {
                text: otherText ? `${a.result.text} ` : a.result.text,
                stored: new Uint8Array([1, 0, 0, 0, 3, 0x78, 0x9c, 0x4b, 0x04, 0x00, 0x00, 0x62, 0x00, 0x62]),
              },
            }
          : a,
      );
    return m;
  };

  it('is what packJson gives for the text the writer stores', async () => {
    const call = {
      tool: 'exec_command',
      input: { cmd: 'npm test' },
      output: `Exit code: 0\n${'ok 1 - a test that passed with a long enough name to pack\n'.repeat(20)}`,
    };
    const ahead = await packStepAhead(call, 1_000_000);
    expect(ahead?.result?.text).toContain('"output"');
    expect(ahead?.result?.stored[0]).toBe(1);
    expect(enc.encode(ahead!.result!.text).length).toBeGreaterThan(ahead!.result!.stored.length);
    expect(await packStepAhead({ tool: 'x', input: {} }, 1_000_000)).toBeNull();
  });

  it('is stored only for the very text the writer computed', async () => {
    const given = [{ name: rollout, data: codexFile() }];
    const here = await memoryBrain();
    await here.api.importTranscript({ files: given });
    const other = await memoryBrain({
      readAhead: readAheadWith(() => interceptedThread(tampered(true)), { minBytes: 0 }),
    });
    await other.api.importTranscript({ files: given });
    expect(await sameRows(other.database.driver, here.database.driver)).toEqual({});

    // The control: the same text with other bytes — they are what is stored, so the check above could fail.
    const control = await memoryBrain({
      readAhead: readAheadWith(() => interceptedThread(tampered(false)), { minBytes: 0 }),
    });
    await control.api.importTranscript({ files: given });
    const steps = await control.database.driver.all<{ result: unknown }>('SELECT result FROM steps');
    const withPlanted = steps.filter(
      (s) => s.result instanceof Uint8Array && s.result.length === 14 && s.result[7] === 0x4b,
    );
    expect(withPlanted.length).toBeGreaterThan(100);
  });
});
