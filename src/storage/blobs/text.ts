/**
 * Text ↔ bytes without loss. A string body is stored as its UTF-8 bytes and comes back as the same string; a
 * string that UTF-8 cannot carry (a lone surrogate) is refused rather than silently altered.
 */
import { BrainError } from '../../core/errors';

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF is content and must survive the round trip.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `text` has no lone surrogate: natively where the engine has `isWellFormed` (ES2024, so not in the ES2023
 * lib this project compiles against), ~6× faster.
 */
function isWellFormed(text: string): boolean {
  const native = (text as unknown as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof native === 'function' ? native.call(text) : !LONE_SURROGATE.test(text);
}

export function textToBytes(text: string, what: string): Uint8Array {
  if (!isWellFormed(text)) {
    throw new BrainError(
      'InvalidArgument',
      `${what} contains a lone UTF-16 surrogate, which UTF-8 cannot store unchanged; pass the file's bytes as a Uint8Array instead.`,
    );
  }
  return encoder.encode(text);
}

/** The text of UTF-8 bytes, or null when they are not valid UTF-8. */
export function bytesToText(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Git's rule of thumb: a NUL byte in the first 8000 bytes makes a file binary; so does invalid UTF-8. */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8000);
  if (head.includes(0)) return true;
  return bytesToText(bytes) === null;
}
