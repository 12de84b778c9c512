/**
 * The one list of project folders that no import (a chosen or dropped folder, a zip), listing or export takes in:
 * version control and dependency caches. They can be huge and are not the agent's. Whoever leaves a folder out
 * says so: `skippedFolders` groups the left-out paths by the folder that caused it.
 */

/** Folder names skipped wherever they occur (`.git`, `packages/a/node_modules`). */
export const skippedDirectoryNames: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** A folder an import left out, and how many of its files (null: not counted, the folder was not walked). */
export interface SkippedFolder {
  /** Project-relative, `/`-separated, no trailing slash: `.git`, `web/node_modules`. */
  readonly path: string;
  readonly files: number | null;
}

/** The skipped folder a `/`-separated path lies in (its outermost one), else null. */
export function skippedFolderOf(path: string): string | null {
  const segments = path.split('/');
  const at = segments.findIndex((segment) => skippedDirectoryNames.has(segment));
  return at < 0 ? null : segments.slice(0, at + 1).join('/');
}

/**
 * Splits `items` into those kept and the skipped folders (sorted by path, with file counts: the same report whatever
 * order the files came in). A path that is itself a skipped folder (a zip's `node_modules/` entry) counts no file.
 */
export function splitSkipped<T>(
  items: readonly T[],
  pathOf: (item: T) => string,
  isFile: (item: T) => boolean = () => true,
): { kept: T[]; skipped: SkippedFolder[] } {
  const kept: T[] = [];
  const counts = new Map<string, number>();
  for (const item of items) {
    const folder = skippedFolderOf(pathOf(item).replace(/\/+$/, ''));
    if (folder === null) {
      kept.push(item);
      continue;
    }
    counts.set(folder, (counts.get(folder) ?? 0) + (isFile(item) ? 1 : 0));
  }
  return { kept, skipped: sortedFolders(counts) };
}

/** Two reports of the same import as one (the page's and the engine's): counts added, an uncounted folder stays so. */
export function mergeSkipped(...lists: readonly (readonly SkippedFolder[])[]): SkippedFolder[] {
  const out = new Map<string, number | null>();
  for (const list of lists) {
    for (const { path, files } of list) {
      if (!out.has(path)) out.set(path, files);
      else {
        const before = out.get(path) as number | null;
        out.set(path, before === null || files === null ? null : before + files);
      }
    }
  }
  return sortedFolders(out);
}

const sortedFolders = (counts: ReadonlyMap<string, number | null>): SkippedFolder[] =>
  [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([path, files]) => ({ path, files }));

/** "Left out .git/ (12 files) and node_modules/." — for a message; '' when nothing was skipped. */
export function describeSkipped(skipped: readonly SkippedFolder[], shown = 3): string {
  if (skipped.length === 0) return '';
  const part = ({ path, files }: SkippedFolder) =>
    `${path}/${files === null ? '' : ` (${files} file${files === 1 ? '' : 's'})`}`;
  const named = skipped.slice(0, shown).map(part);
  const more = skipped.length - named.length;
  if (more > 0) named.push(`${more} more such folder${more === 1 ? '' : 's'}`);
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `Left out ${list}: version control and dependency folders are never imported.`;
}
