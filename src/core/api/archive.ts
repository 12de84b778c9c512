/** Whole-brain export/import: agent.db and the project's `.agent` folder in one verified archive. */

export interface ArchiveProgress {
  readonly phase: 'database' | 'files' | 'packing' | 'validating' | 'writing' | 'installing' | 'done';
  /** Units done and total in this phase (files, or bytes for the database); total 0 when unknown. */
  readonly done: number;
  readonly total: number;
}

export type ArchiveProgressListener = (progress: ArchiveProgress) => void;

export interface BrainArchiveImportOptions {
  /**
   * Where the archive's `.agent` files go when no project is open: an OPFS project of this name (default
   * `imported`), created or reused. With a project open, they go into it.
   */
  readonly projectName?: string;
}

export interface BrainArchiveImportReport {
  readonly schemaVersion: number;
  /** Migrations applied to bring an older database up to date. */
  readonly migrated: readonly number[];
  readonly databaseBytes: number;
  /** The `.agent` files written, and the project they were written into. */
  readonly files: readonly string[];
  readonly project: string | null;
  /** `.agent` files that were in the project but not in the archive: left as they were. */
  readonly keptFiles: readonly string[];
}

/** What an archive's manifest says, read ahead of an import (`previewBrainArchive`): nothing is verified yet. */
export interface BrainArchivePreview {
  /** When the archive was made, epoch ms. */
  readonly createdAt: number;
  readonly databaseBytes: number;
  readonly schemaVersion: number;
  /** The `.agent` files the archive holds, with their sizes. */
  readonly files: readonly { readonly path: string; readonly bytes: number }[];
}

export interface ArchiveApi {
  /** One zip: `manifest.json` (versions, sizes, SHA-256), `agent.db`, and `project/.agent/**` of the open project. */
  exportBrain(onProgress?: ArchiveProgressListener): Promise<Uint8Array>;
  /**
   * Reads only the archive's manifest (nothing else is inflated; a manifest past 4 MiB is refused, a deflate bomb
   * early) and validates it by the rules `importBrain` applies, to show what an import would bring. Rejects with
   * CorruptArchive, NewerSchema, PathEscapes or TooLarge, whose message says why the archive cannot be imported.
   * The hashes and the database are checked only by `importBrain`.
   */
  previewBrainArchive(bytes: Uint8Array): Promise<BrainArchivePreview>;
  /**
   * Validates the whole archive (zip, manifest, hashes, paths, SQLite header, integrity_check, schema version —
   * older ones are migrated, newer refused) before touching anything; a bad archive changes nothing.
   */
  importBrain(
    bytes: Uint8Array,
    options?: BrainArchiveImportOptions,
    onProgress?: ArchiveProgressListener,
  ): Promise<BrainArchiveImportReport>;
}
