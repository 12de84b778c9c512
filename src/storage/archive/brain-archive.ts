/**
 * The whole-brain archive: one zip holding agent.db, the project's `.agent` folder and a manifest of versions,
 * sizes and SHA-256 hashes. Unpacking validates everything — zip structure, manifest, every path, every size
 * and hash, the schema version — before the caller touches the current brain, so a bad archive changes nothing.
 */
import { unzipSync, zipSync, type Unzipped } from 'fflate';
import { BrainError } from '../../core/errors';
import { agentDir, normaliseProjectPath } from '../../core/paths';
import { sha256, toHex } from '../blobs/sha256';

export const archiveFormat = 'agent-brain-archive';
export const archiveVersion = 1;
const DB_ENTRY = 'agent.db';
const MANIFEST_ENTRY = 'manifest.json';
const PROJECT_PREFIX = 'project/';
/** A declared size past this is refused before anything is inflated (a zip bomb, or not ours). */
export const maxArchiveEntryBytes = 1024 * 1024 * 1024;
export const maxArchiveTotalBytes = 2 * 1024 * 1024 * 1024;

export interface ArchiveFile {
  /** A project path under `.agent/`, e.g. `.agent/MEMORY.md`. */
  readonly path: string;
  readonly bytes: Uint8Array;
}

export interface ArchiveManifest {
  readonly format: typeof archiveFormat;
  readonly version: number;
  readonly createdAt: number;
  readonly database: { readonly bytes: number; readonly sha256: string; readonly schemaVersion: number };
  readonly files: readonly { readonly path: string; readonly bytes: number; readonly sha256: string }[];
}

export interface BrainArchive {
  readonly manifest: ArchiveManifest;
  readonly database: Uint8Array;
  readonly files: readonly ArchiveFile[];
}

const corrupt = (why: string) =>
  new BrainError('CorruptArchive', `This archive cannot be imported: ${why}. Nothing was changed.`);

function agentPath(path: string): string {
  const normal = normaliseProjectPath(path);
  if (normal !== path || !normal.startsWith(`${agentDir}/`)) {
    throw new BrainError(
      'PathEscapes',
      `The archive names "${path}", which is not a file inside ${agentDir}/. Nothing was changed.`,
    );
  }
  return normal;
}

export async function packBrainArchive(input: {
  readonly database: Uint8Array;
  readonly schemaVersion: number;
  readonly files: readonly ArchiveFile[];
  readonly createdAt: number;
}): Promise<Uint8Array> {
  const files = [];
  const entries: Record<string, Uint8Array> = {};
  for (const file of input.files) {
    const path = agentPath(file.path);
    files.push({ path, bytes: file.bytes.byteLength, sha256: toHex(await sha256(file.bytes)) });
    entries[PROJECT_PREFIX + path] = file.bytes;
  }
  const manifest: ArchiveManifest = {
    format: archiveFormat,
    version: archiveVersion,
    createdAt: input.createdAt,
    database: {
      bytes: input.database.byteLength,
      sha256: toHex(await sha256(input.database)),
      schemaVersion: input.schemaVersion,
    },
    files,
  };
  entries[MANIFEST_ENTRY] = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  entries[DB_ENTRY] = input.database;
  return zipSync(entries, { level: 6 });
}

function readManifest(entries: Unzipped): ArchiveManifest {
  const raw = entries[MANIFEST_ENTRY];
  if (!raw) throw corrupt('it has no manifest.json (is it an agent-brain archive?)');
  let manifest: ArchiveManifest;
  try {
    manifest = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw)) as ArchiveManifest;
  } catch {
    throw corrupt('its manifest is not valid JSON');
  }
  if (manifest?.format !== archiveFormat) throw corrupt('its manifest is not an agent-brain manifest');
  if (typeof manifest.version !== 'number' || manifest.version > archiveVersion) {
    throw new BrainError(
      'NewerSchema',
      `This archive was written in format ${String(manifest.version)} by a newer agent-brain; update the app to import it. Nothing was changed.`,
    );
  }
  if (!manifest.database || !Array.isArray(manifest.files))
    throw corrupt('its manifest lacks the database or file list');
  return manifest;
}

async function verify(
  what: string,
  bytes: Uint8Array | undefined,
  size: number,
  hash: string,
): Promise<Uint8Array> {
  if (!bytes) throw corrupt(`${what} is listed in the manifest but missing from the zip`);
  if (bytes.byteLength !== size)
    throw corrupt(`${what} is ${bytes.byteLength} bytes, the manifest says ${size}`);
  if (toHex(await sha256(bytes)) !== hash)
    throw corrupt(`${what} does not match its SHA-256 in the manifest`);
  return bytes;
}

/** Validates and unpacks; throws CorruptArchive, PathEscapes, NewerSchema or TooLarge. Touches nothing. */
export async function unpackBrainArchive(
  zip: Uint8Array,
  options: { readonly knownSchemaVersion: number },
): Promise<BrainArchive> {
  let total = 0;
  let entries: Unzipped;
  try {
    entries = unzipSync(zip, {
      filter(file) {
        if (file.originalSize > maxArchiveEntryBytes) {
          throw new BrainError(
            'TooLarge',
            `The archive entry ${file.name} declares ${file.originalSize} bytes; that is more than a brain holds.`,
          );
        }
        total += file.originalSize;
        if (total > maxArchiveTotalBytes)
          throw new BrainError('TooLarge', 'The archive declares more data than a brain holds.');
        return true;
      },
    });
  } catch (error) {
    if (error instanceof BrainError) throw error;
    throw corrupt(
      `the zip is damaged or truncated (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const manifest = readManifest(entries);
  if (manifest.database.schemaVersion > options.knownSchemaVersion) {
    throw new BrainError(
      'NewerSchema',
      `This archive's database has schema version ${manifest.database.schemaVersion}; this build knows up to ${options.knownSchemaVersion}. Update the app to import it. Nothing was changed.`,
    );
  }
  const listed = new Set([MANIFEST_ENTRY, DB_ENTRY]);
  const files: ArchiveFile[] = [];
  for (const file of manifest.files) {
    const path = agentPath(String(file.path));
    listed.add(PROJECT_PREFIX + path);
    files.push({ path, bytes: await verify(path, entries[PROJECT_PREFIX + path], file.bytes, file.sha256) });
  }
  for (const name of Object.keys(entries)) {
    if (name.endsWith('/')) continue;
    if (!listed.has(name)) {
      if (name.startsWith(PROJECT_PREFIX)) agentPath(name.slice(PROJECT_PREFIX.length));
      throw corrupt(`it holds ${name}, which the manifest does not list`);
    }
  }
  const database = await verify(
    'agent.db',
    entries[DB_ENTRY],
    manifest.database.bytes,
    manifest.database.sha256,
  );
  return { manifest, database, files };
}
