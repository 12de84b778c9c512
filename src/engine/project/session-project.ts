/**
 * The project a session belongs to: the folder its agent worked in (the root the tool-call recorder keeps, an
 * imported session's `cwd`). The open folder is that project when its name is a segment of that path — the
 * folder the agent worked in, or one above it (a repository whose `packages/core` the agent ran in), as
 * `folder-paths.ts` reads recorded paths; the folder handle knows its name, not where it lives. A folder of
 * another name is it once the person said so (`confirmSessionProject`, kept per path in `project_folders`). A
 * session without a root uses whatever folder is open (the brain's own sessions, a playground's).
 */
import type { SessionProject } from '../../core/api/project';
import type { SessionId } from '../../core/ids';
import { toolContextFromJson } from '../../core/tool-calls/context';
import type { AgentFolder } from '../../storage/agent-folder/folder';
import type { SqlDriver } from '../../storage/sqlite/driver';
import { createProjectFoldersRepo } from '../../storage/sqlite/repos/project-folders-repo';
import { createToolContextRepo } from '../../storage/sqlite/repos/tool-context-repo';

const segmentsOf = (path: string) => path.split(/[\\/]+/).filter((segment) => segment !== '');

/** The project of an agent's working directory: its last segment names it; null for `/` or an empty path. */
export function projectOfRoot(root: string | null): { name: string; path: string } | null {
  if (root === null) return null;
  const name = segmentsOf(root).pop();
  return name === undefined ? null : { name, path: root };
}

/** The folder named `folderName` is the project at `root`, or holds it. */
export const folderHoldsRoot = (folderName: string, root: string) => segmentsOf(root).includes(folderName);

export async function sessionRoot(db: SqlDriver, sessionId: SessionId): Promise<string | null> {
  return toolContextFromJson(await createToolContextRepo(db).get(sessionId)).root;
}

export async function sessionProject(
  db: SqlDriver,
  sessionId: SessionId,
  open: AgentFolder | null,
): Promise<SessionProject | null> {
  const project = projectOfRoot(await sessionRoot(db, sessionId));
  if (project === null) return null;
  const folder = await createProjectFoldersRepo(db).get(project.path);
  const isIt = open !== null && (folder === open.name || folderHoldsRoot(open.name, project.path));
  return { ...project, folder, open: isIt };
}

/** The folder a session may use: the open one unless the session's project is another folder. */
export async function folderForSession(
  db: SqlDriver,
  sessionId: SessionId,
  open: AgentFolder | null,
): Promise<AgentFolder | null> {
  if (open === null) return null;
  const project = await sessionProject(db, sessionId, open);
  return project === null || project.open ? open : null;
}
