/**
 * An in-memory `FileSystemDirectoryHandle` for Node tests of the project feature, with the File System Access
 * behaviour the folder code relies on: `NotFoundError` / `TypeMismatchError` DOMExceptions, `entries()`, and
 * writables that write to a swap copy and replace the file only on `close()` (`abort()` leaves it whole).
 * Times come from `clock` (a file's `lastModified` is the time of its last replace), so a test can make two
 * writes land in the same millisecond.
 */

interface MemoryFile {
  bytes: Uint8Array;
  lastModified: number;
}

type Node = { kind: 'file'; file: MemoryFile } | { kind: 'directory'; children: Map<string, Node> };

const notFound = (name: string) => new DOMException(`"${name}" was not found.`, 'NotFoundError');
const mismatch = (name: string) => new DOMException(`"${name}" is of the other kind.`, 'TypeMismatchError');

function fileHandle(name: string, file: MemoryFile, clock: () => number) {
  return {
    kind: 'file' as const,
    name,
    async getFile() {
      return new File([file.bytes as Uint8Array<ArrayBuffer>], name, { lastModified: file.lastModified });
    },
    async createWritable(options: { keepExistingData?: boolean } = {}) {
      let swap = options.keepExistingData ? file.bytes.slice() : new Uint8Array();
      let at = 0;
      let open = true;
      return {
        async seek(position: number) {
          at = position;
        },
        async write(data: Uint8Array) {
          if (!open) throw new TypeError('The writable is closed.');
          const next = new Uint8Array(Math.max(swap.length, at + data.length));
          next.set(swap);
          next.set(data, at);
          swap = next;
          at += data.length;
        },
        async close() {
          if (!open) throw new TypeError('The writable is closed.');
          open = false;
          file.bytes = swap;
          file.lastModified = clock();
        },
        async abort() {
          open = false;
        },
      };
    },
  };
}

function directoryHandle(name: string, children: Map<string, Node>, clock: () => number): unknown {
  const handleOf = (key: string, node: Node) =>
    node.kind === 'file' ? fileHandle(key, node.file, clock) : directoryHandle(key, node.children, clock);
  return {
    kind: 'directory' as const,
    name,
    async getDirectoryHandle(key: string, options: { create?: boolean } = {}) {
      let node = children.get(key);
      if (node?.kind === 'file') throw mismatch(key);
      if (!node) {
        if (!options.create) throw notFound(key);
        node = { kind: 'directory', children: new Map() };
        children.set(key, node);
      }
      return handleOf(key, node);
    },
    async getFileHandle(key: string, options: { create?: boolean } = {}) {
      let node = children.get(key);
      if (node?.kind === 'directory') throw mismatch(key);
      if (!node) {
        if (!options.create) throw notFound(key);
        node = { kind: 'file', file: { bytes: new Uint8Array(), lastModified: clock() } };
        children.set(key, node);
      }
      return handleOf(key, node);
    },
    async removeEntry(key: string, options: { recursive?: boolean } = {}) {
      const node = children.get(key);
      if (!node) throw notFound(key);
      if (node.kind === 'directory' && node.children.size > 0 && !options.recursive)
        throw new DOMException(`"${key}" is not empty.`, 'InvalidModificationError');
      children.delete(key);
    },
    async *entries() {
      for (const [key, node] of [...children]) yield [key, handleOf(key, node)] as const;
    },
  };
}

/** A folder named `name` holding `files` (path → text or bytes); `handle` is what `openProject` takes. */
export function memoryDirectory(name: string, files: Record<string, string | Uint8Array> = {}) {
  let tick = Date.UTC(2026, 11, 1, 12, 0, 0);
  const clock = () => (tick += 1000);
  const root = new Map<string, Node>();
  const put = (path: string, content: string | Uint8Array) => {
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let node = dir.get(part);
      if (!node) dir.set(part, (node = { kind: 'directory', children: new Map() }));
      if (node.kind !== 'directory') throw new Error(`${part} is a file`);
      dir = node.children;
    }
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    const key = parts.at(-1) as string;
    const node = dir.get(key);
    // An existing file changes in place: handles taken before see the new bytes, as on a real disk.
    if (node?.kind === 'file') Object.assign(node.file, { bytes, lastModified: clock() });
    else dir.set(key, { kind: 'file', file: { bytes, lastModified: clock() } });
  };
  for (const [path, content] of Object.entries(files)) put(path, content);
  return {
    handle: directoryHandle(name, root, clock) as FileSystemDirectoryHandle,
    /** Someone else (another editor, the other agent) writing the file behind the app's back. */
    put,
    /** The file's bytes as they are in the folder, or null. */
    bytes(path: string): Uint8Array | null {
      const parts = path.split('/');
      let dir = root;
      for (const part of parts.slice(0, -1)) {
        const node = dir.get(part);
        if (node?.kind !== 'directory') return null;
        dir = node.children;
      }
      const node = dir.get(parts.at(-1) as string);
      return node?.kind === 'file' ? node.file.bytes : null;
    },
  };
}
