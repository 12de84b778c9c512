import { transfer } from 'comlink';

/**
 * Marks `bytes` to be moved, not copied, into the worker by the client call it is passed to: copying 100 MB on
 * the main thread blocks the page for 50–100 ms. Afterwards `bytes` is empty (its buffer is detached), so pass
 * only arrays nobody reads again. This works because the client forwards arguments through Comlink (the stack's
 * fixed RPC); a UI state test checks the buffer really moves, so a change there cannot go unnoticed.
 */
export function moveToWorker<T extends Uint8Array>(bytes: T): T {
  return transfer(bytes, [bytes.buffer]);
}
