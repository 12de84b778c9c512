/**
 * Where a checkpoint's recorded path lands in the open folder, for rollback. Paths recorded relative to the
 * agent's root (its cwd: what importers and `recordToolCall({ root })` give) are the folder's paths as they are.
 * An absolute path — an agent that named files absolutely with no root known (a Gemini CLI chat without its
 * directories, a SWE-agent trajectory without `working_dir`, a caller that passed no root), or a file outside the
 * root the agent had — is read inside the open folder when the folder's name is one of its directories:
 * `/home/dev/projects/ledger/src/x.ts` in a folder named `ledger` is `src/x.ts`. If the name occurs more than once,
 * the first candidate that is a file in the folder wins; with none there, only a single candidate is taken. Any
 * other absolute path stays as recorded, and rollback reports it as outside the folder (never written).
 */
import { BrainError } from '../../core/errors';
import type { RestoreFilePlan } from '../../core/api/project';
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

/** The recorded path as a path in `folder` (see the module comment); unchanged when it is not absolute. */
export async function folderPathOf(recorded: string, folder: AgentFolder): Promise<string> {
  if (!recorded.startsWith('/')) return recorded;
  const segments = recorded.split('/');
  const candidates: string[] = [];
  segments.forEach((segment, i) => {
    if (segment === folder.name && i < segments.length - 1) candidates.push(segments.slice(i + 1).join('/'));
  });
  for (const candidate of candidates) if (await isFile(folder, candidate)) return candidate;
  return candidates.length === 1 ? (candidates[0] as string) : recorded;
}

/**
 * The checkpoint store as seen from `folder`: entries' paths mapped by `folderPathOf`. `recordedAs` collects the
 * mapped paths (folder path → path as recorded) so the plan can say where a file was recorded.
 */
export function checkpointsInFolder(
  port: ProjectCheckpointPort,
  folder: AgentFolder,
  recordedAs: Map<string, string>,
): ProjectCheckpointPort {
  const map = async (recorded: string) => {
    const path = await folderPathOf(recorded, folder);
    if (path !== recorded) recordedAs.set(path, recorded);
    return path;
  };
  return {
    async listCheckpoints(taskId) {
      const entries = await port.listCheckpoints(taskId);
      return Promise.all(entries.map(async (e) => ({ ...e, path: await map(e.path) })));
    },
    async readCheckpoint(entryId) {
      const read = await port.readCheckpoint(entryId);
      return { ...read, path: await map(read.path) };
    },
    checkpointFiles: (inputs) => port.checkpointFiles(inputs),
  };
}

/** The plan's rows: a mapped one says where it was recorded, an absolute one why it is not restored. */
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
