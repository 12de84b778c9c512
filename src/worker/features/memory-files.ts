/**
 * The few file operations the memory features need from the project's `.agent` folder. The project feature (the
 * folder layer) provides them; when no project folder is open the provider returns null and the memory features
 * work from agent.db alone (the files are written at the next compression after a folder is opened).
 */
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

export type MemoryFilesProvider = () => Promise<MemoryFiles | null>;

export const noMemoryFiles: MemoryFilesProvider = async () => null;

export const memoryPaths = {
  session: '.agent/SESSION.jsonl',
  history: '.agent/HISTORY.jsonl',
  summary: '.agent/SESSION_SUMMARY.md',
  plan: '.agent/plan/PLAN.md',
  progress: '.agent/plan/PROGRESS.md',
  skills: '.agent/skills',
} as const;
