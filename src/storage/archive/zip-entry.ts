/**
 * Reads zip entries with bounds on what they inflate.
 *
 * `readEntryBytes` (every entry of an archive or project zip): the deflate data is decoded straight into the
 * entry's buffer (inflate-raw.ts), which stops the moment the output would pass the entry's declared size (a
 * lying header) — nothing past it is ever written. With a head check, the output goes first into a buffer of the
 * head's size; only once those bytes have passed is the buffer of the declared size allocated, so an entry refused
 * by its first bytes costs that small buffer, whatever it declares.
 *
 * `readZipEntry` (the manifest, by name): as it always was — fflate's streaming inflater a small slice at a time,
 * refused as soon as the output passes the bound (a bomb costs at most the bound plus one slice's output, ~1 MiB).
 */
import { Inflate } from 'fflate';
import { InflateError, inflateRaw } from './inflate-raw';
import { DamagedZip, listZipEntries, storedBytes, type ZipEntry } from './zip-directory';

export { DamagedZip } from './zip-directory';

/** Input per inflate step of the manifest reader: its output is at most ~1 MiB, however the data was made. */
const INFLATE_SLICE_BYTES = 1024;

export interface HeadCheck {
  readonly bytes: number;
  /** Sees the entry's first `bytes` (all of it when shorter) before more is kept; throws to refuse the entry. */
  readonly check: (head: Uint8Array) => void;
}

const damagedDeflate = (error: unknown) =>
  new DamagedZip(`its deflate data is damaged (${error instanceof Error ? error.message : String(error)})`);

const sizeMismatch = (name: string, actual: string | number, declared: number) =>
  new DamagedZip(`${name} holds ${actual} bytes, its header says ${declared}`);

/**
 * Decodes a deflated entry into its declared size; `null` when the data holds more. With a head check, the output
 * first goes into buffers just large enough for it (the head's size, then what each write needs); once they hold
 * the head, it is checked, and only then is the buffer of the declared size allocated.
 */
function inflateEntry(data: Uint8Array, declared: number, head: HeadCheck | undefined): Uint8Array | null {
  let checked = !head;
  const grow = (written: Uint8Array, required: number) => {
    if (required > declared) return null; // past the declared size
    if (!checked && written.byteLength >= head!.bytes) {
      checked = true;
      head!.check(written.subarray(0, head!.bytes));
    }
    const buffer = new Uint8Array(checked ? declared : required);
    buffer.set(written);
    return buffer;
  };
  let inflated;
  try {
    inflated = inflateRaw(data, new Uint8Array(head ? Math.min(head.bytes, declared) : declared), grow);
  } catch (error) {
    if (error instanceof InflateError) throw damagedDeflate(error);
    throw error;
  }
  if (!inflated.complete) return null;
  const bytes = inflated.out.subarray(0, inflated.length);
  if (!checked) head!.check(bytes.subarray(0, head!.bytes));
  return bytes;
}

/**
 * The bytes of `entry`: exactly its declared size, or `DamagedZip` (a header that lies, damaged deflate data, an
 * unknown compression). Inflation stops where the output would pass the declared size; `head.check` sees the
 * first bytes before the entry's buffer is allocated, and its error is thrown as it is.
 */
export function readEntryBytes(zip: Uint8Array, entry: ZipEntry, head?: HeadCheck): Uint8Array {
  const data = storedBytes(zip, entry);
  const declared = entry.declaredSize;
  if (entry.compression === 0) {
    if (data.byteLength !== declared) throw sizeMismatch(entry.name, data.byteLength, declared);
    head?.check(data.subarray(0, head.bytes));
    return data.slice();
  }
  if (entry.compression !== 8)
    throw new DamagedZip(`${entry.name} uses the unknown compression method ${entry.compression}`);
  const bytes = inflateEntry(data, declared, head);
  if (!bytes) throw sizeMismatch(entry.name, `more than ${declared}`, declared);
  if (bytes.byteLength !== declared) throw sizeMismatch(entry.name, bytes.byteLength, declared);
  return bytes;
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
    throw damagedDeflate(error);
  }
  return { bytes, actual };
}

/** The entry's bytes; `absent` when the zip has no such entry, `too-large` past `maxBytes` (declared or not). */
export type ZipEntryRead =
  | { readonly kind: 'read'; readonly bytes: Uint8Array }
  | { readonly kind: 'absent' }
  | { readonly kind: 'too-large'; readonly declared: number | null };

/**
 * Reads the entry `name` of `zip` — at most `maxBytes` of it, declared and actual — and no other entry's data.
 * Throws `DamagedZip` when the zip's structure, the entry's compression or its size does not hold together.
 */
export function readZipEntry(zip: Uint8Array, name: string, maxBytes: number): ZipEntryRead {
  let entry: ZipEntry | null = null;
  for (const listed of listZipEntries(zip)) {
    if (listed.name !== name) continue;
    if (entry) throw new DamagedZip(`it holds ${name} twice`);
    entry = listed;
  }
  if (!entry) return { kind: 'absent' };
  const declared = entry.declaredSize;
  if (declared > maxBytes) return { kind: 'too-large', declared };
  const data = storedBytes(zip, entry);
  let read: { readonly bytes: Uint8Array; readonly actual: number } | null;
  if (entry.compression === 0) {
    read = data.byteLength > maxBytes ? null : { bytes: data.slice(), actual: data.byteLength };
  } else if (entry.compression === 8) {
    read = inflateBounded(data, declared, maxBytes);
  } else {
    throw new DamagedZip(`${name} uses the unknown compression method ${entry.compression}`);
  }
  if (!read) return { kind: 'too-large', declared: null };
  if (read.actual !== declared) throw sizeMismatch(name, read.actual, declared);
  return { kind: 'read', bytes: read.bytes };
}
