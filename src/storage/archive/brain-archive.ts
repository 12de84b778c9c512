/**
 * The whole-brain archive: one zip holding agent.db, the project's `.agent` folder and a manifest of versions,
 * sizes and SHA-256 hashes. Unpacking validates everything — zip structure, manifest, every path, every size
 * and hash, the schema version — before the caller touches the current brain, so a bad archive changes nothing.
 */
import { unzipSync, zipSync, type Unzipped } from 'fflate';
import { BrainError } from '../../core/errors';
import { sha256, toHex } from '../blobs/sha256';
import {
  agentPath,
  archiveFormat,
  archiveVersion,
  corruptArchive,
  damagedZip,
  manifestEntry,
  readArchiveManifest,
  type ArchiveManifest,
} from './manifest';

const DB_ENTRY = 'agent.db';
const PROJECT_PREFIX = 'project/';
/** A declared size past this is refused before anything is inflated (a zip bomb, or not ours). */
export const maxArchiveEntryBytes = 1024 * 1024 * 1024;
export const maxArchiveTotalBytes = 2 * 1024 * 1024 * 1024;

export interface ArchiveFile {
  /** A project path under `.agent/`, e.g. `.agent/MEMORY.md`. */
  readonly path: string;
  readonly bytes: Uint8Array;
}

export interface BrainArchive {
  readonly manifest: ArchiveManifest;
  readonly database: Uint8Array;
  readonly files: readonly ArchiveFile[];
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
  entries[manifestEntry] = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  entries[DB_ENTRY] = input.database;
  return zipSync(entries, { level: 6 });
}

async function verify(
  what: string,
  bytes: Uint8Array | undefined,
  size: number,
  hash: string,
): Promise<Uint8Array> {
  if (!bytes) throw corruptArchive(`${what} is listed in the manifest but missing from the zip`);
  if (bytes.byteLength !== size)
    throw corruptArchive(`${what} is ${bytes.byteLength} bytes, the manifest says ${size}`);
  if (toHex(await sha256(bytes)) !== hash)
    throw corruptArchive(`${what} does not match its SHA-256 in the manifest`);
  return bytes;
}

/** Validates and unpacks; throws CorruptArchive, PathEscapes, NewerSchema or TooLarge. Touches nothing. */
export async function unpackBrainArchive(
  zip: Uint8Array,
  options: { readonly knownSchemaVersion: number },
): Promise<BrainArchive> {
  // The manifest first, by the same bounded reader the preview uses: one set of rules for both.
  const manifest = readArchiveManifest(zip, options);
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
        return file.name !== manifestEntry;
      },
    });
  } catch (error) {
    if (error instanceof BrainError) throw error;
    throw damagedZip(error instanceof Error ? error.message : String(error));
  }
  const listed = new Set([manifestEntry, DB_ENTRY]);
  const files: ArchiveFile[] = [];
  for (const { path, bytes, sha256: hash } of manifest.files) {
    listed.add(PROJECT_PREFIX + path);
    files.push({ path, bytes: await verify(path, entries[PROJECT_PREFIX + path], bytes, hash) });
  }
  for (const name of Object.keys(entries)) {
    if (name.endsWith('/')) continue;
    if (!listed.has(name)) {
      if (name.startsWith(PROJECT_PREFIX)) agentPath(name.slice(PROJECT_PREFIX.length));
      throw corruptArchive(`it holds ${name}, which the manifest does not list`);
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
