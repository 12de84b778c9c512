/**
 * The whole-brain archive's `manifest.json`: its shape, the one validator both the preview and the unpack apply,
 * and the reader that takes the manifest out of a zip without inflating anything else (bounded: a manifest is
 * small, so a large or deflate-bomb one is refused before it costs memory).
 */
import { BrainError } from '../../core/errors';
import { agentDir, normaliseProjectPath } from '../../core/paths';
import { DamagedZip, readZipEntry } from './zip-entry';

export const archiveFormat = 'agent-brain-archive';
export const archiveVersion = 1;
export const manifestEntry = 'manifest.json';
/** A manifest lists sizes and hashes: a few hundred bytes a file. One past this is refused, declared or inflated. */
export const maxManifestBytes = 4 * 1024 * 1024;
/**
 * The most one `.agent` file in an archive may hold — one bound for both ends, so that an archive the brain writes
 * is one it accepts: an export refuses a bigger file (`archivedFileTooLarge`, before reading it) and an import
 * refuses an entry declaring more (brain-archive.ts, from the zip's directory). The import holds each file whole
 * and writes it into the project in one write.
 */
export const maxArchivedFileBytes = 64 * 1024 * 1024;

/**
 * The export's refusal of a file past `maxArchivedFileBytes`. Refused rather than left out: an archive is a backup,
 * and one silently missing a file would be found out only when it is restored; named, the person can act on it.
 */
export const archivedFileTooLarge = (path: string, bytes: number) =>
  new BrainError(
    'TooLarge',
    `${path} is ${bytes} bytes, more than the ${maxArchivedFileBytes} (${maxArchivedFileBytes / 1024 / 1024} MiB) ` +
      `a whole-brain archive holds for one ${agentDir} file (an import refuses more), so nothing was exported. ` +
      'Make the file smaller (move its older part to another file) and export again.',
    { path, bytes, maxBytes: maxArchivedFileBytes },
  );

export interface ArchiveManifest {
  readonly format: typeof archiveFormat;
  readonly version: number;
  readonly createdAt: number;
  readonly database: { readonly bytes: number; readonly sha256: string; readonly schemaVersion: number };
  readonly files: readonly { readonly path: string; readonly bytes: number; readonly sha256: string }[];
}

export const corruptArchive = (why: string) =>
  new BrainError('CorruptArchive', `This archive cannot be imported: ${why}. Nothing was changed.`);

/** The archive's zip could not be read as one (fflate's message, or the manifest reader's). */
export const damagedZip = (why: string) => corruptArchive(`the zip is damaged or truncated (${why})`);

/** `path` as a file inside `.agent/`, exactly as written; anything else is refused with PathEscapes. */
export function agentPath(path: string): string {
  const normal = normaliseProjectPath(path);
  if (normal !== path || !normal.startsWith(`${agentDir}/`)) {
    throw new BrainError(
      'PathEscapes',
      `The archive names "${path}", which is not a file inside ${agentDir}/. Nothing was changed.`,
    );
  }
  return normal;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function fileOf(value: unknown): ArchiveManifest['files'][number] {
  if (!isRecord(value) || typeof value.path !== 'string' || !isCount(value.bytes)) {
    throw corruptArchive('its manifest lists a file without a path and size');
  }
  if (typeof value.sha256 !== 'string') throw corruptArchive(`its manifest gives ${value.path} no SHA-256`);
  return { path: agentPath(value.path), bytes: value.bytes, sha256: value.sha256 };
}

/**
 * Validates the bytes of `manifest.json` (null: the zip has none): JSON, format, format version, the database's
 * size, hash and schema version (a newer one than this build knows is refused), every listed file's path (inside
 * `.agent/`), size and hash. Returns only the fields it checked. Throws CorruptArchive, NewerSchema, PathEscapes.
 */
export function parseManifest(
  raw: Uint8Array | null,
  options: { readonly knownSchemaVersion: number },
): ArchiveManifest {
  if (!raw) throw corruptArchive('it has no manifest.json (is it an agent-brain archive?)');
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    throw corruptArchive('its manifest is not valid JSON');
  }
  if (!isRecord(manifest) || manifest.format !== archiveFormat) {
    throw corruptArchive('its manifest is not an agent-brain manifest');
  }
  const { version, createdAt, database, files } = manifest;
  if (typeof version !== 'number' || version > archiveVersion) {
    throw new BrainError(
      'NewerSchema',
      `This archive was written in format ${String(version)} by a newer agent-brain; update the app to import it. Nothing was changed.`,
    );
  }
  if (!isRecord(database) || !Array.isArray(files))
    throw corruptArchive('its manifest lacks the database or file list');
  const { bytes, sha256, schemaVersion } = database;
  if (
    typeof createdAt !== 'number' ||
    !isCount(bytes) ||
    typeof sha256 !== 'string' ||
    !isCount(schemaVersion)
  ) {
    throw corruptArchive(
      'its manifest lacks the time it was made or the database size, hash or schema version',
    );
  }
  if (schemaVersion > options.knownSchemaVersion) {
    throw new BrainError(
      'NewerSchema',
      `This archive's database has schema version ${schemaVersion}; this build knows up to ${options.knownSchemaVersion}. Update the app to import it. Nothing was changed.`,
    );
  }
  return {
    format: archiveFormat,
    version,
    createdAt,
    database: { bytes, sha256, schemaVersion },
    files: files.map(fileOf),
  };
}

/**
 * The validated manifest of the archive `zip`, read without inflating any other entry and without inflating
 * more than `maxManifestBytes` of it. Throws CorruptArchive (not a zip, no or a bad manifest), TooLarge (a
 * manifest past the bound, whatever its header declares), NewerSchema and PathEscapes as `parseManifest`.
 */
export function readArchiveManifest(
  zip: Uint8Array,
  options: { readonly knownSchemaVersion: number },
): ArchiveManifest {
  let read;
  try {
    read = readZipEntry(zip, manifestEntry, maxManifestBytes);
  } catch (error) {
    if (error instanceof DamagedZip) throw damagedZip(error.message);
    throw error;
  }
  if (read.kind === 'too-large') {
    throw new BrainError(
      'TooLarge',
      `This archive cannot be imported: its manifest.json ${read.declared === null ? 'inflates to' : `declares ${read.declared} bytes,`} more than the ${maxManifestBytes / 1024 / 1024} MiB a manifest may hold. Nothing was changed.`,
    );
  }
  return parseManifest(read.kind === 'read' ? read.bytes : null, options);
}
