/**
 * A zip's central directory, read the way fflate's `unzipSync` reads it (end record, zip64 end record, central
 * headers, names decoded as fflate decodes them), so this reader and fflate accept the same zips — and nothing
 * inflated. Every entry comes with the sizes its header declares, so a caller can refuse a zip by what it says
 * before a byte of it is inflated. Read here for the whole-brain archive and for project zips
 * (storage/agent-folder/zip.ts) alike.
 */
import { strFromU8 } from 'fflate';

const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_32 = 0xffffffff;
/** General-purpose flag bit 11: the name is UTF-8 (otherwise CP437, which fflate reads as Latin-1). */
const UTF8_NAME = 0x0800;

/** A zip that cannot be read as one: the message says where (the caller words the refusal). */
export class DamagedZip extends Error {}

/** One central directory header: what the zip says of an entry. */
export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflate; anything else is refused when the entry is read. */
  readonly compression: number;
  /** The uncompressed size the header declares (not yet a fact: a header can lie). */
  readonly declaredSize: number;
  readonly compressedSize: number;
  readonly localOffset: number;
  /** The CRC-32 of the uncompressed bytes, as the header gives it. */
  readonly crc32: number;
}

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

/** How many entries the zip's end record says it holds: checkable before the directory is walked. */
export function zipEntryCount(zip: Uint8Array): number {
  return directoryOf(zip, fieldsOf(zip)).count;
}

/**
 * Every central directory header of `zip`, in order (duplicates included: the caller decides). Reads no entry
 * data. Throws `DamagedZip` when the directory does not hold together.
 */
export function listZipEntries(zip: Uint8Array): ZipEntry[] {
  const f = fieldsOf(zip);
  const directory = directoryOf(zip, f);
  const entries: ZipEntry[] = [];
  let at = directory.offset;
  for (let i = 0; i < directory.count; i++) {
    if (f.u32(at) !== CENTRAL) throw new DamagedZip('a central directory header is missing');
    const nameLength = f.u16(at + 28);
    const extraLength = f.u16(at + 30);
    const nameStart = f.check(at + 46, nameLength);
    const sizes: Sizes = [f.u32(at + 24), f.u32(at + 20), f.u32(at + 42)];
    const [declaredSize, compressedSize, localOffset] = directory.zip64
      ? zip64Fields(f, nameStart + nameLength, extraLength, sizes)
      : sizes;
    entries.push({
      name: strFromU8(zip.subarray(nameStart, nameStart + nameLength), !(f.u16(at + 8) & UTF8_NAME)),
      compression: f.u16(at + 10),
      declaredSize,
      compressedSize,
      localOffset,
      crc32: f.u32(at + 16),
    });
    at += 46 + nameLength + extraLength + f.u16(at + 32);
  }
  return entries;
}

/** The entry's stored (compressed) bytes, as a view into the zip. */
export function storedBytes(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const f = fieldsOf(zip);
  const local = entry.localOffset;
  if (f.u32(local) !== LOCAL) throw new DamagedZip(`the local header of ${entry.name} is missing`);
  const start = local + 30 + f.u16(local + 26) + f.u16(local + 28);
  return zip.subarray(f.check(start, entry.compressedSize), start + entry.compressedSize);
}
