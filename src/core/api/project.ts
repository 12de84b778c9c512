/**
 * The project folder API: open a project (a picked folder, an OPFS folder, the demo), read and write its `.agent`
 * files safely, skills, other agents' memory, import and export. Plain data only, except the directory handle a
 * caller passes to `openProject` (handles are structured-cloneable). Documented in the README's API reference.
 */
import type {
  AgentFileKind,
  AgentFileView,
  AgentLogEntry,
  FormatProblem,
  JsonlLine,
  OtherAgentConvention,
  SkippedFolder,
} from '../formats';
import type { CheckpointEntryId, SessionId, TaskId } from '../ids';
import type { Json } from '../model';

export type {
  AgentFileKind,
  AgentFileView,
  AgentLogEntry,
  AgentLogRecord,
  FormatProblem,
  FormatProblemCode,
  JsonlLine,
  OtherAgentConvention,
  PlanItem,
  PlanItemStatus,
  ProgressEntry,
  SkippedFolder,
} from '../formats';

/** An opaque token for "the file as read" (size, time, content hash). Pass it back to write. */
export type FileVersion = string;

export type ProjectSource =
  /** The built-in demo project in OPFS (created on first open; `reset` puts back its original files). */
  | { readonly kind: 'demo'; readonly reset?: boolean }
  /** A folder the user picked on the main thread (`showDirectoryPicker`), posted here as its handle. */
  | { readonly kind: 'handle'; readonly handle: FileSystemDirectoryHandle }
  /** A project kept in OPFS under this name (imported earlier); `create` makes an empty one. */
  | { readonly kind: 'opfs'; readonly name: string; readonly create?: boolean };

export type ProjectKind = 'demo' | 'handle' | 'opfs';

export interface ProjectInfo {
  readonly kind: ProjectKind;
  readonly name: string;
  /** `missing`: offer `createAgentFolder()`; `not-a-directory`: a file named `.agent` is in the way. */
  readonly agentFolder: 'present' | 'missing' | 'not-a-directory';
  /** What to tell the user about the folder, or null when all is well. */
  readonly message: string | null;
}

export interface StoredProject {
  readonly name: string;
  readonly kind: 'demo' | 'opfs';
}

export interface ProjectFileInfo {
  readonly path: string;
  readonly size: number;
  /** Epoch ms. */
  readonly lastModified: number;
}

export interface AgentFileSummary extends ProjectFileInfo {
  readonly kind: AgentFileKind;
  /** Null for a file too large to hash (its problems say so). */
  readonly version: FileVersion | null;
  readonly problems: readonly FormatProblem[];
}

export interface AgentFileContent extends ProjectFileInfo {
  readonly kind: AgentFileKind;
  readonly text: string;
  readonly version: FileVersion;
  readonly problems: readonly FormatProblem[];
  /** The parsed content (plan items, memory entries, log records, skill fields …). */
  readonly view: AgentFileView;
}

export interface ProjectFileBytes extends ProjectFileInfo {
  readonly bytes: Uint8Array;
  readonly version: FileVersion;
}

export interface WrittenFile extends ProjectFileInfo {
  readonly version: FileVersion;
}

export interface WriteFileOptions {
  /** The version read before; `null` when the file must not exist yet. A stale one fails with `Conflict`. */
  readonly expectedVersion: FileVersion | null;
}

/** `writeProjectFile`'s options: the version check, and the one opt-in to write another agent's memory file. */
export interface ProjectWriteOptions extends WriteFileOptions {
  /**
   * `true` writes another agent's memory file (`AGENTS.md`, `CLAUDE.md`, `.cursor/rules/…`: the paths
   * `listOtherAgentMemory` lists), which is otherwise refused with `PermissionDenied`. Pass it only for a write the
   * person asked for in so many words (e.g. ticking "also add a pointer line to AGENTS.md"): those files steer
   * other agents. `expectedVersion` is checked as for any file (a concurrent edit is a `Conflict`, nothing
   * written). `false` is the same as leaving it out; a value that is not a boolean is `InvalidArgument`.
   */
  readonly otherAgentMemory?: boolean;
}

export interface JsonlAppendResult extends WrittenFile {
  readonly appended: number;
  /** The file ended mid-line (a cut-short write); a line ending was added before the new records. */
  readonly repairedTornLine: boolean;
}

