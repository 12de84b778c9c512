/**
 * Whole-brain export/import, and the preview of an archive's manifest ahead of an import (the bounded reader and
 * validator the import itself starts with). Order on import: unpack and verify the archive; install its database
 * with its `.agent` files staged in the same kill-safe commit (storage/sqlite/vfs/opfs.ts) — refused, nothing
 * changed; then write the files into the project (each atomically, remembering what was there). If a write fails
 * the files are put back and the old database reinstalled. If the tab dies after the commit, the staged files are
 * written when that project is next opened (`applyPendingFiles`). So the brain is always the old one or the new.
 */
import { BrainError, isBrainError } from '../../core/errors';
import { agentDir } from '../../core/paths';
import {
  packBrainArchive,
  unpackBrainArchive,
  maxArchiveBytes,
  type ArchiveFile,
} from '../../storage/archive/brain-archive';
import {
  archivedFileTooLarge,
  maxArchivedFileBytes,
  readArchiveManifest,
} from '../../storage/archive/manifest';
import type { AgentFolder } from '../../storage/agent-folder/folder';
import { requireProjectName } from '../../storage/agent-folder/opfs-projects';
import type { Database } from '../../storage/sqlite/database';
import { migrations } from '../../storage/sqlite/migrations/index';
import type { EngineContext } from '../context';
import type { ArchiveApi, ArchiveProgressListener, BrainArchiveImportOptions } from '../../core/api/archive';

export interface ArchiveFeatureDeps {
  readonly database: Database;
  /** The open project's folder, if any. */
  readonly currentFolder: () => AgentFolder | null;
  /** Opens (creating if needed) an OPFS project to receive an archive's files when none is open. */
  readonly openImportTarget: (name: string) => Promise<AgentFolder>;
}

const knownSchemaVersion = Math.max(...migrations.map((m) => m.id));
/** An archive's `.agent` file is held to `maxArchivedFileBytes` (manifest.ts), the bound the export keeps to. */
const unpackOptions = { knownSchemaVersion };

async function agentFiles(folder: AgentFolder): Promise<string[]> {
  if ((await folder.kindOf(agentDir)) !== 'directory') return [];
  const entries = await folder.list(agentDir, { recursive: true });
  return entries.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
}

