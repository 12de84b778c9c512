/**
 * Client halves of the size history / progress and database-file methods that need more than a plain call:
 * a listener crossing by reference, bytes crossing by transfer. The README's API reference documents it.
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

/** `watchProgress` on the client: the listener crosses by reference; the returned function stops it. */
export function watchProgressVia(remote: Comlink.Remote<BrainWorker>, track: Track, gone: () => boolean) {
  return async (listener: EngineProgressListener): Promise<() => Promise<void>> => {
    const remoteStop = await track(() => remote.watchProgress(Comlink.proxy(listener)));
    const stop = remoteStop as unknown as Comlink.Remote<() => void>;
    return async () => {
      // Closing or closed: the worker drops every listener with the database.
      if (gone()) return;
      await track(() => stop());
      stop[Comlink.releaseProxy]();
    };
  };
}
