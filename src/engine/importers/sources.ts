/**
 * What a pick or a drop holds, sorted into what to import: transcripts by format (detected from each file's name
 * and first 64 KiB, src/core/importers/registry.ts), folder formats grouped by their folder, Claude Code's
 * `file-history/<session>/<hash>@vN` backups set aside as bodies, and the files no format claims.
 */
import type { TranscriptFileInput } from '../../core/api/importers';
import { BrainError } from '../../core/errors';
import {
  detectFormat,
  knownFormatLabels,
  type DocumentFormat,
  type FolderFormat,
  type LineFormat,
} from '../../core/importers/registry';
import { headText, isBytes, sizeOf, type Bytes } from './bytes';

export interface SourceFile {
  readonly name: string;
  readonly data: Bytes;
}

export type ImportUnit =
  | { readonly format: LineFormat | DocumentFormat; readonly file: SourceFile }
  | { readonly format: FolderFormat; readonly folder: string; readonly files: readonly SourceFile[] };

export interface SortedSources {
  readonly units: readonly ImportUnit[];
  /** Backups by `<session>/<hash>@vN` (the path under `file-history/`). */
  readonly backups: ReadonlyMap<string, Bytes>;
  readonly ignored: readonly string[];
  readonly bytesTotal: number;
}

const MAX_FILES = 100_000;
const backupPath = /(?:^|\/)file-history\/([^/]+\/[^/]+@v\d+)$/;

const cleanName = (name: string) => name.replace(/\\/g, '/').replace(/^\/+/, '');
const folderOf = (name: string) => (name.includes('/') ? name.slice(0, name.lastIndexOf('/')) : '');
// An OpenHands V1 conversation keeps its events in `events/`: the conversation is the folder above.
const conversationOf = (name: string) => folderOf(name).replace(/(?:^|\/)events$/, '');

export function parseFiles(input: unknown): SourceFile[] {
  const files = (input as { files?: unknown } | null)?.files;
  if (!Array.isArray(files))
    throw new BrainError('InvalidArgument', 'importTranscript takes { files: [{ name, data }] }.');
  if (files.length > MAX_FILES)
    throw new BrainError(
      'TooLarge',
      `importTranscript takes at most ${MAX_FILES} files; got ${files.length}.`,
    );
  return files.map((f: TranscriptFileInput, i) => {
    if (typeof f?.name !== 'string' || f.name.trim() === '')
      throw new BrainError('InvalidArgument', `files[${i}].name must be the file's path.`);
    if (!isBytes(f.data))
      throw new BrainError('InvalidArgument', `files[${i}].data must be a Uint8Array, a Blob or a File.`);
    return { name: cleanName(f.name), data: f.data };
  });
}

/** Subagent files after their session's own file, so their threads find the session's main task. */
const order = (name: string) => (/\/subagents\//.test(name) ? 1 : 0);

export async function sortSources(files: readonly SourceFile[]): Promise<SortedSources> {
  const backups = new Map<string, Bytes>();
  const singles: ImportUnit[] = [];
  const folders = new Map<string, { format: FolderFormat; files: SourceFile[] }>();
  const ignored: string[] = [];
  for (const file of files) {
    const backup = backupPath.exec(file.name);
    if (backup) {
      backups.set(backup[1] as string, file.data);
      continue;
    }
    const format = sizeOf(file.data) === 0 ? null : detectFormat(file.name, await headText(file.data));
    if (format === null) ignored.push(file.name);
    else if (format.shape === 'folder') {
      const folder = format.id === 'openhands' ? conversationOf(file.name) : folderOf(file.name);
      const key = `${format.id}\u0000${folder}`;
      const group = folders.get(key) ?? { format, files: [] };
      group.files.push(file);
      folders.set(key, group);
    } else singles.push({ format, file });
  }
  singles.sort((a, b) => ('file' in a && 'file' in b ? order(a.file.name) - order(b.file.name) : 0));
  const units: ImportUnit[] = [
    ...singles,
    ...[...folders.entries()].map(([key, g]) => ({
      format: g.format,
      folder: key.slice(key.indexOf('\u0000') + 1),
      files: g.files,
    })),
  ];
  if (units.length === 0) throw unknownFormat(ignored);
  const bytesTotal = units.reduce(
    (n, u) => n + ('file' in u ? sizeOf(u.file.data) : u.files.reduce((m, f) => m + sizeOf(f.data), 0)),
    0,
  );
  return { units, backups, ignored, bytesTotal };
}

function unknownFormat(names: readonly string[]): BrainError {
  const shown =
    names.length === 0
      ? 'No file was given'
      : `${names.slice(0, 3).join(', ')}${names.length > 3 ? ` and ${names.length - 3} more` : ''} ${names.length === 1 ? 'is' : 'are'} not a transcript this app knows`;
  return new BrainError('UnknownFormat', `${shown}. Known formats: ${knownFormatLabels.join('; ')}.`, {
    files: names.slice(0, 100),
    formats: [...knownFormatLabels],
  });
}
