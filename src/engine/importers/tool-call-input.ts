/**
 * A transcript's tool call as the recorder takes it: the call, the bodies and diffs the transcript carries (a body
 * the transcript lacks taken from the session's file-history backup of that path, when the folder was given), the
 * agent's cwd as the root, its stated intention, the transcript's time.
 */
import type { RecordToolCallInput, ToolCallFile } from '../../core/api/tool-calls';
import type { SessionId, TaskId } from '../../core/ids';
import type { TranscriptItem, TranscriptMeta } from '../../core/importers/types';
import { wholeText, type Bytes } from './bytes';

type ToolCallItem = Extract<TranscriptItem, { kind: 'tool_call' }>;
type BackupItem = Extract<TranscriptItem, { kind: 'file_backup' }>;

const MAX_BACKUP_BYTES = 64 * 1024 * 1024;

/** The file-history backups of the sessions being imported, and the latest one the transcript named per path. */
export function createBackupLookup(backups: ReadonlyMap<string, Bytes>) {
  const latest = new Map<string, string | null>();
  const key = (session: string, path: string) => `${session}\u0000${path}`;
  return {
    note(session: string, item: BackupItem) {
      latest.set(key(session, item.path), item.backupFileName);
    },
    /** The body the latest backup of `path` holds: null (the file did not exist), undefined (not known). */
    async body(session: string, paths: readonly string[]): Promise<string | null | undefined> {
      for (const path of paths) {
        const name = latest.get(key(session, path));
        if (name === undefined) continue;
        if (name === null) return null;
        const data = backups.get(`${session}/${name}`);
        if (data === undefined) return undefined;
        return wholeText(data, name, MAX_BACKUP_BYTES);
      }
      return undefined;
    },
  };
}

export type BackupLookup = ReturnType<typeof createBackupLookup>;

/** The spellings a path may have in a snapshot: as written, and relative to the cwd. */
function spellings(path: string, cwd: string | null): string[] {
  const out = [path];
  if (cwd && path.startsWith(`${cwd.replace(/\/+$/, '')}/`))
    out.push(path.slice(cwd.replace(/\/+$/, '').length + 1));
  else if (cwd && !path.startsWith('/')) out.push(`${cwd.replace(/\/+$/, '')}/${path}`);
  return out;
}

export interface CallContext {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
  readonly thought: string | null;
  readonly at: number;
  readonly meta: TranscriptMeta;
  readonly sourceSession: string;
  readonly backups: BackupLookup;
  readonly counts: { backups: number };
}

export async function toolCallInput(item: ToolCallItem, c: CallContext): Promise<RecordToolCallInput> {
  const files: ToolCallFile[] = [];
  for (const f of item.files ?? []) {
    let before = f.before;
    const after = f.after;
    if (before === undefined) {
      const backup = await c.backups.body(c.sourceSession, spellings(f.path, c.meta.cwd));
      if (backup !== undefined) {
        // The body the call saw: the recorder replays the call's edits onto it (core/tool-calls/file-changes.ts).
        before = backup;
        c.counts.backups++;
      }
    }
    files.push({
      path: f.path,
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
      // The change as the transcript shows it (structuredPatch, unified_diff): a patch entry if no body is known.
      // Not for a moved file: its diff is of the body at the new path, and the move is the call's own effect.
      ...(f.diff === undefined || f.movedTo !== undefined ? {} : { diff: f.diff }),
    });
  }
  const cwd = c.meta.cwd;
  return {
    sessionId: c.sessionId,
    taskId: c.taskId,
    call: item.call,
    ...(files.length > 0 ? { files } : {}),
    // An absolute folder: POSIX, or a Windows drive (`c:/Apps/shop`, `C:\\Apps\\shop`: Cline on Windows).
    ...(cwd && /^(?:\/|[A-Za-z]:[\\/])/.test(cwd) ? { root: cwd } : {}),
    ...(c.thought === null ? {} : { thought: c.thought }),
    at: c.at,
  };
}
