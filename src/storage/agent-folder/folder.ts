/**
 * One interface for a project folder, whatever holds it: a folder the user picked (a File System Access
 * directory handle), an OPFS folder (imported files, the demo project), or anything else that can implement it.
 * Paths are project-relative and are normalised (escapes refused) by the implementation.
 */
import type { ProjectPath } from '../../core/paths';

/** Which kind of folder it is: shown to the user, never branched on by the code that reads and writes. */
export type FolderKind = 'handle' | 'opfs' | 'demo';

/**
 * `FileVersion` (declared with the API): an opaque token for "the file as it was when read": size, modification
 * time and (up to a size limit) a hash of the bytes, so an edit made in the same millisecond with the same size is
 * still seen.
 */
import type { FileVersion } from '../../core/api/project';
export type { FileVersion };

export interface FileInfo {
  readonly path: ProjectPath;
  readonly size: number;
  /** Epoch ms. */
  readonly lastModified: number;
}

export interface FileRead extends FileInfo {
  readonly bytes: Uint8Array;
  readonly version: FileVersion;
}

export interface FolderEntry {
  readonly path: ProjectPath;
  readonly kind: 'file' | 'directory';
}

export interface WriteOptions {
  /**
   * The version read before: the write fails with `Conflict` (and writes nothing) if the file changed since.
   * `null`: the file must not exist yet. `undefined`: write whatever is there (use only for files the engine owns).
   */
  readonly expectedVersion?: FileVersion | null;
}

export interface FolderLimits {
  /** Files larger than this are not read whole (`TooLarge`); read a range or stream them instead. */
  readonly maxReadBytes: number;
  /** Files up to this size get a content hash in their version. */
  readonly maxHashBytes: number;
}

export const defaultFolderLimits: FolderLimits = {
  maxReadBytes: 16 * 1024 * 1024,
  maxHashBytes: 16 * 1024 * 1024,
};

export interface AgentFolder {
  readonly kind: FolderKind;
  /** The folder's name (a picked folder's own name, or the OPFS project name). */
  readonly name: string;
  readonly limits: FolderLimits;
  /** Whether this page may read and write it now ('prompt': ask again on a click, on the main thread). */
  permission(): Promise<PermissionState>;
  /** 'file', 'directory', or null when nothing is there. */
  kindOf(path: string): Promise<'file' | 'directory' | null>;
  /** Size and time without reading; null when the file does not exist. */
  stat(path: string): Promise<FileInfo | null>;
  /** The whole file; `TooLarge` above `maxBytes` (default `limits.maxReadBytes`), `NotFound` when missing. */
  read(path: string, options?: { readonly maxBytes?: number }): Promise<FileRead>;
  /** Bytes [start, end) and the file's info at that moment. */
  readRange(path: string, start: number, end: number): Promise<{ bytes: Uint8Array; info: FileInfo }>;
  /** The file as a stream of chunks, for files too large to read whole. */
  stream(path: string): Promise<{ stream: ReadableStream<Uint8Array>; info: FileInfo }>;
  /** The current version token; null when the file does not exist. */
  version(path: string): Promise<FileVersion | null>;
  /** Replaces the file atomically (written aside, swapped in on close), creating parent folders as needed. */
  write(path: string, bytes: Uint8Array, options?: WriteOptions): Promise<FileRead>;
  /** Adds bytes at the end atomically; earlier bytes are never rewritten. Creates the file when missing. */
  append(
    path: string,
    bytes: Uint8Array,
    options?: WriteOptions,
  ): Promise<FileInfo & { version: FileVersion }>;
  /** Creates the folder and its parents (no-op when it exists; `NotADirectory` when a file is in the way). */
  makeDirectory(path: string): Promise<void>;
  remove(path: string, options?: WriteOptions & { readonly recursive?: boolean }): Promise<void>;
  /** Entries under `dir` ('' is the root), sorted by path; `skip` names folders not to descend into. */
  list(
    dir: string,
    options?: { readonly recursive?: boolean; readonly skip?: ReadonlySet<string> },
  ): Promise<FolderEntry[]>;
}

/** Folders no listing, import or export descends into by default: the one list, declared in core. */
export { skippedDirectoryNames } from '../../core/formats/skipped-folders';
