/**
 * The whole-brain archive: one zip holding agent.db, the project's `.agent` folder and a manifest of versions,
 * sizes and SHA-256 hashes. Unpacking validates everything — zip structure, manifest, every path, every size
 * and hash, the schema version — before the caller touches the current brain, so a bad archive changes nothing.
 * It never inflates the whole zip at once: sizes are judged from the directory, and each entry is read alone
 * through the bounded reader (zip-entry.ts), so a bomb is refused at the cost of one entry at most.
 */
import { zipSync } from 'fflate';
import { BrainError } from '../../core/errors';
import { agentDir } from '../../core/paths';
import { sha256, toHex } from '../blobs/sha256';
import {
  agentPath,
  archivedFileTooLarge,
  archiveFormat,
  archiveVersion,
  corruptArchive,
  damagedZip,
  manifestEntry,
  maxArchivedFileBytes,
  readArchiveManifest,
  type ArchiveManifest,
} from './manifest';
import { sqliteHeaderBytes, sqliteHeaderProblem } from './sqlite-header';
import { DamagedZip, listZipEntries, type ZipEntry } from './zip-directory';
import { readEntryBytes } from './zip-entry';

const DB_ENTRY = 'agent.db';
const PROJECT_PREFIX = 'project/';
/**
 * The most agent.db, and everything an archive holds together, may declare; past it the archive is refused before
 * anything is inflated (a zip bomb, or not ours). Refusing costs at most this plus one inflate slice.
 */
export const maxArchiveBytes = 1024 * 1024 * 1024;

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
    if (file.bytes.byteLength > maxArchivedFileBytes) throw archivedFileTooLarge(path, file.bytes.byteLength);
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

const MiB = 1024 * 1024;

/** The zip's entries by name, from its directory (nothing inflated); a name twice is refused. */
function entriesByName(zip: Uint8Array): Map<string, ZipEntry> {
  let entries: ZipEntry[];
  try {
    entries = listZipEntries(zip);
  } catch (error) {
    if (error instanceof DamagedZip) throw damagedZip(error.message);
    throw error;
  }
  const byName = new Map<string, ZipEntry>();
  for (const entry of entries) {
    if (byName.has(entry.name)) throw corruptArchive(`it holds ${entry.name} twice`);
    byName.set(entry.name, entry);
  }
  return byName;
}

interface Wanted {
  readonly what: string;
  readonly entry: ZipEntry;
  readonly bytes: number;
  readonly sha256: string;
}

/** What the archive must hold, found in its directory; refuses by names and declared sizes, inflating nothing. */
function plan(zip: Uint8Array, manifest: ArchiveManifest, maxFileBytes: number) {
  const byName = entriesByName(zip);
  const find = (what: string, name: string) => {
    const entry = byName.get(name);
    if (!entry) throw corruptArchive(`${what} is listed in the manifest but missing from the zip`);
    return entry;
  };
  const files = manifest.files.map((file): Wanted => ({
    what: file.path,
    entry: find(file.path, PROJECT_PREFIX + file.path),
    ...file,
  }));
  const listed = new Set([manifestEntry, DB_ENTRY, ...files.map((file) => file.entry.name)]);
  for (const name of byName.keys()) {
    if (name.endsWith('/') || listed.has(name)) continue;
    if (name.startsWith(PROJECT_PREFIX)) agentPath(name.slice(PROJECT_PREFIX.length));
    throw corruptArchive(`it holds ${name}, which the manifest does not list`);
  }
  const database: Wanted = { what: DB_ENTRY, entry: find(DB_ENTRY, DB_ENTRY), ...manifest.database };
  checkSizes(database, files, maxFileBytes);
  return { database, files };
}

/** Declared sizes against the bounds of their kind, their total, and the manifest. */
function checkSizes(database: Wanted, files: readonly Wanted[], maxFileBytes: number) {
  const tooLarge = (entry: ZipEntry, why: string) =>
    new BrainError(
      'TooLarge',
      `The archive entry ${entry.name} declares ${entry.declaredSize} bytes; ${why}.`,
    );
  if (database.entry.declaredSize > maxArchiveBytes)
    throw tooLarge(database.entry, 'that is more than a brain holds');
  for (const { entry } of files) {
    if (entry.declaredSize > maxFileBytes)
      throw tooLarge(entry, `an ${agentDir} file may hold at most ${maxFileBytes / MiB} MiB`);
  }
  // What the brain would hold (the manifest has its own bound, in readArchiveManifest).
  let total = 0;
  for (const { entry } of [database, ...files]) total += entry.declaredSize;
  if (total > maxArchiveBytes)
    throw new BrainError('TooLarge', 'The archive declares more data than a brain holds.');
  for (const { what, entry, bytes } of [database, ...files]) {
    if (entry.declaredSize !== bytes)
      throw corruptArchive(`${what} is ${entry.declaredSize} bytes, the manifest says ${bytes}`);
  }
}

/** The entry's bytes, inflated alone and bounded by its declared size (the manifest's), checked by its hash. */
async function readVerified(
  zip: Uint8Array,
  { what, entry, sha256: hash }: Wanted,
  head?: (head: Uint8Array) => void,
): Promise<Uint8Array> {
  let bytes: Uint8Array;
  try {
    bytes = readEntryBytes(zip, entry, head && { bytes: sqliteHeaderBytes, check: head });
  } catch (error) {
    if (error instanceof DamagedZip) throw damagedZip(error.message);
    throw error;
  }
  if (toHex(await sha256(bytes)) !== hash)
    throw corruptArchive(`${what} does not match its SHA-256 in the manifest`);
  return bytes;
}

/**
 * Validates and unpacks; throws CorruptArchive, PathEscapes, NewerSchema or TooLarge. Touches nothing. Every
 * refusal that the zip's directory can give comes before anything but the manifest is inflated: names (each
 * once, each listed), declared sizes (agent.db and the total at most `maxArchiveBytes`, an `.agent` file at most
 * `maxFileBytes` — by default `maxArchivedFileBytes`, the bound the export keeps to — each the manifest's). Then entries are inflated one at a time, agent.db first, each stopping at
 * its declared size; agent.db is refused by its first 100 bytes unless they are an SQLite header of that size.
 */
export async function unpackBrainArchive(
  zip: Uint8Array,
  options: { readonly knownSchemaVersion: number; readonly maxFileBytes?: number },
): Promise<BrainArchive> {
  // The manifest first, by the same bounded reader the preview uses: one set of rules for both.
  const manifest = readArchiveManifest(zip, options);
  const wanted = plan(zip, manifest, options.maxFileBytes ?? maxArchivedFileBytes);
  const database = await readVerified(zip, wanted.database, (head) => {
    const problem = sqliteHeaderProblem(head, wanted.database.entry.declaredSize);
    if (problem) throw corruptArchive(`its agent.db is not an SQLite database (${problem})`);
  });
  const files: ArchiveFile[] = [];
  for (const file of wanted.files) files.push({ path: file.what, bytes: await readVerified(zip, file) });
  return { manifest, database, files };
}
