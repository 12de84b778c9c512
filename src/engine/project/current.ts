/**
 * The one open project of an engine: the folder, the `project` change announcements, the size-checked write
 * every file feature uses, and the `.agent` port the memory features get (engine-owned writes, still
 * version-checked).
 */
import type { WrittenFile } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import type { AgentFolder, FolderLimits } from '../../storage/agent-folder/folder';
import { appendJsonlLines } from '../../storage/agent-folder/jsonl-file';
import type { OpfsRoot } from '../../storage/agent-folder/opfs-projects';
import { readTextFile } from '../../storage/agent-folder/project-files';
import { encodeText } from '../../storage/agent-folder/text';
import type { EngineContext } from '../context';
import type { MemoryFiles, MemoryFilesProvider } from '../memory-files';
import { folderForSession } from './session-project';
import { maxWriteBytes, requireText } from './validate';

export interface CurrentProject {
  readonly ctx: EngineContext;
  readonly opfsRoot: OpfsRoot;
  readonly limits: FolderLimits;
  get(): AgentFolder | null;
  set(folder: AgentFolder | null): void;
  /** The open folder; `NotFound` when none is open. */
  folder(): AgentFolder;
  /** Announces a change of one file, or of the whole project (no path). */
  changed(path?: string): void;
  writeFile(path: string, bytes: Uint8Array, expectedVersion: string | null): Promise<WrittenFile>;
  readonly memoryFiles: MemoryFilesProvider;
}

export function createCurrentProject(
  ctx: EngineContext,
  opfsRoot: OpfsRoot,
  limits: FolderLimits,
): CurrentProject {
  let current: AgentFolder | null = null;

  function folder(): AgentFolder {
    if (!current)
      throw new BrainError(
        'NotFound',
        'No project is open: open the demo project, a folder, or an imported project first.',
      );
    return current;
  }

  const changed = (path?: string) =>
    ctx.emit(path === undefined ? { topic: 'project' } : { topic: 'project', path });

  async function writeFile(
    path: string,
    bytes: Uint8Array,
    expectedVersion: string | null,
  ): Promise<WrittenFile> {
    if (bytes.length > maxWriteBytes)
      throw new BrainError(
        'TooLarge',
        `"${path}" would be ${bytes.length} bytes; one write is limited to ${maxWriteBytes}.`,
      );
    const written = await folder().write(path, bytes, { expectedVersion });
    changed(path);
    return {
      path: written.path,
      size: written.size,
      lastModified: written.lastModified,
      version: written.version,
    };
  }

  const memoryFiles: MemoryFilesProvider = async (sessionId) => {
    const f = sessionId === undefined ? current : await folderForSession(ctx.db, sessionId, current);
    if (!f) return null;
    const port: MemoryFiles = {
      async read(path) {
        if ((await f.kindOf(path)) === null) return null;
        const file = await readTextFile(f, path);
        return { text: file.text, version: { token: file.version } };
      },
      async write(path, text, expected) {
        const written = await f.write(path, encodeText(requireText(text, 'The file text')), {
          expectedVersion: expected === undefined ? undefined : expected === null ? null : expected.token,
        });
        changed(written.path);
      },
      async appendLines(path, lines) {
        await appendJsonlLines(f, path, lines);
        changed(path);
      },
    };
    return port;
  };

  return {
    ctx,
    opfsRoot,
    limits,
    get: () => current,
    set(f) {
      current = f;
    },
    folder,
    changed,
    writeFile,
    memoryFiles,
  };
}
