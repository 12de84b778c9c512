/**
 * The folder over a `FileSystemDirectoryHandle` — the same code for a picked folder and an OPFS folder, since
 * both are that interface. Writes go through `createWritable()`, which writes to a swap file and replaces the
 * target only on `close()`: a crash or an error mid-write leaves the old file whole. The expected version is
 * checked before writing and again just before the swap, so a change made meanwhile aborts the write.
 */
import { BrainError } from '../../core/errors';
import {
  baseName,
  normaliseProjectDir,
  normaliseProjectPath,
  parentDir,
  pathSegments,
  type ProjectPath,
} from '../../core/paths';
import { translateFsError, translateWriteFailure } from './errors';
import {
  defaultFolderLimits,
  type AgentFolder,
  type FileInfo,
  type FileVersion,
  type FolderEntry,
  type FolderKind,
  type FolderLimits,
} from './folder';
import { contentHash, parseVersion, versionToken } from './versions';

/** Permission methods Chromium has on handles (not yet in TypeScript's DOM types). */
interface PermissionHandle {
  queryPermission?(descriptor: { mode: 'read' | 'readwrite' }): Promise<PermissionState>;
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

export function createHandleFolder(
  root: FileSystemDirectoryHandle,
  meta: { readonly kind: FolderKind; readonly name?: string },
  limits: Partial<FolderLimits> = {},
): AgentFolder {
  const folderLimits: FolderLimits = { ...defaultFolderLimits, ...limits };

  async function dirAt(path: ProjectPath, create: boolean): Promise<FileSystemDirectoryHandle> {
    let dir = root;
    let walked = '';
    for (const segment of pathSegments(path)) {
      walked = walked === '' ? segment : `${walked}/${segment}`;
      try {
        dir = await dir.getDirectoryHandle(segment, { create });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'TypeMismatchError') {
          throw new BrainError(
            'NotADirectory',
            `"${walked}" is a file, but a folder is expected there (for "${path}").`,
            { path: walked },
          );
        }
        throw translateFsError(error, walked, 'opening the folder');
      }
    }
    return dir;
  }

