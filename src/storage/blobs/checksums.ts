/**
 * Cheap checksums over bytes: CRC-32 guards every stored stream (it detects every single-byte change and every
 * burst up to 32 bits), Adler-32 is zlib's own trailer (fflate does not check it, so we do).
 */
const crcTable = (() => {
  const table = new Int32Array(256 * 4);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  // Slicing-by-4 tables: four bytes per step.
  for (let n = 0; n < 256; n++) {
    let c = table[n] as number;
    for (let t = 1; t < 4; t++) {
      c = (table[c & 0xff] as number) ^ (c >>> 8);
      table[t * 256 + n] = c;
    }
  }
  return table;
})();

/** CRC-32 (the zip/PNG polynomial) as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array): number {
  const t = crcTable;
  let c = -1;
  let i = 0;
  const n4 = bytes.length & ~3;
  for (; i < n4; i += 4) {
    c ^=
      (bytes[i] as number) |
      ((bytes[i + 1] as number) << 8) |
      ((bytes[i + 2] as number) << 16) |
      ((bytes[i + 3] as number) << 24);
    c =
      (t[768 + (c & 0xff)] as number) ^
      (t[512 + ((c >>> 8) & 0xff)] as number) ^
      (t[256 + ((c >>> 16) & 0xff)] as number) ^
      (t[c >>> 24] as number);
  }
  for (; i < bytes.length; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

/** Adler-32 as zlib computes it, unsigned. */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    // 5552 is the largest run whose sums cannot overflow before the modulo (zlib's NMAX).
    const end = Math.min(i + 5552, n);
    for (; i < end; i++) {
      a += bytes[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}
