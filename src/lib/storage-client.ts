/**
 * Client halves of the size history / progress, database-file and archive methods that need more than a plain
 * call: a listener crossing by reference, bytes crossing by transfer. The README's API reference documents it.
 */
import * as Comlink from 'comlink';
import type { BrainWorker, EngineProgressListener } from '../worker/protocol';

type Track = <T>(send: () => Promise<T>) => Promise<T>;

/**
 * Marks `bytes` to be moved into the worker, not copied: cloning 100 MB blocks the page for 50–100 ms. When
 * `bytes` spans its whole ArrayBuffer, that buffer moves and the caller's array is empty afterwards (detached);
 * a view into part of a larger buffer (or into a SharedArrayBuffer) is copied first — only its own bytes — so
 * the caller's buffer stays intact. Anything else passes through for the engine to refuse.
 */
export function transferBytes<T>(bytes: T): T {
  if (!(bytes instanceof Uint8Array)) return bytes;
  const whole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  const own = whole ? bytes : bytes.slice();
  return Comlink.transfer(own, [own.buffer]) as T;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A copy of `bytes` to transfer into the worker, so the caller keeps its own (a preview before the import that
 * needs them). Made 4 MiB at a time with the event loop free in between: cloning a 100 MB array, or one
 * `slice()` of it, was measured to block the page for ~65 ms. Anything else passes through for the engine to refuse.
 */
export async function transferCopy<T>(bytes: T, pieceBytes = 4 * 1024 * 1024): Promise<T> {
  if (!(bytes instanceof Uint8Array)) return bytes;
  const copy = new Uint8Array(bytes.byteLength);
  for (let at = 0; at < bytes.byteLength; at += pieceBytes) {
    copy.set(bytes.subarray(at, at + pieceBytes), at);
    if (at + pieceBytes < bytes.byteLength) await yieldToEventLoop();
  }
  return Comlink.transfer(copy, [copy.buffer]) as T;
}

/** `watchProgress` on the client: the listener crosses by reference; the returned function stops it. */
export function watchProgressVia(remote: Comlink.Remote<BrainWorker>, track: Track, gone: () => boolean) {
  return async (listener: EngineProgressListener): Promise<() => Promise<void>> => {
    const remoteStop = await track(() => remote.watchProgress(Comlink.proxy(listener)));
    // The worker returns its stop function as a Comlink proxy: here it is a Remote, whose call is async.
    const stop = remoteStop as unknown as Comlink.Remote<() => void>;
    return async () => {
      // Closing or closed: the worker drops every listener with the database.
      if (gone()) return;
      await track(() => stop());
      stop[Comlink.releaseProxy]();
    };
  };
}
