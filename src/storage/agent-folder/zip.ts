/**
 * Zip export and import of a project folder (fflate). Export streams each file through DEFLATE (no file is held
 * twice); every folder gets its own entry so empty ones survive. Import checks the whole archive first — every
 * name normalised (an escaping name refuses the archive, `PathEscapes`), sizes within limits — and only then
 * writes. The bytes of each file come back exactly as they went in.
 */
import { Zip, ZipDeflate, ZipPassThrough, unzipSync } from 'fflate';
import { BrainError } from '../../core/errors';
import { normaliseProjectDir, normaliseProjectPath } from '../../core/paths';
import { skippedDirectoryNames, type AgentFolder } from './folder';
import type { ImportFile } from './import';

export interface ZipLimits {
  /** Largest total of uncompressed bytes an archive may declare. */
  readonly maxTotalBytes: number;
  readonly maxEntries: number;
}

export const defaultZipLimits: ZipLimits = { maxTotalBytes: 1024 * 1024 * 1024, maxEntries: 100_000 };

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

/**
 * The files of a zip, checked: names normalised (escapes refused), one entry per path, a file never inside
 * another file's path, sizes within limits. Nothing is written here.
 */
export function filesFromZip(
  bytes: Uint8Array,
  limits: ZipLimits = defaultZipLimits,
): { files: ImportFile[]; directories: string[] } {
  if (!(bytes instanceof Uint8Array))
    throw new BrainError('InvalidArgument', 'A zip archive is given as a Uint8Array.');
  let declared = 0;
  let count = 0;
  let unzipped: Record<string, Uint8Array>;
  try {
    unzipped = unzipSync(bytes, {
      filter(info) {
        count++;
        declared += info.originalSize;
        if (count > limits.maxEntries)
          throw new BrainError('TooLarge', `The archive has more than ${limits.maxEntries} entries.`);
        if (declared > limits.maxTotalBytes) {
          throw new BrainError(
            'TooLarge',
            `The archive unpacks to more than ${(limits.maxTotalBytes / 1024 / 1024).toFixed(0)} MiB; it is not imported.`,
          );
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof BrainError) throw error;
    throw new BrainError(
      'CorruptArchive',
      `This is not a readable zip archive (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const files: ImportFile[] = [];
  const directories: string[] = [];
  for (const [name, data] of Object.entries(unzipped)) {
    if (name.endsWith('/')) {
      const dir = normaliseProjectDir(name);
      if (dir !== '') directories.push(dir);
    } else files.push({ path: normaliseProjectPath(name), data });
  }
  return { files, directories };
}
