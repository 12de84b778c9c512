/**
 * Zip export and import of a project folder (fflate). Export streams each file through DEFLATE (no file is held
 * twice); every folder gets its own entry so empty ones survive. Import checks the whole archive first — every
 * name normalised (an escaping name refuses the archive, `PathEscapes`), sizes within limits — and only then
 * writes. It reads the zip through the archive's bounded reader (storage/archive: the directory first, then each
 * entry inflated alone and stopped at its declared size), never by inflating the whole zip at once. The bytes of
 * each file come back exactly as they went in.
 */
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { BrainError } from '../../core/errors';
import { splitSkipped, type SkippedFolder } from '../../core/formats/skipped-folders';
import { normaliseProjectDir, normaliseProjectPath } from '../../core/paths';
import { DamagedZip, listZipEntries, zipEntryCount, type ZipEntry } from '../archive/zip-directory';
import { readEntryBytes } from '../archive/zip-entry';
import { crc32 } from '../blobs/checksums';
import { skippedDirectoryNames, type AgentFolder } from './folder';
import type { ImportFile } from './import';

export interface ZipLimits {
  /** Largest total of uncompressed bytes an archive may declare. */
  readonly maxTotalBytes: number;
  readonly maxEntries: number;
  /** Largest uncompressed size one entry may declare (default: the whole `maxTotalBytes`). */
  readonly maxFileBytes?: number;
}

export const defaultZipLimits: ZipLimits = { maxTotalBytes: 1024 * 1024 * 1024, maxEntries: 100_000 };

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const zipTime = (ms: number) =>
  new Date(Math.min(Math.max(ms, Date.UTC(1980, 0, 2)), Date.UTC(2099, 11, 30)));

/** The folder as a zip (`.git` and `node_modules` left out unless `skip` says otherwise). */
export async function exportFolderZip(
  folder: AgentFolder,
  options: {
    readonly skip?: ReadonlySet<string>;
    readonly level?: 0 | 1 | 6 | 9;
    readonly onProgress?: (done: number, total: number) => void;
  } = {},
): Promise<Uint8Array> {
  const skip = options.skip ?? skippedDirectoryNames;
  const entries = await folder.list('', { recursive: true, skip });
  const kept = entries.filter((e) => !e.path.split('/').some((segment) => skip.has(segment)));
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const finished = new Promise<void>((resolve) => {
    const zip = new Zip((error, chunk, final) => {
      if (error) failure = error;
      else chunks.push(chunk);
      if (final || error) resolve();
    });
    void (async () => {
      try {
        let done = 0;
        for (const entry of kept) {
          if (entry.kind === 'directory') {
            const dir = new ZipPassThrough(`${entry.path}/`);
            zip.add(dir);
            dir.push(new Uint8Array(0), true);
          } else {
            const { stream, info } = await folder.stream(entry.path);
            const file = new ZipDeflate(entry.path, { level: options.level ?? 6 });
            file.mtime = zipTime(info.lastModified);
            zip.add(file);
            const reader = stream.getReader();
            for (;;) {
              const { value, done: end } = await reader.read();
              if (end) break;
              file.push(value);
            }
            file.push(new Uint8Array(0), true);
          }
          options.onProgress?.(++done, kept.length);
        }
        zip.end();
      } catch (error) {
        zip.terminate();
        failure = error instanceof Error ? error : new Error(String(error));
        resolve();
      }
    })();
  });
  await finished;
  if (failure) {
    const error = failure as Error;
    throw error instanceof BrainError
      ? error
      : new BrainError('Internal', `The zip could not be written: ${error.message}`);
  }
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The zip's entries, refused by what its directory says (count, names, declared sizes) before any inflating. */
function checkedEntries(bytes: Uint8Array, limits: ZipLimits): ZipEntry[] {
  if (zipEntryCount(bytes) > limits.maxEntries)
    throw new BrainError('TooLarge', `The archive has more than ${limits.maxEntries} entries.`);
  const entries = listZipEntries(bytes);
  const names = new Set<string>();
  const maxFileBytes = limits.maxFileBytes ?? limits.maxTotalBytes;
  let declared = 0;
  for (const entry of entries) {
    if (names.has(entry.name)) throw new DamagedZip(`it holds ${entry.name} twice`);
    names.add(entry.name);
    if (entry.declaredSize > maxFileBytes) {
      throw new BrainError(
        'TooLarge',
        `The archive's ${entry.name} unpacks to ${entry.declaredSize} bytes, more than the ${mib(maxFileBytes)} MiB one file may hold; it is not imported.`,
      );
    }
    declared += entry.declaredSize;
    if (declared > limits.maxTotalBytes) {
      throw new BrainError(
        'TooLarge',
        `The archive unpacks to more than ${mib(limits.maxTotalBytes)} MiB; it is not imported.`,
      );
    }
  }
  return entries;
}

/** The entry's bytes, held to its CRC-32: a project zip has no other hash, so a damaged file is not taken. */
function checkedBytes(zip: Uint8Array, entry: ZipEntry): Uint8Array {
  const data = readEntryBytes(zip, entry);
  if (crc32(data) !== entry.crc32) throw new DamagedZip(`${entry.name} does not match its CRC-32`);
  return data;
}

/**
 * The files of a zip, checked: names normalised (escapes refused), one entry per path, a file never inside
 * another file's path, sizes within limits — the count, every name and every declared size from the zip's
 * directory before anything is inflated. Then each entry is inflated alone into a buffer of its declared size,
 * stopping where it would pass it, and held to its CRC-32; so a bomb costs at most the declared total (within
 * `maxTotalBytes`). Entries under `.git/` or `node_modules/` (anywhere) are left out, as a folder import leaves
 * them out, and listed in `skipped`; they are never inflated. Nothing is written here.
 */
export function filesFromZip(
  bytes: Uint8Array,
  limits: ZipLimits = defaultZipLimits,
): { files: ImportFile[]; directories: string[]; skipped: SkippedFolder[] } {
  if (!(bytes instanceof Uint8Array))
    throw new BrainError('InvalidArgument', 'A zip archive is given as a Uint8Array.');
  try {
    const all = checkedEntries(bytes, limits);
    // Names are normalised first: an escaping name refuses the archive even inside a skipped folder.
    const named = all.map((entry) => ({
      entry,
      path: entry.name.endsWith('/') ? normaliseProjectDir(entry.name) : normaliseProjectPath(entry.name),
    }));
    const isDir = (n: { entry: ZipEntry }) => n.entry.name.endsWith('/');
    const { kept, skipped } = splitSkipped(
      named,
      (n) => n.path,
      (n) => !isDir(n),
    );
    const files = kept.filter((n) => !isDir(n));
    const dirs = kept.filter((n) => isDir(n) && n.path !== '').map((n) => n.path);
    return {
      files: files.map((n) => ({ path: n.path, data: checkedBytes(bytes, n.entry) })),
      directories: dirs,
      skipped,
    };
  } catch (error) {
    if (!(error instanceof DamagedZip)) throw error;
    throw new BrainError('CorruptArchive', `This is not a readable zip archive (${error.message}).`);
  }
}
