import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, chunksOf } from '../../src/engine/importers/bytes';
import { readLines } from '../../src/engine/importers/lines';

/** Bytes that are not a whole number of Chromium's stream reads, with lines split across chunks. */
const line = new TextEncoder().encode('{"type":"progress","data":"é€😀 xxxxxxxxxxxxxxxxxxxxxxxx"}\n');

function bytesOf(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += line.length)
    out.set(line.subarray(0, Math.min(line.length, size - at)), at);
  return out;
}

async function viaOpfs(name: string, bytes: Uint8Array<ArrayBuffer>): Promise<File> {
  const dir = await navigator.storage.getDirectory();
  const handle = await dir.getFileHandle(name, { create: true });
  const writable = await handle.createWritable();
  await writable.write(bytes);
  await writable.close();
  return handle.getFile();
}

describe('transcript bytes in Chromium', () => {
  for (const [what, size] of [
    ['a Blob of 9 MiB and 3 bytes', 9 * 1024 * 1024 + 3],
    ['a Blob of exactly two chunks', 2 * CHUNK_BYTES],
    ['a small Blob', 1000],
  ] as const) {
    it(`reads ${what} back whole, from memory and from an OPFS file`, async () => {
      const bytes = bytesOf(size);
      for (const data of [new Blob([bytes]), await viaOpfs(`bytes-${size}.jsonl`, bytes)]) {
        const out = new Uint8Array(size);
        let at = 0;
        for await (const chunk of chunksOf(data)) {
          out.set(chunk, at);
          at += chunk.byteLength;
        }
        expect(at).toBe(size);
        let differs = -1;
        for (let i = 0; i < size && differs < 0; i++) if (out[i] !== bytes[i]) differs = i;
        expect(differs, 'first byte that differs').toBe(-1);
        let lines = 0;
        await readLines(data, { line: () => void lines++ });
        expect(lines).toBe(Math.ceil(size / line.length));
      }
    });
  }

  it('reads a 256 MiB OPFS file through to its end in a worker, three times, as an import does', async () => {
    // Chromium 156 stalled a BYOB read of a file's stream in a worker (the read never settled) after a few hundred
    // MB; the worker then sat silent, which a page sees only as a call that never returns.
    const lineBytes = new TextEncoder().encode(`{"type":"progress","data":"${'x'.repeat(1990)}"}\n`);
    const block = new Uint8Array(lineBytes.length * 4096);
    for (let i = 0; i < 4096; i++) block.set(lineBytes, i * lineBytes.length);
    const dir = await navigator.storage.getDirectory();
    const handle = await dir.getFileHandle('bytes-large.jsonl', { create: true });
    const writable = await handle.createWritable();
    const blocks = Math.ceil((256 * 1024 * 1024) / block.length);
    for (let i = 0; i < blocks; i++) await writable.write(block);
    await writable.close();
    const worker = new Worker(new URL('./import-bytes.worker.ts', import.meta.url), { type: 'module' });
    try {
      const reply = await new Promise<{
        results?: { lines: number; torn: boolean; chars: number }[];
        error?: string;
      }>((resolve, reject) => {
        worker.onerror = (event) => reject(new Error(event.message));
        worker.onmessage = (event) => resolve(event.data);
        void handle.getFile().then((file) => worker.postMessage({ file, passes: 3 }));
      });
      expect(reply.error).toBeUndefined();
      const expected = { lines: blocks * 4096, torn: false, chars: blocks * 4096 * (lineBytes.length - 1) };
      expect(reply.results).toEqual([expected, expected, expected]);
    } finally {
      worker.terminate();
      await dir.removeEntry('bytes-large.jsonl');
    }
  }, 60_000);
});