export interface JsonlTailResult {
  readonly path: string;
  readonly size: number;
  /** Byte offset where the returned lines start (a line boundary). */
  readonly startByte: number;
  /** File line number of the first returned line; null when not counted (then lines count from 1). */
  readonly firstLine: number | null;
  /** Every line in the window, blank and malformed ones included (kept verbatim). */
  readonly lines: readonly JsonlLine[];
  /** The lines that are valid records (`{ v, ts, kind, … }`). */
  readonly records: readonly AgentLogEntry[];
  readonly torn: boolean;
  readonly problems: readonly FormatProblem[];
}

export interface SkillSummary {
  readonly name: string;
  readonly path: string;
  readonly description: string;
  readonly version: FileVersion | null;
  readonly problems: readonly FormatProblem[];
}

export interface OtherAgentFile extends ProjectFileInfo {
  readonly convention: OtherAgentConvention;
  /** The agent whose file it is ("Cursor", "Gemini CLI", …). */
  readonly agent: string;
  /** What the file is to that agent ("project rule", "instructions", …). */
  readonly role: string;
  readonly version: FileVersion | null;
  readonly problems: readonly FormatProblem[];
}

export interface ProjectEntry {
  readonly path: string;
  readonly kind: 'file' | 'directory';
}

/** A file to import: a project-relative `/` path and its bytes (a File from an input or a drop is a Blob). */
export interface ProjectFileInput {
  readonly path: string;
  readonly data: Blob | Uint8Array;
}

export interface ProjectImportOptions {
  /** The OPFS project name to import into. */
  readonly name: string;
  /** Replace an existing project of that name (default: `Conflict`). */
  readonly replace?: boolean;
  /**
   * Folders the caller left out before sending (`filesFromDataTransfer` does not walk `.git` or `node_modules`):
   * reported back in the result's `skipped` with what the import itself leaves out.
   */
  readonly skipped?: readonly SkippedFolder[];
}

export interface ProjectImportResult {
  readonly project: ProjectInfo;
  readonly files: number;
  readonly bytes: number;
  /** Folders not imported (`.git`, `node_modules`, wherever they are), zip and folder imports alike. */
  readonly skipped: readonly SkippedFolder[];
}

/** What to roll back: some checkpoint entries, or every entry of a task. */
export type RestoreTarget = { readonly entryIds: readonly CheckpointEntryId[] } | { readonly taskId: TaskId };

/**
 * - `clean`: as the checkpoint left it — safe to restore;
 * - `changed`: changed since the checkpoint's after-state — restoring overwrites that, so the user decides;
 * - `already-restored`: already holds the before-state — nothing to write;
 * - `unavailable`: cannot be restored (`reason`: bodies removed by cleanup, too large, path outside the project…).
 */
export type RestoreFileState = 'clean' | 'changed' | 'already-restored' | 'unavailable';

export interface RestoreFilePlan {
  readonly path: string;
  /** The entries for this path, oldest first: it goes back to the oldest one's before-state. */
  readonly entryIds: readonly CheckpointEntryId[];
  /** `delete` when the file did not exist before; `none` when nothing is to be written. */
  readonly action: 'write' | 'delete' | 'none';
  readonly state: RestoreFileState;
  readonly reason: string | null;
  /** The file's version now (null: absent); pass it back in `restoreCheckpoints` to confirm this file. */
  readonly currentVersion: FileVersion | null;
  readonly taskIds: readonly TaskId[];
}

export interface RestorePlan {
  readonly target: RestoreTarget;
  readonly files: readonly RestoreFilePlan[];
}

export interface RestoreInput {
  readonly target: RestoreTarget;
  /** The files the user confirmed (changed ones only if they chose to overwrite), with the plan's versions. */
  readonly files: readonly { readonly path: string; readonly expectedVersion: FileVersion | null }[];
}

export interface RestoreResult {
  /** The task the restore was recorded under (its checkpoint entries undo it); null when nothing was written. */
  readonly restoreTaskId: TaskId | null;
  readonly restored: readonly {
    readonly path: string;
    readonly entryId: CheckpointEntryId;
    readonly action: 'write' | 'delete';
  }[];
}

