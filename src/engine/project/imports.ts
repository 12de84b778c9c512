/**
 * Projects kept in the browser: imported from files or a zip into an OPFS project (whole or absent: a failed
 * import removes what it wrote), exported as a zip.
 */
import { BrainError } from '../../core/errors';
import type { AgentFolder } from '../../storage/agent-folder/folder';
import { checkImportPaths, writeImportedFiles, type ImportFile } from '../../storage/agent-folder/import';
import {
  deleteOpfsProject,
  demoProjectName,
  openOpfsProject,
  opfsProjectExists,
  requireProjectName,
} from '../../storage/agent-folder/opfs-projects';
import { exportFolderZip, filesFromZip } from '../../storage/agent-folder/zip';
import type { CurrentProject } from './current';
import { describeFolder } from './open-folder';

export function createProjectImportsApi(project: CurrentProject) {
  const { opfsRoot, limits } = project;

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
      const open = project.get();
      if (open?.kind !== 'handle' && open?.name === checked) project.set(null);
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
    project.set(target);
    project.changed();
    return { project: await describeFolder(target), ...summary };
  }

  return {
    async importFolderFiles(
      files: readonly ImportFile[],
      options: { readonly name: string; readonly replace?: boolean },
    ) {
      checkImportPaths(files);
      return importInto(options?.name, options?.replace, (target) => writeImportedFiles(target, files));
    },

    exportProjectZip: () => exportFolderZip(project.folder()),

    async importProjectZip(
      bytes: Uint8Array,
      options: { readonly name: string; readonly replace?: boolean },
    ) {
      const { files, directories } = filesFromZip(bytes);
      return importInto(options?.name, options?.replace, (target) =>
        writeImportedFiles(target, files, directories),
      );
    },
  };
}
