/** Opening a project source as a folder (demo, OPFS project, picked handle) and describing its `.agent` state. */
import type { ProjectInfo, ProjectSource } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import { seedDemoProject } from '../../storage/agent-folder/demo-project';
import type { AgentFolder, FolderLimits } from '../../storage/agent-folder/folder';
import { createHandleFolder } from '../../storage/agent-folder/handle-folder';
import {
  deleteOpfsProject,
  demoProjectName,
  openOpfsProject,
  opfsProjectExists,
  type OpfsRoot,
} from '../../storage/agent-folder/opfs-projects';
import { agentFolderState } from '../../storage/agent-folder/project-files';

export async function describeFolder(f: AgentFolder): Promise<ProjectInfo> {
  const agentFolder = await agentFolderState(f);
  const message =
    agentFolder === 'missing'
      ? `"${f.name}" has no .agent folder yet. Create one to give the agent a memory here.`
      : agentFolder === 'not-a-directory'
        ? `"${f.name}" has a file named .agent where the agent's folder belongs. Rename or remove that file, then create the folder.`
        : null;
  return { kind: f.kind, name: f.name, agentFolder, message };
}

export async function openFolder(
  source: ProjectSource,
  opfsRoot: OpfsRoot,
  limits: FolderLimits,
): Promise<AgentFolder> {
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
    case 'handle':
      return openPickedFolder(source.handle as unknown, limits);
    default:
      throw new BrainError(
        'InvalidArgument',
        'openProject takes { kind: "demo" }, { kind: "handle", handle } or { kind: "opfs", name }.',
      );
  }
}

async function openPickedFolder(handle: unknown, limits: FolderLimits): Promise<AgentFolder> {
  if (typeof FileSystemHandle !== 'undefined' && !(handle instanceof FileSystemHandle)) {
    throw new BrainError(
      'InvalidArgument',
      'openProject({ kind: "handle" }) needs the directory handle from showDirectoryPicker.',
    );
  }
  if ((handle as FileSystemHandle).kind !== 'directory') {
    throw new BrainError('NotADirectory', `"${(handle as FileSystemHandle).name}" is a file; pick a folder.`);
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
