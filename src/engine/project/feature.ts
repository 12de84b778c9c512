/**
 * The project folder feature: which project is open (one per engine), and the API over its files. Everything
 * about bytes and formats lives in storage/agent-folder and core/formats; this feature validates input
 * (`validate.ts`), keeps the open folder (`current.ts`), announces changes (`project` topic) and hands the memory
 * features their file port. Its parts: `files.ts` (`.agent` and project files, skills), `imports.ts` (projects kept
 * in the browser), `rollback.ts` (restores from checkpoints) with `folder-paths.ts` (recorded paths as the folder's).
 */
import type { ProjectApi, ProjectSource } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import { asSessionId, type SessionId } from '../../core/ids';
import { requireId } from '../../core/model';
import { defaultFolderLimits, type AgentFolder, type FolderLimits } from '../../storage/agent-folder/folder';
import {
  defaultOpfsRoot,
  deleteOpfsProject,
  demoProjectName,
  listOpfsProjects,
  requireProjectName,
  type OpfsRoot,
} from '../../storage/agent-folder/opfs-projects';
import { agentFolderState } from '../../storage/agent-folder/project-files';
import { createAgentSkeleton } from '../../storage/agent-folder/skeleton';
import type { EngineContext } from '../context';
import { createCurrentProject } from './current';
import { createAgentFilesApi, createProjectFilesApi } from './files';
import { createProjectImportsApi } from './imports';
import { describeFolder, openFolder } from './open-folder';
import { createRollbackApi, type ProjectCheckpointPort } from './rollback';
import { sessionProject } from './session-project';
import { createProjectFoldersRepo } from '../../storage/sqlite/repos/project-folders-repo';

export type { ProjectCheckpointPort } from './rollback';

export interface ProjectFeatureOptions {
  /** Where OPFS projects live (tests may pass their own directory). */
  readonly opfsRoot?: OpfsRoot;
  readonly folderLimits?: Partial<FolderLimits>;
  /** The checkpoint store, for rollback (looked up when a restore runs). */
  readonly checkpoints?: () => ProjectCheckpointPort;
  /** Runs after a project opened, before it is announced (finishing an interrupted whole-brain import). */
  readonly onOpened?: (folder: AgentFolder) => Promise<void>;
}

export function createProjectFeature(ctx: EngineContext, options: ProjectFeatureOptions = {}) {
  const opfsRoot = options.opfsRoot ?? defaultOpfsRoot;
  const limits: FolderLimits = { ...defaultFolderLimits, ...options.folderLimits };
  const project = createCurrentProject(ctx, opfsRoot, limits);

  const lifecycle = {
    async openProject(source: ProjectSource) {
      const opened = await openFolder(source, opfsRoot, limits);
      await options.onOpened?.(opened);
      project.set(opened);
      project.changed();
      return describeFolder(opened);
    },

    async closeProject() {
      project.set(null);
      project.changed();
    },

    projectInfo: async () => {
      const open = project.get();
      return open ? describeFolder(open) : null;
    },

    async listProjects() {
      return (await listOpfsProjects(opfsRoot)).map((name) => ({
        name,
        kind: name === demoProjectName ? ('demo' as const) : ('opfs' as const),
      }));
    },

    async deleteProject(name: string) {
      const checked = requireProjectName(name);
      const open = project.get();
      if (open && open.kind !== 'handle' && open.name === checked) project.set(null);
      await deleteOpfsProject(opfsRoot, checked);
      project.changed();
    },

    async sessionProject(sessionId: SessionId) {
      return sessionProject(ctx.db, asSessionId(requireId(sessionId, 'sessionId')), project.get());
    },

    async confirmSessionProject(sessionId: SessionId) {
      const id = asSessionId(requireId(sessionId, 'sessionId'));
      const open = project.folder();
      const own = await sessionProject(ctx.db, id, open);
      if (own === null)
        throw new BrainError(
          'InvalidArgument',
          `Session ${id} does not say which folder its agent worked in; the open folder is used as it is.`,
        );
      await createProjectFoldersRepo(ctx.db).set(own.path, open.name, ctx.clock.now());
      project.changed();
      return { ...own, folder: open.name, open: true };
    },

    async createAgentFolder() {
      const f = project.folder();
      if ((await agentFolderState(f)) === 'not-a-directory') {
        throw new BrainError(
          'NotADirectory',
          `"${f.name}" has a file named .agent; rename or remove it first.`,
          { path: '.agent' },
        );
      }
      const created = await createAgentSkeleton(f);
      project.changed();
      return { project: await describeFolder(f), created };
    },
  };

  const api = {
    ...lifecycle,
    ...createAgentFilesApi(project),
    ...createProjectFilesApi(project),
    ...createProjectImportsApi(project),
    ...createRollbackApi(project, options.checkpoints),
  } satisfies ProjectApi;

  return { api, memoryFiles: project.memoryFiles, currentFolder: () => project.get() };
}
