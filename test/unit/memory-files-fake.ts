import { BrainError } from '../../src/core/errors';
import type { MemoryFiles, MemoryFilesProvider } from '../../src/engine/memory-files';

/** An in-memory `.agent` folder with the folder layer's contract: versioned writes, appends that repair a torn line. */
export function fakeMemoryFiles() {
  const texts = new Map<string, string>();
  const versions = new Map<string, number>();
  let counter = 0;
  let failing = false;
  const bump = (path: string) => versions.set(path, ++counter);
  const files: MemoryFiles = {
    async read(path) {
      const text = texts.get(path);
      return text === undefined ? null : { text, version: { token: String(versions.get(path)) } };
    },
    async write(path, text, expected) {
      if (failing) throw new BrainError('PermissionDenied', 'The folder is not writable.');
      const current = texts.has(path) ? String(versions.get(path)) : null;
      if (expected !== undefined && (expected?.token ?? null) !== current) {
        throw new BrainError('Conflict', `${path} changed since it was read.`);
      }
      texts.set(path, text);
      bump(path);
    },
    async appendLines(path, lines) {
      if (failing) throw new BrainError('PermissionDenied', 'The folder is not writable.');
      let text = texts.get(path) ?? '';
      if (text !== '' && !text.endsWith('\n')) text = text.slice(0, text.lastIndexOf('\n') + 1);
      texts.set(path, text + lines.map((l) => `${l}\n`).join(''));
      bump(path);
    },
  };
  const provider: MemoryFilesProvider = async () => files;
  return {
    provider,
    files,
    texts,
    /** Lets a test write as a person would (the version changes). */
    edit(path: string, text: string) {
      texts.set(path, text);
      bump(path);
    },
    setFailing(value: boolean) {
      failing = value;
    },
  };
}
