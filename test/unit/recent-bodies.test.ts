/**
 * Bodies stored lately, remembered so an edit's before body — the previous edit's after body — is encoded and
 * hashed once: the memo's bounds, and a chain of edits through the engine encoding each distinct body once and
 * reading every one back byte-exact (and a body changed outside the chain still stored as itself).
 */
import { describe, expect, it, vi } from 'vitest';
import { createRecentBodies } from '../../src/storage/blobs/recent-bodies';
import { memoryBrain } from './engine-helpers';

const encoder = new TextEncoder();

describe('recent bodies', () => {
  it('gives the same bytes for the same text, and a hash only for the same array', () => {
    const recent = createRecentBodies();
    let made = 0;
    const encode = (text: string) => () => (made++, encoder.encode(text));
    const a = recent.bytesOf('body a', encode('body a'));
    expect(recent.bytesOf(`body ${'a'}`, encode('body a'))).toBe(a);
    expect(made).toBe(1);
    expect(recent.hashOf(a)).toBeNull();
    recent.hashed(a, Uint8Array.of(1, 2, 3));
    expect(recent.hashOf(a)).toEqual(Uint8Array.of(1, 2, 3));
    expect(recent.hashOf(encoder.encode('body a'))).toBeNull();
  });

  it('forgets the least recently used past its count or bytes, and never keeps a large body', () => {
    const recent = createRecentBodies({ count: 3, bytes: 1000 });
    const arrays = ['a', 'b', 'c'].map((t) => recent.bytesOf(t, () => encoder.encode(t)));
    recent.bytesOf('a', () => encoder.encode('a')); // a used again: b is now the oldest
    recent.bytesOf('d', () => encoder.encode('d'));
    expect(recent.bytesOf('a', () => encoder.encode('a'))).toBe(arrays[0]);
    expect(recent.bytesOf('b', () => encoder.encode('b'))).not.toBe(arrays[1]);
    const big = 'x'.repeat(101);
    const first = recent.bytesOf(big, () => encoder.encode(big));
    expect(recent.bytesOf(big, () => encoder.encode(big))).not.toBe(first);
    recent.hashed(first, Uint8Array.of(9));
    expect(recent.hashOf(first)).toBeNull();
    // By bytes: ten 90-byte bodies do not fit in 1000 bytes with three more.
    const many = createRecentBodies({ count: 100, bytes: 1000 });
    const bodies = Array.from({ length: 12 }, (_, i) => `${i}`.padEnd(90, '.'));
    const kept = bodies.map((t) => many.bytesOf(t, () => encoder.encode(t)));
    expect(many.bytesOf(bodies[0]!, () => encoder.encode(bodies[0]!))).not.toBe(kept[0]);
    expect(many.bytesOf(bodies[11]!, () => encoder.encode(bodies[11]!))).toBe(kept[11]);
  });

  it('encodes each body of a chain of edits once, and reads every one back as it was', async () => {
    const { api } = await memoryBrain();
    const { id: sessionId } = await api.startSession();
    const { id: taskId } = await api.startTask({ sessionId, title: 'edits' });
    const versions = Array.from({ length: 12 }, (_, v) =>
      Array.from(
        { length: 400 },
        (_, line) => `export const v${line} = ${line === v * 7 ? v : line}; // é€`,
      ).join('\n'),
    );
    // Version 6 is changed outside the chain (the next edit's before is not the last after).
    const befores = versions.slice(0, -1).map((body, i) => (i === 6 ? `${body}\n// touched by hand` : body));
    const encode = vi.spyOn(TextEncoder.prototype, 'encode');
    const ids = [];
    try {
      for (const [i, before] of befores.entries())
        ids.push(
          ...(await api.checkpointFiles([{ taskId, path: 'src/a.ts', before, after: versions[i + 1]! }])).ids,
        );
      const bodies = encode.mock.calls.filter(
        ([text]) => typeof text === 'string' && text.startsWith('export const'),
      );
      // 12 versions and the one touched by hand, each once — not twice per edit (22).
      expect(bodies).toHaveLength(versions.length + 1);
    } finally {
      encode.mockRestore();
    }
    for (const [i, id] of ids.entries()) {
      const entry = await api.readCheckpoint(id);
      expect(entry.before).toBe(befores[i]);
      expect(entry.after).toBe(versions[i + 1]);
    }
  });
});