  /** The file's handle, or null when it (or a parent folder) does not exist. */
  async function fileHandle(path: ProjectPath): Promise<FileSystemFileHandle | null> {
    let dir: FileSystemDirectoryHandle;
    try {
      dir = await dirAt(parentDir(path), false);
    } catch (error) {
      if (error instanceof BrainError && error.code === 'NotFound') return null;
      throw error;
    }
    try {
      return await dir.getFileHandle(baseName(path));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'NotFoundError') return null;
      if (error instanceof DOMException && error.name === 'TypeMismatchError') {
        throw new BrainError('NotADirectory', `"${path}" is a folder, but a file is expected there.`, {
          path,
        });
      }
      throw translateFsError(error, path, 'opening the file');
    }
  }

  async function fileAt(path: ProjectPath): Promise<File | null> {
    const handle = await fileHandle(path);
    if (!handle) return null;
    try {
      return await handle.getFile();
    } catch (error) {
      throw translateFsError(error, path, 'reading');
    }
  }

  const infoOf = (path: ProjectPath, file: File): FileInfo => ({
    path,
    size: file.size,
    lastModified: file.lastModified,
  });

  async function versionOf(file: File, bytes?: Uint8Array): Promise<FileVersion> {
    if (file.size > folderLimits.maxHashBytes) return versionToken(file.size, file.lastModified, null);
    return versionToken(file.size, file.lastModified, await contentHash(bytes ?? (await bytesOf(file))));
  }

  /** Throws `Conflict` unless the file is as `expected` says; `undefined` accepts anything. */
  async function checkExpected(
    path: ProjectPath,
    file: File | null,
    expected: FileVersion | null | undefined,
  ): Promise<void> {
    if (expected === undefined) return;
    if (expected === null) {
      if (file)
        throw new BrainError('Conflict', `"${path}" already exists; read it first and save again.`, { path });
      return;
    }
    const want = parseVersion(expected);
    if (!want)
      throw new BrainError(
        'InvalidArgument',
        `"${String(expected)}" is not a file version from this folder.`,
      );
    if (!file)
      throw new BrainError('Conflict', `"${path}" was deleted since it was read; nothing was written.`, {
        path,
      });
    const changed =
      file.size !== want.size ||
      file.lastModified !== want.lastModified ||
      (want.hash !== null &&
        file.size <= folderLimits.maxHashBytes &&
        (await contentHash(await bytesOf(file))) !== want.hash);
    if (changed) {
      throw new BrainError(
        'Conflict',
        `"${path}" changed since it was read (now ${file.size} bytes, modified ${new Date(file.lastModified).toISOString()}); nothing was written. Reload it, then save again.`,
        { path, size: file.size, lastModified: file.lastModified },
      );
    }
  }

  async function writable(handle: FileSystemFileHandle, path: ProjectPath, keepExistingData: boolean) {
    try {
      return await handle.createWritable({ keepExistingData });
    } catch (error) {
      throw translateFsError(error, path, 'opening for writing');
    }
  }

  const folder: AgentFolder = {
    kind: meta.kind,
    name: meta.name ?? root.name,
    limits: folderLimits,

    async permission() {
      const query = (root as PermissionHandle).queryPermission;
      if (typeof query !== 'function') return 'granted';
      return query.call(root, { mode: 'readwrite' });
    },

    async kindOf(input) {
      const path = normaliseProjectDir(input);
      if (path === '') return 'directory';
      let dir: FileSystemDirectoryHandle;
      try {
        dir = await dirAt(parentDir(path), false);
      } catch (error) {
        if (error instanceof BrainError && (error.code === 'NotFound' || error.code === 'NotADirectory'))
          return null;
        throw error;
      }
      for (const probe of ['file', 'directory'] as const) {
        try {
          if (probe === 'file') await dir.getFileHandle(baseName(path));
          else await dir.getDirectoryHandle(baseName(path));
          return probe;
        } catch (error) {
          if (
            !(error instanceof DOMException) ||
            (error.name !== 'TypeMismatchError' && error.name !== 'NotFoundError')
          ) {
            throw translateFsError(error, path, 'looking up');
          }
        }
      }
      return null;
    },

    async stat(input) {
      const path = normaliseProjectPath(input);
      const file = await fileAt(path);
      return file ? infoOf(path, file) : null;
    },

    async read(input, options = {}) {
      const path = normaliseProjectPath(input);
      const file = await fileAt(path);
      if (!file) throw new BrainError('NotFound', `"${path}" does not exist.`, { path });
      const max = options.maxBytes ?? folderLimits.maxReadBytes;
      if (file.size > max) {
        throw new BrainError(
          'TooLarge',
          `"${path}" is ${mib(file.size)}, more than the ${mib(max)} read at once; it is not loaded whole (read its tail, or stream it).`,
          { path, size: file.size, maxBytes: max },
        );
      }
      let bytes: Uint8Array;
      try {
        bytes = await bytesOf(file);
      } catch (error) {
        throw translateFsError(error, path, 'reading');
      }
      return { ...infoOf(path, file), bytes, version: await versionOf(file, bytes) };
    },

    async readRange(input, start, end) {
      const path = normaliseProjectPath(input);
      const file = await fileAt(path);
      if (!file) throw new BrainError('NotFound', `"${path}" does not exist.`, { path });
      try {
        return {
          bytes: await bytesOf(file.slice(Math.max(0, start), Math.min(end, file.size))),
          info: infoOf(path, file),
        };
      } catch (error) {
        throw translateFsError(error, path, 'reading');
      }
    },

    async stream(input) {
      const path = normaliseProjectPath(input);
      const file = await fileAt(path);
      if (!file) throw new BrainError('NotFound', `"${path}" does not exist.`, { path });
      return { stream: file.stream() as ReadableStream<Uint8Array>, info: infoOf(path, file) };
    },

    async version(input) {
      const path = normaliseProjectPath(input);
      const file = await fileAt(path);
      return file ? versionOf(file) : null;
    },

    async write(input, bytes, options = {}) {
      const path = normaliseProjectPath(input);
      if (!(bytes instanceof Uint8Array))
        throw new BrainError('InvalidArgument', 'File content must be a Uint8Array.');
      const before = await fileAt(path);
      await checkExpected(path, before, options.expectedVersion);
      const dir = await dirAt(parentDir(path), true);
      let handle: FileSystemFileHandle;
      try {
        handle = await dir.getFileHandle(baseName(path), { create: true });
      } catch (error) {
        if (error instanceof DOMException && error.name === 'TypeMismatchError') {
          throw new BrainError('NotADirectory', `"${path}" is a folder, but a file is expected there.`, {
            path,
          });
        }
        throw translateFsError(error, path, 'creating');
      }
      const stream = await writable(handle, path, false);
      try {
        await stream.write(bytes as Uint8Array<ArrayBuffer>);
        // A change made while the new bytes were being written aside: abort instead of swapping over it.
        if (options.expectedVersion !== undefined) {
          const now = await fileAt(path);
          if (before === null) {
            if (now && now.size !== 0)
              throw new BrainError(
                'Conflict',
                `"${path}" was created by someone else meanwhile; nothing was written.`,
                { path },
              );
          } else await checkExpected(path, now, options.expectedVersion);
        }
        await stream.close();
      } catch (error) {
        await stream.abort().catch(() => undefined);
        // Translated first: an abort is told from a full quota by asking for the room through this handle.
        const translated = await translateWriteFailure(error, path, 'writing', bytes.byteLength, handle);
        if (before === null) await dir.removeEntry(baseName(path)).catch(() => undefined);
        throw translated;
      }
      const after = await fileAt(path);
      if (!after)
        throw new BrainError('Internal', `"${path}" vanished right after it was written.`, { path });
      return { ...infoOf(path, after), bytes, version: await versionOf(after, bytes) };
    },

    async append(input, bytes, options = {}) {
      const path = normaliseProjectPath(input);
      const before = await fileAt(path);
      if (!before) {
        if (options.expectedVersion) await checkExpected(path, null, options.expectedVersion);
        const written = await folder.write(path, bytes, { expectedVersion: null });
        return { path, size: written.size, lastModified: written.lastModified, version: written.version };
      }
      await checkExpected(path, before, options.expectedVersion);
      const handle = await fileHandle(path);
      if (!handle)
        throw new BrainError('Conflict', `"${path}" was deleted meanwhile; nothing was appended.`, { path });
      const stream = await writable(handle, path, true);
      try {
        await stream.seek(before.size);
        await stream.write(bytes as Uint8Array<ArrayBuffer>);
        const now = await fileAt(path);
        if (!now || now.size !== before.size || now.lastModified !== before.lastModified) {
          throw new BrainError(
            'Conflict',
            `"${path}" changed while appending; nothing was appended. Retry.`,
            { path },
          );
        }
        await stream.close();
      } catch (error) {
        await stream.abort().catch(() => undefined);
        throw await translateWriteFailure(
          error,
          path,
          'appending to',
          before.size + bytes.byteLength,
          handle,
        );
      }
      const after = await fileAt(path);
      if (!after) throw new BrainError('Internal', `"${path}" vanished right after an append.`, { path });
      return { ...infoOf(path, after), version: await versionOf(after) };
    },

    async makeDirectory(input) {
      await dirAt(normaliseProjectDir(input), true);
    },

    async remove(input, options = {}) {
      const path = normaliseProjectPath(input);
      const kind = await folder.kindOf(path);
      if (kind === null) {
        if (options.expectedVersion)
          throw new BrainError('Conflict', `"${path}" was already deleted.`, { path });
        return;
      }
      if (kind === 'file') await checkExpected(path, await fileAt(path), options.expectedVersion);
      const dir = await dirAt(parentDir(path), false);
      try {
        await dir.removeEntry(baseName(path), { recursive: options.recursive ?? false });
      } catch (error) {
        throw translateFsError(error, path, 'deleting');
      }
    },

    async list(input, options = {}) {
      const base = normaliseProjectDir(input);
      const skip = options.skip ?? new Set<string>();
      const out: FolderEntry[] = [];
      const walk = async (dir: FileSystemDirectoryHandle, prefix: string) => {
        try {
          for await (const [name, handle] of dir.entries()) {
            const path = (prefix === '' ? name : `${prefix}/${name}`) as ProjectPath;
            out.push({ path, kind: handle.kind });
            if (handle.kind === 'directory' && options.recursive && !skip.has(name))
              await walk(handle as FileSystemDirectoryHandle, path);
          }
        } catch (error) {
          throw translateFsError(error, prefix, 'listing');
        }
      };
      await walk(await dirAt(base, false), base);
      return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
  };
  return folder;
}
