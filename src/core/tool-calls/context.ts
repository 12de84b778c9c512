/**
 * What the recorder keeps of a session between tool calls (stored as JSON, migration 9): the root its paths are
 * relative to, and the ad-hoc scripts it saw run with the file changes recorded since each one's last run — the
 * classifier's `ClassifyContext` (a script run again after edits is a check). Bounded: the newest 200 scripts.
 */
import type { ClassifyContext } from './types';

export interface ToolContext {
  root: string | null;
  /** A `git stash` set the agent's changes aside and no `git stash pop`/`apply` has brought them back yet. */
  setAside: boolean;
  /** By `ScriptRun.id`, least recently run first. */
  readonly scripts: Map<string, { editsSince: number }>;
}

export const MAX_SCRIPTS = 200;

export const emptyToolContext = (): ToolContext => ({ root: null, setAside: false, scripts: new Map() });

export function toolContextFromJson(text: string | null): ToolContext {
  const context = emptyToolContext();
  if (text === null) return context;
  try {
    const json = JSON.parse(text) as { root?: unknown; scripts?: unknown; setAside?: unknown };
    if (typeof json.root === 'string') context.root = json.root;
    if (json.setAside === true) context.setAside = true;
    if (Array.isArray(json.scripts)) {
      for (const entry of json.scripts.slice(-MAX_SCRIPTS)) {
        if (Array.isArray(entry) && typeof entry[0] === 'string' && Number.isSafeInteger(entry[1]))
          context.scripts.set(entry[0], { editsSince: entry[1] as number });
      }
    }
  } catch {
    // A context that does not read back starts empty: scripts are then first runs again, never wrong checks.
  }
  return context;
}

export const toolContextToJson = (context: ToolContext) =>
  JSON.stringify({
    root: context.root,
    ...(context.setAside ? { setAside: true } : {}),
    scripts: [...context.scripts].map(([id, s]) => [id, s.editsSince]),
  });

/** The classifier's view of it. */
export function classifyContextOf(context: ToolContext): ClassifyContext {
  const priorScriptRuns: Record<string, { editsSince: number }> = {};
  for (const [id, s] of context.scripts) priorScriptRuns[id] = { editsSince: s.editsSince };
  return {
    priorScriptRuns,
    ...(context.root === null ? {} : { root: context.root }),
    ...(context.setAside ? { changesSetAside: true } : {}),
  };
}

/** After a call: every script it ran starts counting again; every file it changed counts for the others. */
export function advanceToolContext(
  context: ToolContext,
  scriptIds: readonly string[],
  changes: number,
  setAside: boolean | null = null,
) {
  if (setAside !== null) context.setAside = setAside;
  if (changes > 0) for (const s of context.scripts.values()) s.editsSince += changes;
  for (const id of scriptIds) {
    context.scripts.delete(id);
    context.scripts.set(id, { editsSince: 0 });
  }
  while (context.scripts.size > MAX_SCRIPTS) {
    const oldest = context.scripts.keys().next().value as string;
    context.scripts.delete(oldest);
  }
}
