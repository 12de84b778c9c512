/**
 * Pure helpers of the whole-brain archive panel: file names, the manifest read ahead of the confirmation, how
 * the archive's files meet the open project's, and the engine's progress in words.
 */
import type { ArchiveProgress } from '../lib/index';
import type { Progress } from './state/operation.svelte';

/** What the archive's manifest says, read before asking the person to confirm (null when it cannot be read). */
export interface ArchivePeek {
  readonly createdAt: number;
  readonly databaseBytes: number;
  readonly schemaVersion: number;
  readonly files: readonly string[];
}

/** How the archive's `.agent` files meet the open project's: replaced, added, and left as they are. */
export function fileChanges(
  peek: ArchivePeek | null,
  current: readonly string[],
): { replaced: string[]; added: string[]; kept: string[] } | null {
  if (!peek) return null;
  const incoming = new Set(peek.files);
  const present = new Set(current);
  return {
    replaced: peek.files.filter((path) => present.has(path)),
    added: peek.files.filter((path) => !present.has(path)),
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

/**
 * The manifest of a whole-brain archive, read on the main thread without inflating anything else (fflate reads
 * the zip's directory and inflates only `manifest.json`). Any failure gives null: the engine validates the whole
 * archive anyway and says what is wrong.
 */
export async function peekArchive(bytes: Uint8Array): Promise<ArchivePeek | null> {
  try {
    const { unzipSync, strFromU8 } = await import('fflate');
    const entry = unzipSync(bytes, { filter: (file) => file.name === 'manifest.json' })['manifest.json'];
    if (!entry) return null;
    const manifest = JSON.parse(strFromU8(entry)) as {
      createdAt?: unknown;
      database?: { bytes?: unknown; schemaVersion?: unknown };
      files?: { path?: unknown }[];
    };
    const { createdAt, database, files } = manifest;
    if (typeof createdAt !== 'number' || typeof database?.bytes !== 'number') return null;
    if (typeof database.schemaVersion !== 'number' || !Array.isArray(files)) return null;
    return {
      createdAt,
      databaseBytes: database.bytes,
      schemaVersion: database.schemaVersion,
      files: files.map((file) => String(file.path)),
    };
  } catch {
    return null;
  }
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
