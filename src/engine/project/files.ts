/** The open project's files: `.agent` files and JSONL logs, skills, other agents' memory, any project file. */
import type { ProjectWriteOptions, WriteFileOptions } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import { otherAgentConvention, skillFilePath, skillNameProblem, validateSkillText } from '../../core/formats';
import type { Json } from '../../core/model';
import { normaliseProjectDir, normaliseProjectPath } from '../../core/paths';
import { skippedDirectoryNames } from '../../storage/agent-folder/folder';
import { appendJsonlRecords, readJsonlTail } from '../../storage/agent-folder/jsonl-file';
import {
  listAgentFiles,
  listOtherAgentMemory,
  listSkills,
  readTextFile,
} from '../../storage/agent-folder/project-files';
import { encodeText } from '../../storage/agent-folder/text';
import type { CurrentProject } from './current';
import { requireAgentPath, requireProjectWriteOptions, requireText, requireWriteOptions } from './validate';

/** Other agents' memory files are read-only unless the caller opted in (`writeProjectFile`'s `otherAgentMemory`). */
function refuseOtherAgentMemory(path: string, how: string) {
  if (otherAgentConvention(path)) {
    throw new BrainError(
      'PermissionDenied',
      `"${path}" is another agent's memory; agent-brain shows it read-only${how}.`,
      { path },
    );
  }
}

export function createAgentFilesApi(project: CurrentProject) {
  const { folder, changed, writeFile } = project;
  return {
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
  };
}

export function createProjectFilesApi(project: CurrentProject) {
  const { folder, changed, writeFile } = project;
  return {
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

    async writeProjectFile(path: string, content: string | Uint8Array, options: ProjectWriteOptions) {
      const checked = normaliseProjectPath(path);
      const { expectedVersion, otherAgentMemory } = requireProjectWriteOptions(options);
      if (!otherAgentMemory)
        refuseOtherAgentMemory(checked, ' (write it only when the person asks: { otherAgentMemory: true })');
      const bytes =
        content instanceof Uint8Array ? content : encodeText(requireText(content, 'The file content'));
      return writeFile(checked, bytes, expectedVersion);
    },

    async deleteProjectFile(path: string, options: { readonly expectedVersion: string }) {
      const checked = normaliseProjectPath(path);
      if (typeof options?.expectedVersion !== 'string')
        throw new BrainError('InvalidArgument', 'Pass { expectedVersion } from the read.');
      refuseOtherAgentMemory(checked, '');
      await folder().remove(checked, { expectedVersion: options.expectedVersion });
      changed(checked);
    },
  };
}
