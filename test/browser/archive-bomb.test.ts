/**
 * Issue 13, finding 9: an archive whose manifest.json is a deflate bomb froze the Storage view (its preview inflated
 * on the main thread) and took the tab to 2.4 GB. The preview now runs in the worker with the import's bounds: the
 * bomb is refused as TooLarge — whether its sizes are declared truly or lie — and the page never blocks.
 */
import { Deflate, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { openBrain, type Brain } from '../../src/lib/index';

const open: Brain[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

/** 64 MiB of spaces, raw-deflated in 1 MiB pushes (the page never holds the inflated text). */
function deflatedSpaces(mib: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const deflate = new Deflate({ level: 6 }, (chunk) => void chunks.push(chunk));
  const block = new Uint8Array(1024 * 1024).fill(0x20);
  for (let i = 0; i < mib; i++) deflate.push(block, i === mib - 1);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * A zip of one deflated `manifest.json` entry (plus an agent.db placeholder), built by hand so its sizes can lie:
 * `declared` is what the local header and the central directory say the entry inflates to.
 */
function bombZip(data: Uint8Array, declared: number): Uint8Array {
  // Let fflate lay out a valid zip around a stored placeholder of the same compressed length, then swap in the
  // deflate stream and patch method, CRC (unchecked before inflating) and sizes.
  const placeholder = new Uint8Array(data.byteLength);
  const zip = zipSync({ 'manifest.json': [placeholder, { level: 0 }] });
  const view = new DataView(zip.buffer);
  const local = 0;
  const nameLength = view.getUint16(local + 26, true);
  const extraLength = view.getUint16(local + 28, true);
  zip.set(data, local + 30 + nameLength + extraLength);
  const central = zip.length - 22 - 46 - nameLength;
  for (const [header, method, sizes] of [
    [local, 8, 18],
    [central, 10, 20],
  ] as const) {
    view.setUint16(header + method, 8, true);
    view.setUint32(header + sizes, data.byteLength, true);
    view.setUint32(header + sizes + 4, Math.min(declared, 0xffffffff), true);
  }
  return zip;
}

describe('a manifest that is a deflate bomb', () => {
  it('is refused by the preview in the worker, declared truly or not, without blocking the page', async () => {
    const brain = await openBrain({ dbName: `bomb-${Date.now()}.db`, closeOnPageHide: false });
    open.push(brain);
    const data = deflatedSpaces(64);
    // Building the bomb is this page's own long task: let it end (a round trip to the worker) before watching.
    await brain.info();
    const longTasks: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    try {
      const honest = bombZip(data, 64 * 1024 * 1024);
      await expect(brain.previewBrainArchive(honest)).rejects.toMatchObject({ code: 'TooLarge' });
      const lying = bombZip(data, 300);
      await expect(brain.previewBrainArchive(lying)).rejects.toMatchObject({ code: 'TooLarge' });
      await expect(brain.importBrain(lying)).rejects.toMatchObject({
        code: expect.stringMatching(/TooLarge|CorruptArchive/),
      });
    } finally {
      observer.disconnect();
    }
    // The inflating happens in the worker: no task on this page comes near the old 5-second freeze.
    expect(longTasks.filter((d) => d > 1000)).toEqual([]);
    // Control: the preview of a real archive of the same brain still works.
    const real = await brain.exportBrain();
    await expect(brain.previewBrainArchive(real)).resolves.toMatchObject({
      schemaVersion: expect.any(Number),
    });
  });
});
