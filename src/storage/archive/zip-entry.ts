/**
 * Reads one entry of a zip, and nothing else of it, with a bound on what it inflates: the central directory is
 * read the way fflate's `unzipSync` reads it (end record, zip64 end record, central headers), so both accept the
 * same zips; the entry's deflate data is then inflated a small slice at a time and refused as soon as the output
 * passes the bound. A deflate bomb therefore costs at most the bound plus one slice's output (deflate inflates at
 * most ~1032 : 1), whatever its header declares.
 */
import { Inflate } from 'fflate';

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_32 = 0xffffffff;
/** Input per inflate step: its output is at most ~1 MiB, however the data was made. */
const INFLATE_SLICE_BYTES = 1024;

/** What the zip says of one entry, and its stored (compressed) bytes as a view into the zip. */
interface ZipEntry {
  readonly compression: number;
  readonly originalSize: number;
  readonly data: Uint8Array;
}

/** The entry's bytes; `absent` when the zip has no such entry, `too-large` past `maxBytes` (declared or not). */
export type ZipEntryRead =
  | { readonly kind: 'read'; readonly bytes: Uint8Array }
  | { readonly kind: 'absent' }
  | { readonly kind: 'too-large'; readonly declared: number | null };

/** A zip that cannot be read as one: the message says where (the caller words the refusal). */
export class DamagedZip extends Error {}

function fieldsOf(zip: Uint8Array) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const check = (offset: number, length: number) => {
    if (offset < 0 || offset + length > zip.byteLength) throw new DamagedZip('a header points past its end');
    return offset;
  };
  const u16 = (offset: number) => view.getUint16(check(offset, 2), true);
  const u32 = (offset: number) => view.getUint32(check(offset, 4), true);
  const u64 = (offset: number) => u32(offset + 4) * 2 ** 32 + u32(offset);
  return { u16, u32, u64, check };
}

type Fields = ReturnType<typeof fieldsOf>;

/** Where the central directory starts and how many headers it holds. */
function directoryOf(zip: Uint8Array, f: Fields): { count: number; offset: number; zip64: boolean } {
  let end = zip.byteLength - 22;
  while (end >= 0 && f.u32(end) !== END) {
    // The end record is followed by a comment of at most 65535 bytes.
    if (zip.byteLength - end > 65_557) end = -1;
    else end--;
  }
  if (end < 0) throw new DamagedZip('no end of central directory');
  if (end >= 20 && f.u32(end - 20) === ZIP64_LOCATOR) {
    const end64 = f.u64(end - 12);
    if (f.u32(end64) === ZIP64_END)
      return { count: f.u64(end64 + 32), offset: f.u64(end64 + 48), zip64: true };
  }
  return { count: f.u16(end + 8), offset: f.u32(end + 16), zip64: false };
}

type Sizes = readonly [originalSize: number, compressedSize: number, localOffset: number];

/** The zip64 extra field's sizes and offset, for the fields the header left at 0xFFFFFFFF. */
function zip64Fields(f: Fields, extra: number, extraLength: number, sizes: Sizes): Sizes {
  for (let at = extra; at + 4 <= extra + extraLength; at += 4 + f.u16(at + 2)) {
    if (f.u16(at) !== 1) continue;
    let next = at + 4;
    const wide = (value: number) => {
      if (value !== MAX_32) return value;
      next += 8;
      return f.u64(next - 8);
    };
    return [wide(sizes[0]), wide(sizes[1]), wide(sizes[2])];
  }
  return sizes;
}

function findEntry(zip: Uint8Array, name: string): ZipEntry | null {
  const f = fieldsOf(zip);
  const wanted = new TextEncoder().encode(name);
  const directory = directoryOf(zip, f);
  let found: ZipEntry | null = null;
  let at = directory.offset;
  for (let i = 0; i < directory.count; i++) {
    if (f.u32(at) !== CENTRAL) throw new DamagedZip('a central directory header is missing');
    const nameLength = f.u16(at + 28);
    const extraLength = f.u16(at + 30);
    const nameStart = f.check(at + 46, nameLength);
    const next = at + 46 + nameLength + extraLength + f.u16(at + 32);
    const sameName =
      nameLength === wanted.length && wanted.every((byte, index) => zip[nameStart + index] === byte);
    if (sameName) {
      if (found) throw new DamagedZip(`it holds ${name} twice`);
      const sizes: Sizes = [f.u32(at + 24), f.u32(at + 20), f.u32(at + 42)];
      const [originalSize, compressedSize, local] = directory.zip64
        ? zip64Fields(f, nameStart + nameLength, extraLength, sizes)
        : sizes;
      if (f.u32(local) !== LOCAL) throw new DamagedZip(`the local header of ${name} is missing`);
      const dataStart = local + 30 + f.u16(local + 26) + f.u16(local + 28);
      found = {
        compression: f.u16(at + 10),
        originalSize,
        data: zip.subarray(f.check(dataStart, compressedSize), dataStart + compressedSize),
      };
    }
    at = next;
  }
  return found;
}

/**
 * Inflates raw deflate `data` into a buffer of the `declared` size, counting (not keeping) anything past it; stops
 * as soon as the count passes `maxBytes` (null). Returns the bytes and how many the data actually held.
 */
function inflateBounded(
  data: Uint8Array,
  declared: number,
  maxBytes: number,
): { readonly bytes: Uint8Array; readonly actual: number } | null {
  const bytes = new Uint8Array(declared);
  let actual = 0;
  const inflater = new Inflate((chunk) => {
    if (actual + chunk.byteLength <= declared) bytes.set(chunk, actual);
    actual += chunk.byteLength;
  });
  try {
    for (let at = 0; at < data.byteLength || at === 0; at += INFLATE_SLICE_BYTES) {
      const end = Math.min(data.byteLength, at + INFLATE_SLICE_BYTES);
      inflater.push(data.subarray(at, end), end === data.byteLength);
      if (actual > maxBytes) return null;
    }
  } catch (error) {
    throw new DamagedZip(
      `its deflate data is damaged (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  return { bytes, actual };
}

/**
 * Reads the entry `name` of `zip` — at most `maxBytes` of it, declared and actual — and no other entry's data.
 * Throws `DamagedZip` when the zip's structure, the entry's compression or its size does not hold together.
 */
export function readZipEntry(zip: Uint8Array, name: string, maxBytes: number): ZipEntryRead {
  const entry = findEntry(zip, name);
  if (!entry) return { kind: 'absent' };
  const declared = entry.originalSize;
  if (declared > maxBytes) return { kind: 'too-large', declared };
  let read: { readonly bytes: Uint8Array; readonly actual: number } | null;
  if (entry.compression === 0) {
    read =
      entry.data.byteLength > maxBytes ? null : { bytes: entry.data.slice(), actual: entry.data.byteLength };
  } else if (entry.compression === 8) {
    read = inflateBounded(entry.data, declared, maxBytes);
  } else {
    throw new DamagedZip(`${name} uses the unknown compression method ${entry.compression}`);
  }
  if (!read) return { kind: 'too-large', declared: null };
  if (read.actual !== declared)
    throw new DamagedZip(`${name} holds ${read.actual} bytes, its header says ${declared}`);
  return { kind: 'read', bytes: read.bytes };
}
