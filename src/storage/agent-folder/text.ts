/**
 * Bytes ⇄ text for project files. Decoding is strict (invalid UTF-8 is an `InvalidUtf8` error naming the first
 * bad byte, never a silent U+FFFD) and keeps a byte-order mark as U+FEFF, so encoding the text again gives back
 * the exact bytes.
 */
import { BrainError } from '../../core/errors';

const encoder = new TextEncoder();

export function encodeText(text: string): Uint8Array {
  return encoder.encode(text);
}

export function decodeText(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw new BrainError(
      'InvalidUtf8',
      `"${path}" is not UTF-8 text (byte ${at} of ${bytes.length} is not valid UTF-8). It is left as it is; convert it to UTF-8 to read it here.`,
      { path, offset: at },
    );
  }
}

/** Offset of the first byte that breaks UTF-8, or -1 when every byte is fine. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}
