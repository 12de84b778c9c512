/**
 * The two-phase form of recordToolCall for a live agent: `begin` before the tool runs, `end` with its output after.
 * Given `readFile` (a readable workspace), the recorder reads the bodies of the paths the classifier says the call
 * may touch before and after it, so every edit — a shell `sed -i` or heredoc included — reaches the engine with
 * both bodies. A command whose effects cannot be read from its text (a script that edits files, `git stash`) is
 * covered by `listFiles`, a cheap listing with sizes and times taken before and after: what changed is read after
 * (its earlier body is the one the session last recorded).
 */
import type {
  CheckpointBody,
  PlanStepId,
  RecordedToolCall,
  RecordToolCallInput,
  SessionId,
  TaskId,
  ToolCall,
  ToolCallFile,
} from '../core/api';
import { callFootprint } from '../core/tool-calls/file-changes';

export interface WorkspaceEntry {
  readonly path: string;
  readonly size: number;
  readonly mtime: number;
}

export interface ToolCallRecorderOptions {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  /** The workspace root the agent's paths are relative to (absolute), e.g. `/workspace`. */
  readonly root?: string;
  /** The file's body now (null: it does not exist), by the path as the agent's call names it. */
  readonly readFile?: (path: string) => Promise<CheckpointBody>;
  /** Every file of the workspace with its size and modification time (paths as readFile takes them). */
  readonly listFiles?: () => Promise<readonly WorkspaceEntry[]>;
  /** Most files read after a listing showed them changed (default 200); more are recorded without bodies. */
  readonly maxListedChanges?: number;
  /**
   * A listed workspace of at most this many bytes (default 4 MiB) is read whole before a call the listing backs,
   * so a file a script changes has its before-body too; a larger one relies on what the session last recorded.
   */
  readonly snapshotBytes?: number;
}

export interface PendingToolCall {
  /** The paths whose bodies were read before the call. */
  readonly paths: readonly string[];
  end(
    result?: Pick<ToolCall, 'output' | 'exitCode' | 'error' | 'isError' | 'result'>,
  ): Promise<RecordedToolCall>;
}

type Recorder = { recordToolCall(input: RecordToolCallInput): Promise<RecordedToolCall> };

async function readAll(read: (path: string) => Promise<CheckpointBody>, paths: readonly string[]) {
  const bodies = new Map<string, CheckpointBody>();
  for (const path of paths) {
    try {
      bodies.set(path, await read(path));
    } catch {
      // Unreadable now (a directory, a permission): not known, never a failed recording.
    }
  }
  return bodies;
}

const changedEntries = (before: readonly WorkspaceEntry[], after: readonly WorkspaceEntry[]) => {
  const old = new Map(before.map((e) => [e.path, e]));
  const changed: { path: string; removed: boolean }[] = [];
  for (const e of after) {
    const was = old.get(e.path);
    if (!was || was.size !== e.size || was.mtime !== e.mtime) changed.push({ path: e.path, removed: false });
    old.delete(e.path);
  }
  for (const path of old.keys()) changed.push({ path, removed: true });
  return changed;
};

export function toolCallRecorder(brain: Recorder, options: ToolCallRecorderOptions) {
  const base = {
    sessionId: options.sessionId,
    taskId: options.taskId,
    ...(options.root === undefined ? {} : { root: options.root }),
  };
  const maxListed = options.maxListedChanges ?? 200;

  return {
    /** Before the tool runs: reads what it may change. */
    async begin(
      call: Pick<ToolCall, 'tool' | 'input'>,
      extra: { readonly thought?: string; readonly planStepId?: PlanStepId; readonly at?: number } = {},
    ): Promise<PendingToolCall> {
      const { paths, list } = callFootprint(call, options.root ?? null);
      const { readFile, listFiles } = options;
      const before = readFile ? await readAll(readFile, paths) : new Map<string, CheckpointBody>();
      const listing = list && listFiles ? await listFiles() : null;
      const snapshotBytes = options.snapshotBytes ?? 4 * 1024 * 1024;
      const small = listing !== null && listing.reduce((n, e) => n + e.size, 0) <= snapshotBytes;
      const snapshot =
        readFile && listing && small
          ? await readAll(
              readFile,
              listing.map((e) => e.path),
            )
          : new Map<string, CheckpointBody>();
      return {
        paths,
        async end(result = {}) {
          const files: ToolCallFile[] = [];
          if (readFile) {
            const after = await readAll(readFile, paths);
            for (const path of paths) {
              const entry: { path: string; before?: CheckpointBody; after?: CheckpointBody } = { path };
              if (before.has(path)) entry.before = before.get(path) as CheckpointBody;
              if (after.has(path)) entry.after = after.get(path) as CheckpointBody;
              files.push(entry);
            }
            if (listing && listFiles) {
              const named = new Set(paths);
              const changed = changedEntries(listing, await listFiles()).filter((c) => !named.has(c.path));
              for (const c of changed.slice(0, maxListed)) {
                const body = c.removed ? null : (await readAll(readFile, [c.path])).get(c.path);
                const entry: { path: string; before?: CheckpointBody; after?: CheckpointBody } = {
                  path: c.path,
                };
                if (snapshot.has(c.path)) entry.before = snapshot.get(c.path) as CheckpointBody;
                else if (small) entry.before = null; // not in a whole listing before: it did not exist
                if (body !== undefined) entry.after = body;
                files.push(entry);
              }
            }
          }
          return brain.recordToolCall({
            ...base,
            ...extra,
            call: { ...call, ...result },
            ...(files.length === 0 ? {} : { files }),
          });
        },
      };
    },

    /** A call whose result is already known (no bodies read around it). */
    record(call: ToolCall, extra: { readonly thought?: string; readonly at?: number } = {}) {
      return brain.recordToolCall({ ...base, ...extra, call });
    },
  };
}

export type ToolCallRecorder = ReturnType<typeof toolCallRecorder>;
