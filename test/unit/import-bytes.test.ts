import { describe, expect, it, vi } from 'vitest';
import { CHUNK_BYTES, chunksOf } from '../../src/engine/importers/bytes';
import { readLines } from '../../src/engine/importers/lines';
import { createRandom } from '../helpers/random';

/** Text with what splits badly: multi-byte characters, CRLF, empty lines, a line longer than a chunk. */
function awkwardBytes(seed: number, lines: number): { bytes: Uint8Array<ArrayBuffer>; expected: string[] } {
  const random = createRandom(seed);
  const pieces = ['plain', 'é', '€', '😀', '\t', 'ü', '"quoted"', '\\', 'x'.repeat(300)];
  const expected: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = random.int(0, 40);
    let line = '';
    for (let k = 0; k < n; k++) line += pieces[random.int(0, pieces.length)];
    if (i === 7) line = '€'.repeat(200_000); // ~600 KB: longer than the chunks below
    expected.push(line);
  }
  const text = expected.map((l, i) => (i % 3 === 0 ? `${l}\r\n` : `${l}\n`)).join('');
  return { bytes: new TextEncoder().encode(text), expected };
}

async function linesOf(data: Uint8Array | Blob): Promise<{ lines: string[]; torn: boolean }> {
  const lines: string[] = [];
  const { torn } = await readLines(data, { line: (text) => void lines.push(text) });
  return { lines, torn };
}

describe('transcript bytes', () => {
  it('gives a Blob back slice by slice, byte for byte', async () => {
    const { bytes } = awkwardBytes(3, 2_000);
    const blob = new Blob([bytes]);
    const seen: number[] = [];
    const out = new Uint8Array(bytes.byteLength);
    let at = 0;
    for await (const chunk of chunksOf(blob, 64 * 1024)) {
      expect(chunk.byteLength === 64 * 1024 || at + chunk.byteLength === bytes.byteLength).toBe(true);
      out.set(chunk, at);
      at += chunk.byteLength;
      seen.push(chunk.byteLength);
    }
    expect(at).toBe(bytes.byteLength);
    expect(Buffer.compare(out, bytes)).toBe(0);
    expect(seen.length).toBe(Math.ceil(bytes.byteLength / (64 * 1024)));
  });

  it('reads the same lines from a Blob and from bytes, split across chunks anywhere', async () => {
    const { bytes, expected } = awkwardBytes(5, 3_000);
    const fromBlob = await linesOf(new Blob([bytes]));
    const fromBytes = await linesOf(bytes);
    expect(fromBlob.lines).toEqual(expected);
    expect(fromBytes.lines).toEqual(expected);
    expect(fromBlob.torn).toBe(false);
  });

  it('joins a line across many chunks, and a CRLF or a character split at a chunk boundary', async () => {
    const encoder = new TextEncoder();
    const long = 'a€'.repeat(900_000); // 3.6 MB: four chunks and more
    const head = encoder.encode(`${'x'.repeat(CHUNK_BYTES - 2)}\r\n`); // the CRLF straddles the first boundary
    const mid = encoder.encode(`${'y'.repeat(CHUNK_BYTES - 1)}€\n`); // the € straddles the second
    const tail = encoder.encode(`${long}\n\nlast`);
    const bytes = new Uint8Array(head.length + mid.length + tail.length);
    bytes.set(head, 0);
    bytes.set(mid, head.length);
    bytes.set(tail, head.length + mid.length);
    expect(head.length).toBe(CHUNK_BYTES);
    const expected = ['x'.repeat(CHUNK_BYTES - 2), `${'y'.repeat(CHUNK_BYTES - 1)}€`, long, '', 'last'];
    for (const data of [new Blob([bytes]), bytes]) {
      const { lines, torn } = await linesOf(data);
      expect(lines.length).toBe(expected.length);
      for (const [i, line] of expected.entries()) expect(lines[i] === line, `line ${i + 1}`).toBe(true);
      expect(torn).toBe(true);
    }
  });

  it('keeps a torn last line and replaces bytes that are not UTF-8, from a Blob', async () => {
    const head = new TextEncoder().encode('{"a":1}\n{"b":');
    const bad = Uint8Array.from([0xff, 0xfe, 0x41]);
    const { lines, torn } = await linesOf(new Blob([head, bad]));
    expect(lines).toEqual(['{"a":1}', '{"b":\uFFFD\uFFFDA']);
    expect(torn).toBe(true);
  });

  it('offers every line as bytes first and decodes only the lines not taken so', async () => {
    const { bytes, expected } = awkwardBytes(11, 1_500);
    const encoder = new TextEncoder();
    const offered: string[] = [];
    const decoded: number[] = [];
    const decoder = new TextDecoder();
    for (const data of [new Blob([bytes]), bytes]) {
      offered.length = 0;
      decoded.length = 0;
      const { lines, torn } = await readLines(data, {
        skip(line, lineNo) {
          offered.push(decoder.decode(line));
          expect(line.includes(0x0a) || line.at(-1) === 0x0d).toBe(false);
          return lineNo % 2 === 0;
        },
        line: (text, lineNo) => {
          expect(lineNo % 2).toBe(1);
          expect(text).toBe(expected[lineNo - 1]);
          decoded.push(lineNo);
        },
      });
      expect(offered).toEqual(expected);
      expect(decoded).toEqual(expected.flatMap((_, i) => (i % 2 === 0 ? [i + 1] : [])));
      expect(lines).toBe(expected.length);
      expect(torn).toBe(false);
      // The bytes offered are the line's own UTF-8, so a skip test on them sees what a decode would.
      expect(encoder.encode(offered[7]).length).toBe(600_000);
    }
  });

  it("drops a byte order mark at the file's start only, and never decodes a skipped line", async () => {
    const text = '\uFEFF{"a":1}\n\uFEFF{"b":2}\r\nskip me: \u00e9\n';
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    try {
      const offered: Uint8Array[] = [];
      const lines: string[] = [];
      await readLines(new TextEncoder().encode(text), {
        skip: (line) => (offered.push(line.slice()), line[0] === 0x73 /* s */),
        line: (t) => void lines.push(t),
      });
      expect(lines).toEqual(['{"a":1}', '\uFEFF{"b":2}']);
      expect(offered[0]).toEqual(new TextEncoder().encode('{"a":1}'));
      expect(decode).toHaveBeenCalledTimes(2);
    } finally {
      decode.mockRestore();
    }
  });

  it('stops reading when the reader stops early, and reads an empty Blob as nothing', async () => {
    const { bytes } = awkwardBytes(9, 2_000);
    let chunks = 0;
    for await (const chunk of chunksOf(new Blob([bytes]), 16 * 1024)) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      if (++chunks === 2) break;
    }
    expect(chunks).toBe(2);
    const none: Uint8Array[] = [];
    for await (const chunk of chunksOf(new Blob([]))) none.push(chunk);
    expect(none).toEqual([]);
  });
});
