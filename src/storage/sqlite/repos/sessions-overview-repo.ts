import type { TaskState } from '../../../core/model';
import type { SqlDriver } from '../driver';

/** One session's figures for the sessions list, as stored (the engine derives the run state and the project). */
export interface SessionOverviewRow {
  readonly id: number;
  readonly title: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** `imports.agent`, or null for a session recorded through the API. */
  readonly agent: string | null;
  /** The main task's state: an import's main task, else the current task, else the session's latest task. */
  readonly mainState: TaskState | null;
  /** The main task's latest end-of-run note is the one `runStoppedPrefix` starts, and no instruction came after. */
  readonly runStopped: boolean;
  /** The tool-call recorder's root (the agent's working folder), when its context names one. */
  readonly root: string | null;
  /** First and last item: events, messages and steps (null when the session has none). */
  readonly firstAt: number | null;
  readonly lastAt: number | null;
  readonly prompts: number;
  readonly toolCalls: number;
  readonly filesChanged: number;
}

interface Raw {
  id: number;
  title: string;
  created_at: number;
  updated_at: number;
  agent: string | null;
  main_state: TaskState | null;
  run_stopped: number | null;
  root: string | null;
  first_at: number | null;
  last_at: number | null;
  prompts: number | null;
  tool_calls: number | null;
  files_changed: number | null;
}

/**
 * Every session's figures in one statement: each table is read once, grouped by session, then joined — never a
 * query per session. Steps are counted from their `(task_id, seq)` index, and only each session's first and last
 * step row is read for its time (a step row holds the heavy params and results); the other times come from the
 * light events and messages.
 */
const overviewSql = `
WITH
  ev AS (
    SELECT session_id, MIN(created_at) AS first_at, MAX(created_at) AS last_at,
      SUM(kind = 'instruction') AS prompts,
      COUNT(DISTINCT CASE WHEN kind = 'file_change' THEN path END) AS files_changed
    FROM events GROUP BY session_id),
  msg AS (
    SELECT session_id, MIN(created_at) AS first_at, MAX(created_at) AS last_at
    FROM messages GROUP BY session_id),
  st AS (
    SELECT t.session_id, COUNT(*) AS tool_calls, MIN(s.id) AS first_step, MAX(s.id) AS last_step
    FROM tasks t JOIN steps s ON s.task_id = t.id
    WHERE t.session_id IS NOT NULL GROUP BY t.session_id),
  times AS (
    SELECT session_id, MIN(at) AS first_at, MAX(at) AS last_at FROM (
      SELECT session_id, first_at AS at FROM ev UNION ALL SELECT session_id, last_at FROM ev
      UNION ALL SELECT session_id, first_at FROM msg UNION ALL SELECT session_id, last_at FROM msg
      UNION ALL SELECT st.session_id, s.created_at FROM st JOIN steps s ON s.id = st.first_step
      UNION ALL SELECT st.session_id, s.created_at FROM st JOIN steps s ON s.id = st.last_step)
    GROUP BY session_id),
  main AS (
    SELECT s.id AS session_id,
      COALESCE(i.task_id, s.current_task_id, (SELECT MAX(t.id) FROM tasks t WHERE t.session_id = s.id)) AS task_id
    FROM sessions s LEFT JOIN imports i ON i.session_id = s.id)
SELECT s.id, s.title, s.created_at, s.updated_at, i.agent, mt.state AS main_state,
  CASE WHEN mt.state IN ('running', 'waiting_user') THEN EXISTS (
    SELECT 1 FROM events e
    WHERE e.task_id = mt.id AND e.kind = 'progress' AND substr(e.text, 1, length(?1)) = ?1
      AND NOT EXISTS (
        SELECT 1 FROM events l WHERE l.task_id = mt.id AND l.id > e.id AND l.kind IN ('instruction', 'progress')))
  END AS run_stopped,
  CASE WHEN json_valid(tc.data) AND json_type(tc.data, '$.root') = 'text'
    THEN json_extract(tc.data, '$.root') END AS root,
  times.first_at, times.last_at, ev.prompts, st.tool_calls, ev.files_changed
FROM sessions s
  LEFT JOIN imports i ON i.session_id = s.id
  LEFT JOIN main ON main.session_id = s.id
  LEFT JOIN tasks mt ON mt.id = main.task_id
  LEFT JOIN tool_context tc ON tc.session_id = s.id
  LEFT JOIN ev ON ev.session_id = s.id
  LEFT JOIN msg ON msg.session_id = s.id
  LEFT JOIN st ON st.session_id = s.id
  LEFT JOIN times ON times.session_id = s.id
ORDER BY s.updated_at DESC, s.id DESC`;

/** The sessions list's figures (issue 28) and the folders people confirmed for agents' working folders. */
export function createSessionsOverviewRepo(db: SqlDriver) {
  return {
    /** `runStoppedPrefix`: how the end-of-run note of a run stopped unfinished begins. */
    async list(runStoppedPrefix: string): Promise<SessionOverviewRow[]> {
      const rows = await db.all<Raw>(overviewSql, [runStoppedPrefix]);
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
        agent: r.agent,
        mainState: r.main_state,
        runStopped: r.run_stopped === 1,
        root: r.root,
        firstAt: r.first_at,
        lastAt: r.last_at,
        prompts: r.prompts ?? 0,
        toolCalls: r.tool_calls ?? 0,
        filesChanged: r.files_changed ?? 0,
      }));
    },
  };
}
