/**
 * The sessions list (issue 28): every session summed up in one call, for a person to scan a thousand of them —
 * which agent, which project, when it ran and for how long, how it ended, how much it did.
 */
import type { AgentKind } from '../importers/types';
import type { SessionId } from '../ids';

/**
 * How a session's run stands. `finished`: its main task is done (an imported run that delivered — a recorded end,
 * a completion tool, a chat agent's final answer). `stopped`: it ended unfinished — the harness stopped it (a cost
 * or step limit, an error) or its main task failed or was superseded. `running`: its main task is still open and
 * no end was recorded — an agent may still be at it, or its transcript was cut mid-run.
 */
export type SessionRunState = 'finished' | 'stopped' | 'running';

/** One session as the sessions list shows it. */
export interface SessionOverview {
  readonly id: SessionId;
  readonly title: string;
  /** The agent whose transcript was imported into it; null for a session recorded through this brain's API. */
  readonly agent: AgentKind | null;
  /**
   * The folder its agent worked in (`path` as the agent saw it, `name` its last segment; see `sessionProject`);
   * null when the session names none — the brain's own, which use whatever project is open.
   */
  readonly project: { readonly name: string; readonly path: string } | null;
  /** The transcript's first and last recorded item (events and messages; the session's own times without any). */
  readonly startedAt: number;
  readonly endedAt: number;
  /** Last change to the session row (the order of the list: most recent first). */
  readonly updatedAt: number;
  readonly state: SessionRunState;
  /** The person's instructions (`instruction` events). */
  readonly prompts: number;
  /** Tool calls (steps) still stored: cleanup removes the steps of tasks it cleans. */
  readonly toolCalls: number;
  /** Distinct paths of the session's file changes. */
  readonly filesChanged: number;
}

/** A project the brain knows: an agent's working folder some session names, or one a person pointed at a folder. */
export interface KnownProject {
  readonly name: string;
  readonly path: string;
  /** The folder the person said is this project (`confirmSessionProject`), or null. */
  readonly folder: string | null;
  /** Sessions whose agent worked there (0 for a confirmed folder whose sessions are gone). */
  readonly sessions: number;
}

export interface SessionsOverview {
  /** Most recently updated first. */
  readonly sessions: readonly SessionOverview[];
  /** By name, then path. */
  readonly projects: readonly KnownProject[];
}

export interface SessionsOverviewApi {
  /** Every session summed up for a list, and the projects they belong to: one read, however many sessions. */
  sessionsOverview(): Promise<SessionsOverview>;
}
