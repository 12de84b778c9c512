/**
 * The project folder feature: which project is open (one per engine), and the API over its files. Everything
 * about bytes and formats lives in storage/agent-folder and core/formats; this module validates input, keeps
 * the open folder, announces changes (`project` topic) and hands the memory features their file port.
 */
import { BrainError } from '../../core/errors';
import { otherAgentConvention, skillFilePath, skillNameProblem, validateSkillText } from '../../core/formats';
import { asTaskId, type CheckpointEntryId, type TaskId } from '../../core/ids';
import { requireId, type Json } from '../../core/model';
import { isAgentPath, normaliseProjectDir, normaliseProjectPath } from '../../core/paths';
import { seedDemoProject } from '../../storage/agent-folder/demo-project';
import {
  defaultFolderLimits,
  skippedDirectoryNames,
  type AgentFolder,
  type FolderLimits,
} from '../../storage/agent-folder/folder';
import { createHandleFolder } from '../../storage/agent-folder/handle-folder';
import { checkImportPaths, writeImportedFiles, type ImportFile } from '../../storage/agent-folder/import';
import { appendJsonlLines, appendJsonlRecords, readJsonlTail } from '../../storage/agent-folder/jsonl-file';
import {
  defaultOpfsRoot,
  deleteOpfsProject,
  demoProjectName,
  listOpfsProjects,
  openOpfsProject,
  opfsProjectExists,
  requireProjectName,
  type OpfsRoot,
} from '../../storage/agent-folder/opfs-projects';
import {
  agentFolderState,
  listAgentFiles,
  listOtherAgentMemory,
  listSkills,
  readTextFile,
} from '../../storage/agent-folder/project-files';
import { applyRestore, planRestore, type RestoreCheckpointPort } from '../../storage/agent-folder/restore';
import { createAgentSkeleton } from '../../storage/agent-folder/skeleton';
import { encodeText } from '../../storage/agent-folder/text';
import { exportFolderZip, filesFromZip } from '../../storage/agent-folder/zip';
import { createSessionsRepo } from '../../storage/sqlite/sessions-repo';
import { createTasksRepo } from '../../storage/sqlite/tasks-repo';
import type { EngineContext } from '../context';
import type { MemoryFiles, MemoryFilesProvider } from '../memory-files';
import type {
  ProjectApi,
  ProjectInfo,
  ProjectSource,
  RestoreInput,
  RestorePlan,
  RestoreResult,
  RestoreTarget,
  WriteFileOptions,
  WrittenFile,
} from '../../core/api/project';
import type { CheckpointBody } from '../../core/api/checkpoints';

/** The checkpoint store as rollback uses it: read entries, and record the restore's own changes. */
export interface ProjectCheckpointPort extends RestoreCheckpointPort {
  checkpointFiles(
    inputs: readonly {
      readonly taskId: TaskId;
      readonly path: string;
      readonly before: CheckpointBody;
      readonly after: CheckpointBody;
    }[],
  ): Promise<{ readonly ids: readonly CheckpointEntryId[] }>;
}

export interface ProjectFeatureOptions {
  /** Where OPFS projects live (tests may pass their own directory). */
  readonly opfsRoot?: OpfsRoot;
  readonly folderLimits?: Partial<FolderLimits>;
  /** The checkpoint store, for rollback (looked up when a restore runs). */
  readonly checkpoints?: () => ProjectCheckpointPort;
}

/** Largest text or file a caller may write in one call. */
const maxWriteBytes = 64 * 1024 * 1024;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new BrainError('InvalidArgument', `${what} must be a string.`);
  if (loneSurrogate.test(value))
    throw new BrainError('InvalidArgument', `${what} holds a lone surrogate, which UTF-8 cannot store.`);
  return value;
}

function requireWriteOptions(options: unknown): WriteFileOptions {
  const expected = (options as WriteFileOptions | undefined)?.expectedVersion;
  if (expected !== null && typeof expected !== 'string') {
    throw new BrainError(
      'InvalidArgument',
      'Pass { expectedVersion }: the version returned when the file was read, or null for a file that must not exist yet.',
    );
  }
  return { expectedVersion: expected };
}

function requireAgentPath(input: unknown) {
  const path = normaliseProjectPath(input);
  if (!isAgentPath(path)) {
    throw new BrainError(
      'InvalidArgument',
      `"${path}" is not inside .agent/; use readProjectFile / writeProjectFile for other project files.`,
    );
  }
  return path;
}

