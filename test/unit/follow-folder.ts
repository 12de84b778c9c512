/**
 * A folder of growing files for the follower's Node tests, in the shape of the directory handles it reads (a
 * picked folder or an OPFS one: `entries`, `getDirectoryHandle`, `getFileHandle`, `getFile` giving a File). The
 * browser tests and the e2e run the same follower on real OPFS folders.
 */
interface FileHandle {
  readonly kind: 'file';
  getFile(): Promise<Blob & { lastModified: number }>;
}
interface DirectoryHandle {
  readonly kind: 'directory';
  readonly name: string;
  entries(): AsyncGenerator<[string, DirectoryHandle | FileHandle]>;
  getDirectoryHandle(name: string): Promise<DirectoryHandle>;
  getFileHandle(name: string): Promise<FileHandle>;
}

export class GrowingFolder {
  readonly kind = 'directory' as const;
  private readonly files = new Map<string, { bytes: Uint8Array; modified: number }>();
  private tick = Date.UTC(2026, 11, 1);
  /** Bytes handed out by `getFile(...).slice(...).arrayBuffer()`: what the follower read. */
  bytesRead = 0;

  constructor(readonly name: string) {}

  write(path: string, bytes: Uint8Array): void {
    this.files.set(path, { bytes, modified: ++this.tick });
  }

  append(path: string, bytes: Uint8Array): void {
    const old = this.files.get(path)?.bytes ?? new Uint8Array();
    const next = new Uint8Array(old.length + bytes.length);
    next.set(old);
    next.set(bytes, old.length);
    this.write(path, next);
  }

  size(path: string): number {
    return this.files.get(path)?.bytes.length ?? 0;
  }

  private dir(prefix: string): DirectoryHandle {
    const children = () => {
      const out = new Map<string, 'file' | 'directory'>();
      for (const path of this.files.keys()) {
        if (!path.startsWith(prefix)) continue;
        const rest = path.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash < 0) out.set(rest, 'file');
        else out.set(rest.slice(0, slash), 'directory');
      }
      return out;
    };
    const dir = (name: string) => this.dir(`${prefix}${name}/`);
    const file = (name: string) => this.fileHandle(`${prefix}${name}`);
    return {
      kind: 'directory' as const,
      name: prefix === '' ? this.name : (prefix.slice(0, -1).split('/').pop() as string),
      async *entries() {
        for (const [name, kind] of children())
          yield [name, kind === 'directory' ? dir(name) : file(name)] as [
            string,
            DirectoryHandle | FileHandle,
          ];
      },
      async getDirectoryHandle(name: string) {
        if (children().get(name) !== 'directory') throw new DOMException(name, 'NotFoundError');
        return dir(name);
      },
      async getFileHandle(name: string) {
        if (children().get(name) !== 'file') throw new DOMException(name, 'NotFoundError');
        return file(name);
      },
    };
  }

  private fileHandle(path: string): FileHandle {
    return {
      kind: 'file' as const,
      getFile: async () => {
        const f = this.files.get(path);
        if (!f) throw new DOMException(path, 'NotFoundError');
        const count = (n: number) => (this.bytesRead += n);
        const file = new File([f.bytes.slice()], path.split('/').pop() as string, {
          lastModified: f.modified,
        });
        return countingBlob(file, count, f.modified);
      },
    };
  }

  /** The handle the follower is given. */
  handle(): FileSystemDirectoryHandle {
    // The follower reads only the members built above (storage/followed-folder/handle.ts DirectoryLike).
    return this.dir('') as unknown as FileSystemDirectoryHandle;
  }
}

/** A Blob whose reads are counted (slices of slices too). */
function countingBlob(
  blob: Blob,
  count: (n: number) => void,
  lastModified: number,
): Blob & { lastModified: number } {
  return {
    size: blob.size,
    type: blob.type,
    lastModified,
    slice: (start?: number, end?: number) => countingBlob(blob.slice(start, end), count, lastModified),
    arrayBuffer: async () => {
      count(blob.size);
      return blob.arrayBuffer();
    },
    text: async () => {
      count(blob.size);
      return blob.text();
    },
    stream: () => blob.stream(),
    bytes: async () => {
      count(blob.size);
      return new Uint8Array(await blob.arrayBuffer());
    },
  } as unknown as Blob & { lastModified: number };
}