/**
 * The project a session belongs to: the folder the agent worked in (an imported session's `cwd` / root, a
 * recorder's `root`). Its files are that folder's: the plan, the resume point's files, the handoff and rollback
 * use the open folder only when it is this project (its name is the project's), never another open project.
 */
export interface SessionProject {
  /** The folder's name: the last segment of the agent's working directory (`ledger` of `/home/dev/ledger`). */
  readonly name: string;
  /** The working directory as the agent saw it (`/testbed`, `/home/dev/ledger`). */
  readonly path: string;
  /** The name of the folder the person said is this project (`confirmSessionProject`), or null. */
  readonly folder: string | null;
  /** The open folder is this project: its name is in `path` (the folder or one above it), or it is `folder`. */
  readonly open: boolean;
}

export interface ProjectApi {
  openProject(source: ProjectSource): Promise<ProjectInfo>;
  closeProject(): Promise<void>;
  /** The open project, or null. */
  projectInfo(): Promise<ProjectInfo | null>;
  /** Projects kept in this browser's OPFS (the demo and imported ones). */
  listProjects(): Promise<StoredProject[]>;
  deleteProject(name: string): Promise<void>;
  /** Creates `.agent/` with starter files when it is missing; never overwrites. */
  createAgentFolder(): Promise<{ project: ProjectInfo; created: string[] }>;

  listAgentFiles(): Promise<AgentFileSummary[]>;
  readAgentFile(path: string): Promise<AgentFileContent>;
  writeAgentFile(path: string, text: string, options: WriteFileOptions): Promise<WrittenFile>;
  appendJsonl(
    path: string,
    records: readonly Json[],
    options?: { readonly expectedVersion?: FileVersion },
  ): Promise<JsonlAppendResult>;
  readJsonlTail(
    path: string,
    options?: { readonly maxBytes?: number; readonly countLines?: boolean },
  ): Promise<JsonlTailResult>;

  listSkills(): Promise<SkillSummary[]>;
  readSkill(name: string): Promise<AgentFileContent>;
  saveSkill(name: string, text: string, options: WriteFileOptions): Promise<WrittenFile>;

  listOtherAgentMemory(): Promise<OtherAgentFile[]>;

  listProjectFiles(dir?: string): Promise<ProjectEntry[]>;
  readProjectFile(path: string): Promise<AgentFileContent>;
  readProjectBytes(path: string): Promise<ProjectFileBytes>;
  /** Any project file; another agent's memory file only with `{ otherAgentMemory: true }` (`PermissionDenied`). */
  writeProjectFile(
    path: string,
    content: string | Uint8Array,
    options: ProjectWriteOptions,
  ): Promise<WrittenFile>;
  deleteProjectFile(path: string, options: { readonly expectedVersion: FileVersion }): Promise<void>;

  importFolderFiles(
    files: readonly ProjectFileInput[],
    options: ProjectImportOptions,
  ): Promise<ProjectImportResult>;
  exportProjectZip(): Promise<Uint8Array>;
  importProjectZip(bytes: Uint8Array, options: ProjectImportOptions): Promise<ProjectImportResult>;

  /**
   * The project of a session's agent (from its working directory), or null when the session names none (it then
   * uses whatever folder is open, as the brain's own sessions do).
   */
  sessionProject(sessionId: SessionId): Promise<SessionProject | null>;
  /**
   * The person says the open folder is the session's project (a checkout of another name than the agent's
   * folder): recorded for that working directory, so every session of it uses this folder from then on. Ask
   * first, naming both. `NotFound` with no folder open; `InvalidArgument` for a session that names no folder.
   */
  confirmSessionProject(sessionId: SessionId): Promise<SessionProject>;

  /** Which files a rollback would write, each flagged if it changed since the checkpoint. Writes nothing. */
  planRestore(target: RestoreTarget): Promise<RestorePlan>;
  /**
   * Writes the before-states of the confirmed files (a file changed since the plan: `Conflict`, nothing
   * written) and checkpoints the restore itself under a new "Restore: …" task, so `planRestore({ taskId })` of
   * that task undoes it.
   */
  restoreCheckpoints(input: RestoreInput): Promise<RestoreResult>;
}
