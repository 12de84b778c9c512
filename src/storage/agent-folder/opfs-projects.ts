/**
 * Project folders kept in the origin's private file system (OPFS), under `agent-brain-projects/<name>/`: the
 * built-in demo project and folders imported in browsers without a folder picker. They need no permission prompt
 * and survive reloads; the user gets them out as a zip.
 */
import { BrainError } from '../../core/errors';
import { translateFsError } from './errors';
import type { AgentFolder, FolderLimits } from './folder';
import { createHandleFolder } from './handle-folder';

export const opfsProjectsDir = 'agent-brain-projects';
export const demoProjectName = 'demo';
export const projectNamePattern = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/;

export type OpfsRoot = () => Promise<FileSystemDirectoryHandle>;

export const defaultOpfsRoot: OpfsRoot = () => navigator.storage.getDirectory();

export function requireProjectName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    !projectNamePattern.test(name) ||
    name.endsWith('.') ||
    name.endsWith(' ')
  ) {
    throw new BrainError(
      'InvalidArgument',
      `"${String(name)}" is not a project name: 1–64 letters, digits, spaces, ". _ -", starting with a letter or digit.`,
    );
  }
  return name;
}

async function projectsDir(root: OpfsRoot): Promise<FileSystemDirectoryHandle> {
  try {
    return await (await root()).getDirectoryHandle(opfsProjectsDir, { create: true });
  } catch (error) {
    throw translateFsError(error, opfsProjectsDir, 'opening the browser’s project storage');
  }
}

export async function opfsProjectExists(root: OpfsRoot, name: string): Promise<boolean> {
  try {
    await (await projectsDir(root)).getDirectoryHandle(requireProjectName(name));
    return true;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return false;
    throw translateFsError(error, name, 'looking up the project');
  }
}

/** The project's folder; `create` makes it when missing (else `NotFound`). */
export async function openOpfsProject(
  root: OpfsRoot,
  name: string,
  options: { readonly create?: boolean; readonly limits?: Partial<FolderLimits> } = {},
): Promise<AgentFolder> {
  const checked = requireProjectName(name);
  let handle: FileSystemDirectoryHandle;
  try {
    handle = await (await projectsDir(root)).getDirectoryHandle(checked, { create: options.create ?? false });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') {
      throw new BrainError('NotFound', `There is no project named "${checked}" in this browser.`, {
        name: checked,
      });
    }
    throw translateFsError(error, checked, 'opening the project');
  }
  return createHandleFolder(
    handle,
    { kind: checked === demoProjectName ? 'demo' : 'opfs', name: checked },
    options.limits,
  );
}

export async function listOpfsProjects(root: OpfsRoot): Promise<string[]> {
  const dir = await projectsDir(root);
  const names: string[] = [];
  for await (const [name, handle] of dir.entries()) if (handle.kind === 'directory') names.push(name);
  return names.sort();
}

export async function deleteOpfsProject(root: OpfsRoot, name: string): Promise<void> {
  const checked = requireProjectName(name);
  try {
    await (await projectsDir(root)).removeEntry(checked, { recursive: true });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return;
    throw translateFsError(error, checked, 'deleting the project');
  }
}
