/**
 * Filling a folder from outside: files from `<input webkitdirectory>`, drag and drop, or a zip. Everything is
 * checked before the first write (paths normalised, escapes refused, duplicates and file/folder clashes found),
 * so a bad set of files writes nothing.
 */
import { BrainError } from '../../core/errors';
import { normaliseProjectPath, type ProjectPath } from '../../core/paths';
import type { AgentFolder } from './folder';

export interface ImportFile {
  /** Project-relative path (`src/a.ts`), `/`-separated. */
  readonly path: string;
  readonly data: Blob | Uint8Array;
}

export interface ImportSummary {
  readonly files: number;
  readonly bytes: number;
}

/** Normalises and cross-checks the paths; throws before anything is written. */
export function checkImportPaths(
  files: readonly ImportFile[],
  directories: readonly string[] = [],
): ProjectPath[] {
  if (!Array.isArray(files))
    throw new BrainError('InvalidArgument', 'Import takes a list of { path, data } files.');
  const paths = files.map((file) => {
    if (typeof file !== 'object' || file === null)
      throw new BrainError('InvalidArgument', 'Each imported file is { path, data }.');
    if (!(file.data instanceof Uint8Array) && !(file.data instanceof Blob)) {
      throw new BrainError(
        'InvalidArgument',
        `"${String(file.path)}": data must be a Blob, File or Uint8Array.`,
      );
    }
    return normaliseProjectPath(file.path);
  });
  const seen = new Set<string>();
  for (const path of paths) {
    if (seen.has(path))
      throw new BrainError('InvalidArgument', `"${path}" is in the import twice.`, { path });
    seen.add(path);
  }
  for (const path of [...paths, ...directories]) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      if (seen.has(prefix)) {
        throw new BrainError(
          'NotADirectory',
          `"${prefix}" is a file in the import, but "${path}" needs it to be a folder.`,
          { path: prefix },
        );
      }
    }
  }
  return paths;
}

/** Writes checked files into `folder` (meant for a fresh folder: existing files with those paths are replaced). */
export async function writeImportedFiles(
  folder: AgentFolder,
  files: readonly ImportFile[],
  directories: readonly string[] = [],
  onProgress?: (done: number, total: number) => void,
): Promise<ImportSummary> {
  const paths = checkImportPaths(files, directories);
  let bytes = 0;
  for (let i = 0; i < files.length; i++) {
    const data = (files[i] as ImportFile).data;
    const content = data instanceof Uint8Array ? data : new Uint8Array(await data.arrayBuffer());
    await folder.write(paths[i] as ProjectPath, content);
    bytes += content.length;
    onProgress?.(i + 1, files.length);
  }
  for (const dir of directories) await folder.makeDirectory(dir);
  return { files: files.length, bytes };
}
