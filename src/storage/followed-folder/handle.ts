/**
 * A followed folder read through its directory handle (a picked folder, or an OPFS folder standing in for one):
 * the transcript files under it with their sizes and modification times, a file as a Blob (read in slices, never
 * whole), and a `FileSystemObserver` where the browser has one. Read only: nothing here writes.
 */
import { BrainError } from '../../core/errors';

export interface FollowedFileInfo {
  /** `/`-separated, relative to the folder. */
  readonly path: string;
  readonly size: number;
  readonly modified: number;
}

export interface FollowedFolderPort {
  readonly name: string;
  /** The transcript-like files (`.jsonl`, `.json`) under the folder, to MAX_DEPTH folders deep. */
  list(): Promise<FollowedFileInfo[]>;
  /** The file now (its size may have grown since `list`). */
  file(path: string): Promise<Blob>;
  /** Calls `onChange` when something under the folder changes; null when the browser cannot observe it. */
  observe(onChange: () => void): Promise<(() => void) | null>;
}

/** The parts of a directory handle this reads (a picked folder's, an OPFS folder's). */
export interface DirectoryLike {
  readonly name: string;
  readonly kind: 'directory';
  entries(): AsyncIterable<[string, DirectoryLike | FileLike]>;
  getDirectoryHandle(name: string): Promise<DirectoryLike>;
  getFileHandle(name: string): Promise<FileLike>;
}

interface FileLike {
  readonly kind: 'file';
  getFile(): Promise<Blob & { readonly lastModified: number }>;
}

const MAX_DEPTH = 6;
const MAX_FILES = 20_000;
/** Folders that never hold transcripts (and can be huge). */
const skipped = new Set(['node_modules', '.git', 'file-history', 'tool-results', 'shell-snapshots']);
const transcriptName = /\.jsonl?$/i;

function denied(name: string, error: unknown): BrainError {
  return new BrainError(
    'PermissionDenied',
    `The folder ${name} cannot be read now (${error instanceof Error ? error.message : String(error)}): allow access to it again, or pick it again.`,
  );
}

interface ObserverRecord {
  readonly type: string;
}
type ObserverConstructor = new (callback: (records: ObserverRecord[]) => void) => {
  observe(handle: unknown, options: { recursive: boolean }): Promise<void>;
  disconnect(): void;
};

export function handleFollowedFolder(handle: FileSystemDirectoryHandle | DirectoryLike): FollowedFolderPort {
  // The DOM's handle types and the structural one this reads are the same objects.
  const root = handle as unknown as DirectoryLike;
  async function walk(dir: DirectoryLike, prefix: string, depth: number, out: FollowedFileInfo[]) {
    for await (const [name, entry] of dir.entries()) {
      if (out.length >= MAX_FILES) return;
      if (entry.kind === 'directory') {
        if (depth < MAX_DEPTH && !skipped.has(name) && !name.startsWith('.'))
          await walk(entry, `${prefix}${name}/`, depth + 1, out);
      } else if (transcriptName.test(name)) {
        const file = await entry.getFile();
        out.push({ path: `${prefix}${name}`, size: file.size, modified: file.lastModified });
      }
    }
  }
  return {
    name: root.name,
    async list() {
      const out: FollowedFileInfo[] = [];
      try {
        await walk(root, '', 0, out);
      } catch (error) {
        if (
          error instanceof DOMException &&
          (error.name === 'NotAllowedError' || error.name === 'SecurityError')
        )
          throw denied(root.name, error);
        // A file removed between the listing and its read: the next look sees the folder as it is then.
        if (error instanceof DOMException && error.name === 'NotFoundError') return out;
        throw error;
      }
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
    async file(path) {
      const parts = path.split('/');
      let dir = root;
      try {
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
        return await (await dir.getFileHandle(parts[parts.length - 1] as string)).getFile();
      } catch (error) {
        if (error instanceof DOMException && error.name === 'NotFoundError')
          throw new BrainError('NotFound', `${path} is no longer in the followed folder ${root.name}.`);
        if (
          error instanceof DOMException &&
          (error.name === 'NotAllowedError' || error.name === 'SecurityError')
        )
          throw denied(root.name, error);
        throw error;
      }
    },
    async observe(onChange) {
      const Observer = (globalThis as { FileSystemObserver?: ObserverConstructor }).FileSystemObserver;
      if (typeof Observer !== 'function') return null;
      try {
        const observer = new Observer(() => onChange());
        await observer.observe(root, { recursive: true });
        return () => observer.disconnect();
      } catch {
        // Not for this kind of folder (or not allowed): the follower polls instead.
        return null;
      }
    },
  };
}
