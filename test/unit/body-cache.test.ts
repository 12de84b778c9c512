/**
 * The checkpoint body cache's bound for one piece of work (src/storage/blobs/cache.ts): lowered and trimmed at once,
 * put back after the work whether it resolves or throws, left alone when already lower — and importTranscript runs
 * under IMPORT_BODY_CACHE_BYTES, then leaves the bound as it found it.
 */
import { describe, expect, it, vi } from 'vitest';
import * as cacheModule from '../../src/storage/blobs/cache';
import { createBodyCache, IMPORT_BODY_CACHE_BYTES, type BodyCache } from '../../src/storage/blobs/cache';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { memoryBrain } from './engine-helpers';

const KiB = 1024;
const body = (n: number, fill: number) => new Uint8Array(n * KiB).fill(fill);

/** Fills `cache` with bodies of 10 KiB named b0, b1, … and returns the names still held. */
function fill(cache: BodyCache, count: number): string[] {
  for (let i = 0; i < count; i++) cache.put(`b${i}`, body(10, i));
  return Array.from({ length: count }, (_, i) => `b${i}`).filter((k) => cache.get(k) !== undefined);
}

const held = (cache: BodyCache, count: number) =>
  Array.from({ length: count }, (_, i) => `b${i}`).filter((k) => cache.get(k) !== undefined);

describe('body cache bound for one piece of work', () => {
  it('trims to the lower bound at once, keeps to it while the work runs, and puts it back after', async () => {
    const cache = createBodyCache(200 * KiB);
    expect(fill(cache, 20)).toHaveLength(20);
    const during = await cache.atMost(50 * KiB, async () => {
      // The most recently used bodies stay.
      expect(held(cache, 20)).toEqual(['b15', 'b16', 'b17', 'b18', 'b19']);
      cache.put('new', body(10, 99));
      return cache.bytes;
    });
    expect(during).toBeLessThanOrEqual(50 * KiB);
    // The bound is back: 20 bodies fit again.
    expect(fill(cache, 20)).toHaveLength(20);
  });

  it('puts the bound back when the work throws, and leaves a lower bound as it is', async () => {
    const cache = createBodyCache(50 * KiB);
    await expect(
      cache.atMost(20 * KiB, async () => {
        throw new Error('cancelled');
      }),
    ).rejects.toThrow('cancelled');
    expect(fill(cache, 5)).toHaveLength(5);
    await cache.atMost(500 * KiB, async () => {
      expect(fill(cache, 20)).toHaveLength(5);
    });
  });

  it('runs an import under IMPORT_BODY_CACHE_BYTES and leaves the bound as it was', async () => {
    const bounds: number[] = [];
    const create = cacheModule.createBodyCache;
    const spy = vi.spyOn(cacheModule, 'createBodyCache').mockImplementation((max) => {
      const cache = create(max);
      const atMost = cache.atMost.bind(cache);
      return Object.assign(cache, {
        atMost: <T>(bound: number, work: () => Promise<T>) => {
          bounds.push(bound);
          return atMost(bound, work);
        },
      });
    });
    try {
      const { api } = await memoryBrain();
      const claude = generateClaudeCodeSession();
      const result = await api.importTranscript({
        files: [{ name: claude.main.name, data: claude.main.bytes }],
      });
      expect(result.sessions[0]?.added.toolCalls).toBeGreaterThan(10);
      expect(spy).toHaveBeenCalled();
      expect(bounds).toEqual([IMPORT_BODY_CACHE_BYTES]);
    } finally {
      spy.mockRestore();
    }
  });
});
