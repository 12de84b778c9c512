import { sha256 as sha256Sync } from '@noble/hashes/sha2.js';
import { BrainError } from '../../core/errors';

/**
 * Up to this size a body is hashed in JavaScript (@noble/hashes), synchronously: WebCrypto's digest is native but
 * asynchronous, and its hop to another thread costs ~0.4 ms a call — about what hashing 16 KiB takes here (~45 MB/s;
 * 40 KB: 0.86 ms in JavaScript, 0.12 ms by WebCrypto in Node). Checkpoint bodies are mostly source files of a few
 * KiB, hashed twice each when a batch of tool calls lands; an import's whole-file bodies are often larger (at
 * 256 KiB, hashing took 11 % of the 500 MB import bench's worker time, 1.5 % at 16 KiB).
 */
const SYNC_HASH_BYTES = 16 * 1024;

/**
 * SHA-256 of the raw bytes is a body's identity (as in git, the hash of the uncompressed content). Small inputs
 * are hashed in JavaScript; large ones by WebCrypto, native in the worker and in Node 20 alike (the same digest).
 */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.byteLength <= SYNC_HASH_BYTES) return sha256Sync(bytes);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new BrainError(
      'Internal',
      'WebCrypto (crypto.subtle) is not available here; checkpoint bodies cannot be hashed.',
    );
  }
  return new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
