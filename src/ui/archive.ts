/**
 * Pure helpers of the whole-brain archive panel: file names, how the archive's files (from the engine's
 * preview of its manifest) meet the open project's, and the engine's progress in words.
 */
import type { ArchiveProgress, BrainArchivePreview } from '../lib/index';
import type { Progress } from './state/operation.svelte';

/** How the archive's `.agent` files meet the open project's: replaced, added, and left as they are. */
export function fileChanges(
  preview: BrainArchivePreview | null,
  current: readonly string[],
): { replaced: string[]; added: string[]; kept: string[] } | null {
  if (!preview) return null;
  const paths = preview.files.map((file) => file.path);
  const incoming = new Set(paths);
  const present = new Set(current);
  return {
    replaced: paths.filter((path) => present.has(path)),
    added: paths.filter((path) => !present.has(path)),
    kept: current.filter((path) => !incoming.has(path)),
  };
}

const projectNamePattern = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;
const demoProjectName = 'demo';

/** Why `name` cannot receive an import (null when it can); the engine checks again. */
export function projectNameProblem(name: string): string | null {
  if (!projectNamePattern.test(name) || name.endsWith('.') || name.endsWith(' ')) {
    return 'A project name is 1–64 letters, digits, spaces or ". _ -", starting with a letter or digit.';
  }
  if (name === demoProjectName) return '"demo" is the built-in demo project; choose another name.';
  return null;
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'agent';

/** `tiny-paginate-brain-2026-12-01-1405.zip`: the project (or database) name, then a sortable time. */
export function archiveFileName(name: string, atMs: number): string {
  const at = new Date(atMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}`;
  return `${safeName(name)}-brain-${stamp}.zip`;
}

/** The project an archive named like `archiveFileName` came from, as a name to import its files into. */
export function projectNameFromArchive(fileName: string): string {
  const base = /^(.+?)-brain-\d{4}-\d{2}-\d{2}/.exec(fileName)?.[1] ?? 'imported';
  const name = base === demoProjectName ? 'demo-imported' : base.slice(0, 64);
  return projectNameProblem(name) === null ? name : 'imported';
}

/** The engine's archive progress in words, with counts where the phase has them. */
export function describeArchiveProgress(progress: ArchiveProgress): Progress {
  const total = progress.total > 0 ? progress.total : null;
  switch (progress.phase) {
    case 'database':
      return { phase: 'Copying the database', done: 0, total: null, unit: 'bytes' };
    case 'files':
      return { phase: 'Reading the .agent files', done: progress.done, total, unit: 'items' };
    case 'packing':
      return { phase: 'Packing the archive', done: 0, total: null, unit: 'bytes' };
    case 'validating':
      return { phase: 'Checking the archive (hashes, paths, database)', done: 0, total: null, unit: 'items' };
    case 'writing':
      return { phase: 'Writing the .agent files', done: progress.done, total, unit: 'items' };
    case 'installing':
      return { phase: 'Installing the database', done: 0, total: null, unit: 'bytes' };
    case 'done':
      return { phase: 'Finishing', done: 1, total: 1, unit: 'items' };
    default: {
      const never: never = progress.phase;
      return { phase: String(never), done: 0, total: null, unit: 'items' };
    }
  }
}