export function createProjectFeature(ctx: EngineContext, options: ProjectFeatureOptions = {}) {
  const opfsRoot = options.opfsRoot ?? defaultOpfsRoot;
  const limits: FolderLimits = { ...defaultFolderLimits, ...options.folderLimits };
  let current: AgentFolder | null = null;

  function folder(): AgentFolder {
    if (!current)
      throw new BrainError(
        'NotFound',
        'No project is open: open the demo project, a folder, or an imported project first.',
      );
    return current;
  }

  const changed = (path?: string) =>
    ctx.emit(path === undefined ? { topic: 'project' } : { topic: 'project', path });

  async function describe(f: AgentFolder): Promise<ProjectInfo> {
    const agentFolder = await agentFolderState(f);
    const message =
      agentFolder === 'missing'
        ? `"${f.name}" has no .agent folder yet. Create one to give the agent a memory here.`
        : agentFolder === 'not-a-directory'
          ? `"${f.name}" has a file named .agent where the agent's folder belongs. Rename or remove that file, then create the folder.`
          : null;
    return { kind: f.kind, name: f.name, agentFolder, message };
  }

  async function openFolder(source: ProjectSource): Promise<AgentFolder> {
    switch (source?.kind) {
      case 'demo': {
        const exists = await opfsProjectExists(opfsRoot, demoProjectName);
        if (exists && source.reset) await deleteOpfsProject(opfsRoot, demoProjectName);
        const demo = await openOpfsProject(opfsRoot, demoProjectName, { create: true, limits });
        if ((await demo.list('')).length === 0) await seedDemoProject(demo);
        return demo;
      }
      case 'opfs':
        return openOpfsProject(opfsRoot, source.name, { create: source.create ?? false, limits });
      case 'handle': {
        const handle = source.handle as unknown;
        if (typeof FileSystemHandle !== 'undefined' && !(handle instanceof FileSystemHandle)) {
          throw new BrainError(
            'InvalidArgument',
            'openProject({ kind: "handle" }) needs the directory handle from showDirectoryPicker.',
          );
        }
        if ((handle as FileSystemHandle).kind !== 'directory') {
          throw new BrainError(
            'NotADirectory',
            `"${(handle as FileSystemHandle).name}" is a file; pick a folder.`,
          );
        }
        const picked = createHandleFolder(handle as FileSystemDirectoryHandle, { kind: 'handle' }, limits);
        const permission = await picked.permission();
        if (permission !== 'granted') {
          throw new BrainError(
            'PermissionDenied',
            `The browser has not (yet) allowed reading and writing "${picked.name}". Click "Allow access" so it can ask you, then open it again.`,
            { permission },
          );
        }
        return picked;
      }
      default:
        throw new BrainError(
          'InvalidArgument',
          'openProject takes { kind: "demo" }, { kind: "handle", handle } or { kind: "opfs", name }.',
        );
    }
  }

  async function importInto(
    name: string,
    replace: boolean | undefined,
    fill: (f: AgentFolder) => Promise<{ files: number; bytes: number }>,
  ) {
    const checked = requireProjectName(name);
    if (checked === demoProjectName)
      throw new BrainError(
        'InvalidArgument',
        `"${demoProjectName}" is the built-in demo; import under another name.`,
      );
    if (await opfsProjectExists(opfsRoot, checked)) {
      if (!replace)
        throw new BrainError(
          'Conflict',
          `A project named "${checked}" exists already; choose another name or replace it.`,
          { name: checked },
        );
      if (current?.kind !== 'handle' && current?.name === checked) current = null;
      await deleteOpfsProject(opfsRoot, checked);
    }
    const target = await openOpfsProject(opfsRoot, checked, { create: true, limits });
    let summary: { files: number; bytes: number };
    try {
      summary = await fill(target);
    } catch (error) {
      await deleteOpfsProject(opfsRoot, checked).catch(() => undefined);
      throw error;
    }
    current = target;
    changed();
    return { project: await describe(target), ...summary };
  }

  async function writeFile(
    path: string,
    bytes: Uint8Array,
    expectedVersion: string | null,
  ): Promise<WrittenFile> {
    if (bytes.length > maxWriteBytes)
      throw new BrainError(
        'TooLarge',
        `"${path}" would be ${bytes.length} bytes; one write is limited to ${maxWriteBytes}.`,
      );
    const written = await folder().write(path, bytes, { expectedVersion });
    changed(path);
    return {
      path: written.path,
      size: written.size,
      lastModified: written.lastModified,
      version: written.version,
    };
  }

  /** The port the memory features (compression, plan mode) use: engine-owned writes, still version-checked. */
  const memoryFiles: MemoryFilesProvider = async () => {
    const f = current;
    if (!f) return null;
    const port: MemoryFiles = {
      async read(path) {
        if ((await f.kindOf(path)) === null) return null;
        const file = await readTextFile(f, path);
        return { text: file.text, version: { token: file.version } };
      },
      async write(path, text, expected) {
        const written = await f.write(path, encodeText(requireText(text, 'The file text')), {
          expectedVersion: expected === undefined ? undefined : expected === null ? null : expected.token,
        });
        changed(written.path);
      },
      async appendLines(path, lines) {
        await appendJsonlLines(f, path, lines);
        changed(path);
      },
    };
    return port;
  };

  function checkpointStore(): ProjectCheckpointPort {
    const port = options.checkpoints?.();
    if (!port)
      throw new BrainError(
        'Internal',
        'Rollback needs the checkpoint store, which this engine was built without.',
      );
    return port;
  }

  function requireTarget(target: RestoreTarget): RestoreTarget {
    if (target && 'taskId' in target) return { taskId: asTaskId(requireId(target.taskId, 'taskId')) };
    if (target && Array.isArray((target as { entryIds?: unknown }).entryIds)) {
      return { entryIds: target.entryIds.map((id) => requireId(id, 'entryIds[]') as CheckpointEntryId) };
    }
    throw new BrainError(
      'InvalidArgument',
      'A restore names checkpoint entries ({ entryIds: [...] }) or a task ({ taskId }).',
    );
  }

  /** A finished "Restore: …" task beside the restored task(s), holding the restore's own checkpoint entries. */
  async function restoreTask(taskIds: readonly TaskId[]): Promise<TaskId> {
    const now = ctx.clock.now();
    const tasks = createTasksRepo(ctx.db);
    const sessions = createSessionsRepo(ctx.db);
    return ctx.db.transaction(async () => {
      const originals = await Promise.all(taskIds.map((id) => tasks.get(id)));
      const first = originals[0];
      const sessionId = first?.sessionId ?? (await sessions.create('Restores', now));
      const title = `Restore: ${originals.map((t) => t.title).join(', ') || 'checkpoint entries'}`.slice(
        0,
        ctx.limits.maxTitleChars,
      );
      const id = await tasks.insert({
        sessionId,
        title,
        parentTaskId: null,
        references: originals.map((t) => ({ to: t.id, kind: 'reference' as const })),
        now,
      });
      await tasks.setState(id, 'done', now);
      return id;
    });
  }

  const api = {
    async openProject(source: ProjectSource) {
      const opened = await openFolder(source);
      current = opened;
      changed();
      return describe(opened);
    },

    async closeProject() {
      current = null;
      changed();
    },

    projectInfo: async () => (current ? describe(current) : null),

    async listProjects() {
      return (await listOpfsProjects(opfsRoot)).map((name) => ({
        name,
        kind: name === demoProjectName ? ('demo' as const) : ('opfs' as const),
      }));
    },

    async deleteProject(name: string) {
      const checked = requireProjectName(name);
      if (current && current.kind !== 'handle' && current.name === checked) current = null;
      await deleteOpfsProject(opfsRoot, checked);
      changed();
    },

    async createAgentFolder() {
      const f = folder();
      if ((await agentFolderState(f)) === 'not-a-directory') {
        throw new BrainError(
          'NotADirectory',
          `"${f.name}" has a file named .agent; rename or remove it first.`,
          { path: '.agent' },
        );
      }
      const created = await createAgentSkeleton(f);
      changed();
      return { project: await describe(f), created };
    },

    listAgentFiles: () => listAgentFiles(folder()),
    readAgentFile: (path: string) => readTextFile(folder(), requireAgentPath(path)),

    async writeAgentFile(path: string, text: string, options: WriteFileOptions) {
      const checked = requireAgentPath(path);
      const { expectedVersion } = requireWriteOptions(options);
      return writeFile(checked, encodeText(requireText(text, 'The file text')), expectedVersion);
    },

    async appendJsonl(
      path: string,
      records: readonly Json[],
      options: { readonly expectedVersion?: string } = {},
    ) {
      const checked = requireAgentPath(path);
      if (!/\.jsonl$/i.test(checked))
        throw new BrainError('InvalidArgument', `"${checked}" is not a .jsonl file.`);
      const result = await appendJsonlRecords(
        folder(),
        checked,
        records,
        options.expectedVersion === undefined ? {} : { expectedVersion: options.expectedVersion },
      );
      changed(checked);
      const { path: written, size, lastModified, version, appended, repairedTornLine } = result;
      return { path: written, size, lastModified, version, appended, repairedTornLine };
    },

    async readJsonlTail(
      path: string,
      options: { readonly maxBytes?: number; readonly countLines?: boolean } = {},
    ) {
      const tail = await readJsonlTail(folder(), requireAgentPath(path), options);
      return {
        path: tail.info.path,
        size: tail.info.size,
        startByte: tail.startByte,
        firstLine: tail.firstLine,
        lines: tail.lines,
        records: tail.log.entries,
        torn: tail.log.document.torn,
        problems: tail.log.problems,
      };
    },

    listSkills: () => listSkills(folder()),

    async readSkill(name: string) {
      const issue = skillNameProblem(String(name));
      if (issue) throw new BrainError('InvalidArgument', `"${String(name)}": ${issue}.`);
      return readTextFile(folder(), skillFilePath(name));
    },

    async saveSkill(name: string, text: string, options: WriteFileOptions) {
      const { expectedVersion } = requireWriteOptions(options);
      validateSkillText(requireText(text, 'The skill text'), name);
      return writeFile(skillFilePath(name), encodeText(text), expectedVersion);
    },

    listOtherAgentMemory: () => listOtherAgentMemory(folder()),

    async listProjectFiles(dir = '') {
      const base = normaliseProjectDir(dir);
      const entries = await folder().list(base, { recursive: true, skip: skippedDirectoryNames });
      return entries.map(({ path, kind }) => ({ path, kind }));
    },

    readProjectFile: (path: string) => readTextFile(folder(), normaliseProjectPath(path)),

    async readProjectBytes(path: string) {
      const {
        bytes,
        path: read,
        size,
        lastModified,
        version,
      } = await folder().read(normaliseProjectPath(path));
      return { path: read, bytes, size, lastModified, version };
    },

    async writeProjectFile(path: string, content: string | Uint8Array, options: WriteFileOptions) {
      const checked = normaliseProjectPath(path);
      if (otherAgentConvention(checked)) {
        throw new BrainError(
          'PermissionDenied',
          `"${checked}" is another agent's memory; agent-brain shows it read-only.`,
          { path: checked },
        );
      }
      const { expectedVersion } = requireWriteOptions(options);
      const bytes =
        content instanceof Uint8Array ? content : encodeText(requireText(content, 'The file content'));
      return writeFile(checked, bytes, expectedVersion);
    },

    async deleteProjectFile(path: string, options: { readonly expectedVersion: string }) {
      const checked = normaliseProjectPath(path);
      if (typeof options?.expectedVersion !== 'string')
        throw new BrainError('InvalidArgument', 'Pass { expectedVersion } from the read.');
      if (otherAgentConvention(checked))
        throw new BrainError(
          'PermissionDenied',
          `"${checked}" is another agent's memory; agent-brain shows it read-only.`,
        );
      await folder().remove(checked, { expectedVersion: options.expectedVersion });
      changed(checked);
    },

    async importFolderFiles(
      files: readonly ImportFile[],
      options: { readonly name: string; readonly replace?: boolean },
    ) {
      checkImportPaths(files);
      return importInto(options?.name, options?.replace, (target) => writeImportedFiles(target, files));
    },

    exportProjectZip: () => exportFolderZip(folder()),

    async importProjectZip(
      bytes: Uint8Array,
      options: { readonly name: string; readonly replace?: boolean },
    ) {
      const { files, directories } = filesFromZip(bytes);
      return importInto(options?.name, options?.replace, (target) =>
        writeImportedFiles(target, files, directories),
      );
    },

    async planRestore(target: RestoreTarget): Promise<RestorePlan> {
      const checked = requireTarget(target);
      const { files } = await planRestore(folder(), checkpointStore(), checked);
      return { target: checked, files };
    },

    async restoreCheckpoints(input: RestoreInput): Promise<RestoreResult> {
      const target = requireTarget(input?.target);
      const f = folder();
      const store = checkpointStore();
      const plan = await planRestore(f, store, target);
      const { applied, failure } = await applyRestore(f, plan, input.files);
      if (applied.length === 0) {
        if (failure) throw failure;
        return { restoreTaskId: null, restored: [] };
      }
      const taskIds = [
        ...new Set(
          plan.files.filter((row) => applied.some((a) => a.path === row.path)).flatMap((row) => row.taskIds),
        ),
      ].map(asTaskId);
      const taskId = await restoreTask(taskIds);
      const { ids } = await store.checkpointFiles(
        applied.map((a) => ({ taskId, path: a.path, before: a.previous, after: a.restored })),
      );
      for (const a of applied) changed(a.path);
      ctx.emit({ topic: 'tasks', taskId });
      if (failure) throw failure;
      return {
        restoreTaskId: taskId,
        restored: applied.map((a, i) => ({
          path: a.path,
          entryId: ids[i] as CheckpointEntryId,
          action: a.restored === null ? ('delete' as const) : ('write' as const),
        })),
      };
    },
  } satisfies ProjectApi;

  return { api, memoryFiles, currentFolder: () => current };
}
