/**
 * Finding 13: a write over a full quota must say `QuotaExceeded` — never a retryable `Busy`. Chromium sometimes
 * rejects such a write with `AbortError` from the swap file's close; the folder checks the storage estimate.
 * Stubbed here (the real race is ~1 in 10): the close aborts, once with the quota full and once, as the control,
 * with room left — there an abort really is an interruption. The estimate is stubbed too: DevTools' quota override
 * limits writes but not what `navigator.storage.estimate()` reports in this Chromium.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHandleFolder } from '../../src/storage/agent-folder/handle-folder';
import { encodeText } from '../../src/storage/agent-folder/text';

/** The OPFS directory with every writable's close() rejecting with AbortError. */
function abortingClose(root: FileSystemDirectoryHandle): FileSystemDirectoryHandle {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key) {
        const value = Reflect.get(t, key, t) as unknown;
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          const result = (await (value as (...a: unknown[]) => unknown).apply(t, args)) as unknown;
          if (key === 'getDirectoryHandle' || key === 'getFileHandle') return wrap(result as object);
          if (key === 'createWritable') {
            const stream = result as FileSystemWritableFileStream;
            return new Proxy(stream, {
              get(w, k) {
                if (k === 'close') {
                  return async () => {
                    await w.abort();
                    throw new DOMException('The operation was aborted.', 'AbortError');
                  };
                }
                const v = Reflect.get(w, k, w) as unknown;
                return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(w) : v;
              },
            });
          }
          return result;
        };
      },
    });
  return wrap(root);
}

const realEstimate = navigator.storage.estimate.bind(navigator.storage);
afterEach(() => {
  navigator.storage.estimate = realEstimate;
});

describe('a write aborted by the browser', () => {
  it('is QuotaExceeded when the quota is full, and Busy (retry) when there is room', async () => {
    const root = await (
      await navigator.storage.getDirectory()
    ).getDirectoryHandle(`quota-${Date.now()}`, {
      create: true,
    });
    const folder = createHandleFolder(abortingClose(root), { kind: 'handle', name: 'aborting' });
    const bytes = encodeText('x'.repeat(256 * 1024));

    // Control: room left, so the abort is an interruption.
    await expect(folder.write('notes/a.md', bytes)).rejects.toMatchObject({ code: 'Busy' });

    const { usage = 0 } = await realEstimate();
    navigator.storage.estimate = async () => ({ usage, quota: usage + 1024 });
    await expect(folder.write('notes/a.md', bytes)).rejects.toMatchObject({
      code: 'QuotaExceeded',
      message: expect.stringMatching(/storage is full/),
    });
    await expect(folder.append('notes/b.md', bytes)).rejects.toMatchObject({ code: 'QuotaExceeded' });
  });
});
