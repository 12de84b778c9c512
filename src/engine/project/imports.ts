/**
 * Projects kept in the browser: imported from files or a zip into an OPFS project (whole or absent: a failed
 * import removes what it wrote), exported as a zip. Both imports leave out the same folders (`.git`,
 * `node_modules`: core/formats/skipped-folders.ts) and say which in `skipped`.
 */
import type { ProjectImportOptions } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import { mergeSkipped, splitSkipped, type SkippedFolder } from '../../core/formats/skipped-folders';
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
    skipped: readonly SkippedFolder[],
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
    return { project: await describeFolder(target), ...summary, skipped: [...skipped] };
  }

  return {
    async importFolderFiles(files: readonly ImportFile[], options: ProjectImportOptions) {
      const paths = checkImportPaths(files);
      const split = splitSkipped(
        files.map((file, i) => ({ file, path: paths[i] as string })),
        (f) => f.path,
      );
      const kept = split.kept.map((f) => f.file);
      const skipped = mergeSkipped(requireSkipped(options?.skipped), split.skipped);
      return importInto(
        options?.name,
        options?.replace,
        (target) => writeImportedFiles(target, kept),
        skipped,
      );
    },

    exportProjectZip: () => exportFolderZip(project.folder()),

    async importProjectZip(
      bytes: Uint8Array,
      options: { readonly name: string; readonly replace?: boolean },
    ) {
      const { files, directories, skipped } = filesFromZip(bytes);
      return importInto(
        options?.name,
        options?.replace,
        (target) => writeImportedFiles(target, files, directories),
        skipped,
      );
    },
  };
}

/** What the page says it left out before sending (a dropped folder's walk does not descend into them). */
function requireSkipped(value: unknown): SkippedFolder[] {
  if (value === undefined) return [];
  const bad = () =>
    new BrainError(
      'InvalidArgument',
      'options.skipped is a list of { path, files } (files: a count or null).',
    );
  if (!Array.isArray(value) || value.length > 10_000) throw bad();
  return value.map((item: unknown) => {
    const { path, files } = (item ?? {}) as { path?: unknown; files?: unknown };
    if (typeof path !== 'string' || path === '' || path.length > 4096) throw bad();
    if (files !== null && !(Number.isSafeInteger(files) && (files as number) >= 0)) throw bad();
    return { path, files: files as number | null };
  });
}
