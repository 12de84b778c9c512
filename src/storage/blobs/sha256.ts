import { BrainError } from '../../core/errors';

/**
 * SHA-256 of the raw bytes is a body's identity (as in git, the hash of the uncompressed content).
 * WebCrypto runs it natively in the worker and in Node 20 alike.
 */
export async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
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