export function createArchiveFeature(ctx: EngineContext, deps: ArchiveFeatureDeps) {
  const report = (
    listener: ArchiveProgressListener | undefined,
    ...args: Parameters<ArchiveProgressListener>
  ) => {
    // Progress is advisory: a listener in a page that went away must not fail the operation.
    Promise.resolve()
      .then(() => listener?.(...args))
      .catch(() => undefined);
  };

  async function restoreFiles(folder: AgentFolder, previous: Map<string, Uint8Array | null>) {
    for (const [path, bytes] of previous) {
      if (bytes === null) await folder.remove(path).catch(() => undefined);
      else await folder.write(path, bytes).catch(() => undefined);
    }
  }

  /** Writes the files a kill left staged by a committed import, when their project is the one just opened. */
  let importing = false;
  async function applyPendingFiles(folder: AgentFolder): Promise<void> {
    if (importing) return; // the import in progress writes its own files
    const pending = await deps.database.pendingFiles();
    if (!pending || pending.project.kind !== folder.kind || pending.project.name !== folder.name) return;
    for (const file of pending.files) await folder.write(file.path, file.bytes);
    await deps.database.finishInstall();
    ctx.emit({ topic: 'project' });
  }

  const api = {
    async exportBrain(onProgress?: ArchiveProgressListener) {
      report(onProgress, { phase: 'database', done: 0, total: 0 });
      const database = await deps.database.exportBytes();
      const folder = deps.currentFolder();
      const paths = folder ? await agentFiles(folder) : [];
      // A file the import would refuse is refused here, before anything is read: what the brain writes it accepts.
      for (const path of paths) {
        const size = (await folder!.stat(path))?.size ?? 0;
        if (size > maxArchivedFileBytes) throw archivedFileTooLarge(path, size);
      }
      const files: ArchiveFile[] = [];
      for (const [index, path] of paths.entries()) {
        report(onProgress, { phase: 'files', done: index, total: paths.length });
        const read = await folder!.read(path, { maxBytes: maxArchivedFileBytes }).catch((error: unknown) => {
          // It grew past the bound since the check above.
          if (isBrainError(error, 'TooLarge'))
            throw archivedFileTooLarge(path, Number(error.details?.['size']));
          throw error;
        });
        files.push({ path, bytes: read.bytes });
      }
      report(onProgress, { phase: 'packing', done: 0, total: 0 });
      const zip = await packBrainArchive({
        database,
        schemaVersion: deps.database.schemaVersion,
        files,
        createdAt: ctx.clock.now(),
      });
      report(onProgress, { phase: 'done', done: 1, total: 1 });
      return zip;
    },

    async previewBrainArchive(bytes: Uint8Array) {
      if (!(bytes instanceof Uint8Array))
        throw new BrainError('InvalidArgument', 'previewBrainArchive takes the archive as a Uint8Array.');
      const manifest = readArchiveManifest(bytes, { knownSchemaVersion });
      return {
        createdAt: manifest.createdAt,
        databaseBytes: manifest.database.bytes,
        schemaVersion: manifest.database.schemaVersion,
        files: manifest.files.map(({ path, bytes }) => ({ path, bytes })),
      };
    },

    async importBrain(
      bytes: Uint8Array,
      options: BrainArchiveImportOptions = {},
      onProgress?: ArchiveProgressListener,
    ) {
      if (!(bytes instanceof Uint8Array))
        throw new BrainError('InvalidArgument', 'importBrain takes the archive as a Uint8Array.');
      report(onProgress, { phase: 'validating', done: 0, total: 2 });
      const archive = await unpackBrainArchive(bytes, unpackOptions);
      report(onProgress, { phase: 'validating', done: 1, total: 2 });
      importing = true;
      try {
        return await importArchive(archive, options, onProgress);
      } finally {
        importing = false;
      }
    },
  } satisfies ArchiveApi;

  async function importArchive(
    archive: Awaited<ReturnType<typeof unpackBrainArchive>>,
    options: BrainArchiveImportOptions,
    onProgress: ArchiveProgressListener | undefined,
  ) {
    const current = deps.currentFolder();
    const hasFiles = archive.files.length > 0;
    const target = current
      ? { kind: current.kind, name: current.name }
      : { kind: 'opfs' as const, name: requireProjectName(options.projectName ?? 'imported') };
    if (current && hasFiles && (await current.permission()) !== 'granted') {
      throw new BrainError(
        'PermissionDenied',
        `agent-brain may not write to the folder "${current.name}"; allow it and retry. Nothing was changed.`,
      );
    }
    report(onProgress, { phase: 'installing', done: 0, total: archive.database.byteLength });
    const installed = await deps.database.importBytes(
      archive.database,
      hasFiles ? { files: { project: target, files: archive.files } } : {},
    );
    // Committed: from here the new brain is the brain, its files follow.
    const folder = current ?? (hasFiles ? await deps.openImportTarget(target.name) : null);
    const existing = folder ? await agentFiles(folder) : [];
    const previous = new Map<string, Uint8Array | null>();
    try {
      for (const [index, file] of archive.files.entries()) {
        report(onProgress, { phase: 'writing', done: index, total: archive.files.length });
        const before = await folder!.stat(file.path);
        previous.set(
          file.path,
          before ? (await folder!.read(file.path, { maxBytes: maxArchiveBytes })).bytes : null,
        );
        await folder!.write(file.path, file.bytes);
      }
      await deps.database.finishInstall();
    } catch (error) {
      if (folder) await restoreFiles(folder, previous);
      await installed.undo();
      ctx.emit({ topic: 'database' });
      throw error;
    }
    ctx.emit({ topic: 'database' });
    if (folder) ctx.emit({ topic: 'project' });
    report(onProgress, { phase: 'done', done: 1, total: 1 });
    const written = new Set(archive.files.map((f) => f.path));
    return {
      schemaVersion: installed.schemaVersion,
      migrated: installed.migrated,
      databaseBytes: installed.bytes,
      files: [...written],
      project: folder?.name ?? null,
      keptFiles: existing.filter((path) => !written.has(path)),
    };
  }

  return { api, applyPendingFiles };
}
