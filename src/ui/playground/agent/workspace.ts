/**
 * The agent's virtual workspace: a folder in the page's OPFS (not the brain's), seeded with a tiny project whose
 * test fails. Paths are relative (`src/sum.js`); the tools and the recorder name them the same way.
 */
import type { WorkspaceEntry } from '../../../lib/index';

export const workspaceRoot = '/workspace';

/** The seed: `sum` subtracts, so one of the two tests fails until the model fixes it. */
export const seedFiles: Readonly<Record<string, string>> = {
  'README.md':
    '# sum\n\nA one-function library. `run_check` runs every `test/*.test.js` file; all of them must pass.\n',
  'src/sum.js':
    '// Adds two numbers.\nfunction sum(a, b) {\n  return a - b;\n}\n\nmodule.exports = { sum };\n',
  'test/sum.test.js':
    "const { sum } = require('../src/sum.js');\n\n" +
    "test('sum adds two numbers', () => {\n  assert.equal(sum(2, 3), 5);\n});\n\n" +
    "test('sum of zero is the other number', () => {\n  assert.equal(sum(0, 4), 4);\n});\n",
};

export class WorkspaceError extends Error {}

function parts(path: string): string[] {
  const clean = path.replace(/^\.?\//, '').replace(/^workspace\//, '');
  const segments = clean.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '..'))
    throw new WorkspaceError(`"${path}" is not a file path inside the workspace.`);
  return segments;
}

export class Workspace {
  private constructor(private readonly dir: FileSystemDirectoryHandle) {}

  static async open(name = 'playground-workspace'): Promise<Workspace> {
    const root = await navigator.storage.getDirectory();
    return new Workspace(await root.getDirectoryHandle(name, { create: true }));
  }

  /** Empties the workspace and writes the seed project. */
  async reset(): Promise<void> {
    for await (const name of this.dir.keys()) await this.dir.removeEntry(name, { recursive: true });
    for (const [path, text] of Object.entries(seedFiles)) await this.write(path, text);
  }

  private async parent(segments: string[], create: boolean): Promise<FileSystemDirectoryHandle> {
    let dir = this.dir;
    for (const name of segments.slice(0, -1)) dir = await dir.getDirectoryHandle(name, { create });
    return dir;
  }

  /** The file's text, or null when it does not exist. */
  async read(path: string): Promise<string | null> {
    const segments = parts(path);
    try {
      const dir = await this.parent(segments, false);
      const handle = await dir.getFileHandle(segments.at(-1) as string);
      return await (await handle.getFile()).text();
    } catch (error) {
      if (
        error instanceof DOMException &&
        (error.name === 'NotFoundError' || error.name === 'TypeMismatchError')
      )
        return null;
      throw error;
    }
  }

  async write(path: string, text: string): Promise<void> {
    const segments = parts(path);
    const dir = await this.parent(segments, true);
    const handle = await dir.getFileHandle(segments.at(-1) as string, { create: true });
    const writable = await handle.createWritable();
    await writable.write(text);
    await writable.close();
  }

  /** Every file with its size and modification time, sorted by path. */
  async list(): Promise<WorkspaceEntry[]> {
    const out: WorkspaceEntry[] = [];
    const walk = async (dir: FileSystemDirectoryHandle, prefix: string) => {
      for await (const [name, handle] of dir.entries()) {
        if (handle.kind === 'directory') await walk(handle as FileSystemDirectoryHandle, `${prefix}${name}/`);
        else {
          const file = await (handle as FileSystemFileHandle).getFile();
          out.push({ path: `${prefix}${name}`, size: file.size, mtime: file.lastModified });
        }
      }
    };
    await walk(this.dir, '');
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** Every file's text, for the check. */
  async snapshot(): Promise<Record<string, string>> {
    const files: Record<string, string> = {};
    for (const entry of await this.list()) files[entry.path] = (await this.read(entry.path)) ?? '';
    return files;
  }
}
