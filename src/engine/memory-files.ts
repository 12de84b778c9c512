/**
 * The few file operations the memory features need from the project's `.agent` folder. The project feature (the
 * folder layer) provides them; when no project folder is open the provider returns null and the memory features
 * work from agent.db alone (the files are written at the next compression after a folder is opened).
 */
import type { SessionId } from '../core/ids';

export interface MemoryFileVersion {
  /** Opaque: whatever the folder layer uses to detect a change since the read (size + mtime, or a hash). */
  readonly token: string;
}

export interface MemoryFiles {
  /** The file's text, or null when it does not exist. */
  read(path: string): Promise<{ readonly text: string; readonly version: MemoryFileVersion } | null>;
  /**
   * Replaces the whole file atomically. `expected`: the version read before (the write fails with `Conflict` if
   * the file changed since), `null` when the file must not exist yet, `undefined` to write whatever is there.
   */
  write(path: string, text: string, expected?: MemoryFileVersion | null): Promise<void>;
  /** Appends whole lines (each ending in a newline) to a JSONL file, repairing a torn last line first. */
  appendLines(path: string, lines: readonly string[]): Promise<void>;
}

/**
 * The open folder's files, or null when none is open — or, given the session they are for, when that session's
 * project (its agent's working folder) is another folder than the open one: an imported session never writes
 * into, or reads from, a project it did not work in.
 */
export type MemoryFilesProvider = (sessionId?: SessionId) => Promise<MemoryFiles | null>;

export const noMemoryFiles: MemoryFilesProvider = async () => null;

export const memoryPaths = {
  session: '.agent/SESSION.jsonl',
  history: '.agent/HISTORY.jsonl',
  summary: '.agent/SESSION_SUMMARY.md',
  plan: '.agent/plan/PLAN.md',
  progress: '.agent/plan/PROGRESS.md',
  skills: '.agent/skills',
} as const;

/**
 * Read, transform, write back with the version read — so a person's edit made in between is never overwritten:
 * on `Conflict` the file is read again and the transform re-applied to the new text (transforms here are
 * idempotent: set marks, append entries). Returns false when the transform changed nothing (no write).
 */
export async function updateFile(
  files: MemoryFiles,
  path: string,
  transform: (text: string | null) => string,
  attempts = 3,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const current = await files.read(path);
    const next = transform(current?.text ?? null);
    if (current !== null && next === current.text) return false;
    try {
      await files.write(path, next, current?.version ?? null);
      return true;
    } catch (error) {
      const conflict =
        typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'Conflict';
      if (!conflict || attempt >= attempts) throw error;
    }
  }
}
