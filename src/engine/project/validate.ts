/** What project calls accept: text UTF-8 can store, write options with a version, paths inside `.agent/`. */
import type { ProjectWriteOptions, RestoreTarget, WriteFileOptions } from '../../core/api/project';
import { BrainError } from '../../core/errors';
import { asTaskId, type CheckpointEntryId } from '../../core/ids';
import { requireId } from '../../core/model';
import { isAgentPath, normaliseProjectPath } from '../../core/paths';

/** Largest text or file a caller may write in one call. */
export const maxWriteBytes = 64 * 1024 * 1024;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new BrainError('InvalidArgument', `${what} must be a string.`);
  if (loneSurrogate.test(value))
    throw new BrainError('InvalidArgument', `${what} holds a lone surrogate, which UTF-8 cannot store.`);
  return value;
}

export function requireWriteOptions(options: unknown): WriteFileOptions {
  const expected = (options as WriteFileOptions | undefined)?.expectedVersion;
  if (expected !== null && typeof expected !== 'string') {
    throw new BrainError(
      'InvalidArgument',
      'Pass { expectedVersion }: the version returned when the file was read, or null for a file that must not exist yet.',
    );
  }
  return { expectedVersion: expected };
}

/** `writeProjectFile`'s options: the version, and whether the caller opted in to another agent's memory file. */
export function requireProjectWriteOptions(options: unknown): Required<ProjectWriteOptions> {
  const { expectedVersion } = requireWriteOptions(options);
  const opted = (options as ProjectWriteOptions).otherAgentMemory;
  if (opted !== undefined && typeof opted !== 'boolean')
    throw new BrainError(
      'InvalidArgument',
      "otherAgentMemory is true (write another agent's memory file, as the person asked) or left out.",
    );
  return { expectedVersion, otherAgentMemory: opted === true };
}

export function requireAgentPath(input: unknown) {
  const path = normaliseProjectPath(input);
  if (!isAgentPath(path)) {
    throw new BrainError(
      'InvalidArgument',
      `"${path}" is not inside .agent/; use readProjectFile / writeProjectFile for other project files.`,
    );
  }
  return path;
}

export function requireTarget(target: RestoreTarget): RestoreTarget {
  if (target && 'taskId' in target) return { taskId: asTaskId(requireId(target.taskId, 'taskId')) };
  if (target && Array.isArray((target as { entryIds?: unknown }).entryIds)) {
    return { entryIds: target.entryIds.map((id) => requireId(id, 'entryIds[]') as CheckpointEntryId) };
  }
  throw new BrainError(
    'InvalidArgument',
    'A restore names checkpoint entries ({ entryIds: [...] }) or a task ({ taskId }).',
  );
}
