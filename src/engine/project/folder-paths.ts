/**
 * Where a checkpoint's recorded path lands in the open folder, for rollback. A path is recorded relative to the
 * agent's root when one was known (an importer passes the agent's cwd, `recordToolCall({ root })` its root),
 * absolute otherwise (a Gemini CLI chat without its directories, a trajectory without `working_dir`, a file
 * outside the root). The folder handle does not say where it lives, only its name; so the recorded path, made
 * absolute with the session's root, is looked up through that name: `/home/dev/projects/ledger/src/x.ts` (or
 * `src/x.ts` recorded under the root `/home/dev/projects/ledger`) in a folder named `ledger` is `src/x.ts`, and
 * `src/x.ts` recorded under `/home/dev/ledger/packages/core` is `packages/core/src/x.ts` there. The first
 * candidate that is a file in the folder wins (a name can occur twice in a path); with none there, a relative path
 * stays as recorded (the folder is taken to be the agent's root, whatever its name) and an absolute one takes its
 * only candidate. Any other absolute path stays as recorded, and rollback reports it as outside the folder (never
 * written).
 */
import { BrainError } from '../../core/errors';
import type { RestoreFilePlan } from '../../core/api/project';
import type { TaskId } from '../../core/ids';
import type { AgentFolder } from '../../storage/agent-folder/folder';
import type { ProjectCheckpointPort } from './rollback';

async function isFile(folder: AgentFolder, path: string): Promise<boolean> {
  try {
    return (await folder.kindOf(path)) === 'file';
  } catch (error) {
    if (error instanceof BrainError && error.code === 'PathEscapes') return false;
    throw error;
  }
}

const isRelative = (path: string) => !path.startsWith('/') && !path.split('/').includes('..');

/** The recorded path as a path in `folder` (see the module comment); `root`: the session's root, if known. */
export async function folderPathOf(
  recorded: string,
  folder: AgentFolder,
  root: string | null,
): Promise<string> {
  const absolute = recorded.startsWith('/')
    ? recorded
    : root !== null && root.startsWith('/') && isRelative(recorded)
      ? `${root.replace(/\/+$/, '')}/${recorded.replace(/^\.\//, '')}`
      : null;
  if (absolute === null) return recorded;
  const segments = absolute.split('/');
  const candidates: string[] = [];
  segments.forEach((segment, i) => {
    if (segment === folder.name && i < segments.length - 1) candidates.push(segments.slice(i + 1).join('/'));
  });
  for (const candidate of candidates) if (await isFile(folder, candidate)) return candidate;
  if (!recorded.startsWith('/')) return recorded;
  return candidates.length === 1 ? (candidates[0] as string) : recorded;
}

/**
 * The checkpoint store as seen from `folder`: entries' paths mapped by `folderPathOf`. `recordedAs` collects the
 * mapped paths (folder path → path as recorded) so the restore plan can say where a file was recorded.
 */
export function checkpointsInFolder(
  port: ProjectCheckpointPort,
  folder: AgentFolder,
  rootOf: (taskId: TaskId) => Promise<string | null>,
  recordedAs: Map<string, string>,
): ProjectCheckpointPort {
  const map = async (recorded: string, taskId: TaskId) => {
    const path = await folderPathOf(recorded, folder, await rootOf(taskId));
    if (path !== recorded) recordedAs.set(path, recorded);
    return path;
  };
  return {
    async listCheckpoints(taskId) {
      const entries = await port.listCheckpoints(taskId);
      return Promise.all(entries.map(async (e) => ({ ...e, path: await map(e.path, taskId) })));
    },
    async readCheckpoint(entryId) {
      const read = await port.readCheckpoint(entryId);
      return { ...read, path: await map(read.path, read.taskId) };
    },
    async readPatch(entryId) {
      const read = await port.readPatch(entryId);
      return { ...read, path: await map(read.path, read.taskId) };
    },
    checkpointFiles: (inputs) => port.checkpointFiles(inputs),
  };
}

/** The restore plan's rows: a mapped one says where it was recorded, an absolute one why it is not restored. */
export function explainFolderPaths(
  files: readonly RestoreFilePlan[],
  folder: AgentFolder,
  recordedAs: ReadonlyMap<string, string>,
): RestoreFilePlan[] {
  return files.map((row) => {
    const recorded = recordedAs.get(row.path);
    if (recorded !== undefined) {
      const note = `Recorded as ${recorded}: this folder's ${row.path}.`;
      return { ...row, reason: row.reason === null ? note : `${row.reason} ${note}` };
    }
    if (row.state === 'unavailable' && row.path.startsWith('/'))
      return {
        ...row,
        reason: `${row.path} is outside this folder ("${folder.name}"): the agent's path does not pass through a folder of that name, so it is not restored here.`,
      };
    return row;
  });
}
