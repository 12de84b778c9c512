/**
 * The sessions list's summaries (issue 28): every session with its agent, project, times, run state and counts,
 * and the projects the brain knows — two reads whatever the number of sessions (the figures in one statement,
 * `sessions-overview-repo.ts`; the confirmed folders in another).
 */
import type {
  KnownProject,
  SessionOverview,
  SessionRunState,
  SessionsOverview,
} from '../../core/api/sessions';
import { asSessionId } from '../../core/ids';
import type { AgentKind } from '../../core/importers/types';
import type { TaskState } from '../../core/model';
import type { SqlDriver } from '../../storage/sqlite/driver';
import { createProjectFoldersRepo } from '../../storage/sqlite/repos/project-folders-repo';
import { createSessionsOverviewRepo } from '../../storage/sqlite/repos/sessions-overview-repo';
import { projectOfRoot } from '../project/session-project';

/**
 * How the importer's end-of-run note begins when the harness stopped a run unfinished (the `run_end` item with
 * outcome `stopped`, written as a progress event by importers/session-writer.ts); the importer leaves that task
 * open, so this note is what tells a stopped run from one cut mid-way. A unit test imports such a run.
 */
export const runStoppedPrefix = 'The run stopped before the agent finished';

/** The run state of a session from its main task (null: it has none yet) and whether a stop was recorded. */
export function runStateOf(mainState: TaskState | null, runStopped: boolean): SessionRunState {
  switch (mainState) {
    case 'done':
      return 'finished';
    case 'failed':
    case 'superseded':
      return 'stopped';
    case 'running':
    case 'waiting_user':
    case null:
      return runStopped ? 'stopped' : 'running';
    default: {
      const never: never = mainState;
      throw new Error(`Unknown task state ${String(never)}`);
    }
  }
}

export async function sessionsOverview(db: SqlDriver): Promise<SessionsOverview> {
  const rows = await createSessionsOverviewRepo(db).list(runStoppedPrefix);
  const confirmed = await createProjectFoldersRepo(db).list();
  const projects = new Map<string, { name: string; path: string; folder: string | null; sessions: number }>();
  for (const { path, folder } of confirmed) {
    const project = projectOfRoot(path);
    if (project) projects.set(path, { ...project, folder, sessions: 0 });
  }
  const sessions = rows.map((row): SessionOverview => {
    const project = projectOfRoot(row.root);
    if (project) {
      const known = projects.get(project.path) ?? { ...project, folder: null, sessions: 0 };
      known.sessions++;
      projects.set(project.path, known);
    }
    return {
      id: asSessionId(row.id),
      title: row.title,
      agent: row.agent as AgentKind | null,
      project,
      startedAt: row.firstAt ?? row.createdAt,
      endedAt: row.lastAt ?? row.firstAt ?? row.createdAt,
      updatedAt: row.updatedAt,
      state: runStateOf(row.mainState, row.runStopped),
      prompts: row.prompts,
      toolCalls: row.toolCalls,
      filesChanged: row.filesChanged,
    };
  });
  const byName = (a: KnownProject, b: KnownProject) =>
    a.name.localeCompare(b.name) || a.path.localeCompare(b.path);
  return { sessions, projects: [...projects.values()].sort(byName) };
}
