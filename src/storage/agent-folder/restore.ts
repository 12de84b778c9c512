/**
 * Rollback into the folder: which files a restore would write, and whether each changed since the checkpoint.
 *
 * A file changed by several entries goes back to the before-state of its oldest entry; it counts as "changed
 * since" when its current bytes differ from the after-state of its newest entry. Nothing is written here except
 * by `applyRestore`, which first re-checks every file against the version the user confirmed (a file changed in
 * between makes the whole restore a `Conflict`, nothing written) and then writes each file atomically.
 */
import { BrainError } from '../../core/errors';
import { normaliseProjectPath, type ProjectPath } from '../../core/paths';
import type { AgentFolder } from './folder';
import { encodeText } from './text';

import type { CheckpointBody, CheckpointEntry } from '../../core/api/checkpoints';
import type { FileVersion, RestoreFilePlan, RestoreFileState, RestoreTarget } from '../../core/api/project';
import type { CheckpointEntryId, TaskId } from '../../core/ids';

/** What the restore needs from the checkpoint store (the engine passes its checkpoints feature). */
export interface RestoreCheckpointPort {
  listCheckpoints(taskId: TaskId): Promise<readonly Pick<CheckpointEntry, 'id' | 'path'>[]>;
  readCheckpoint(entryId: CheckpointEntryId): Promise<{
    readonly id: CheckpointEntryId;
    readonly taskId: TaskId;
    readonly path: string;
    readonly before: CheckpointBody;
    readonly after: CheckpointBody;
  }>;
}

export interface RestorePlanResult {
  readonly files: readonly RestoreFilePlan[];
}

const toBytes = (body: string | Uint8Array) => (typeof body === 'string' ? encodeText(body) : body);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function entriesOf(port: RestoreCheckpointPort, target: RestoreTarget): Promise<CheckpointEntryId[]> {
  if ('taskId' in target) return (await port.listCheckpoints(target.taskId)).map((e) => e.id);
  if (!Array.isArray(target.entryIds) || target.entryIds.length === 0) {
    throw new BrainError(
      'InvalidArgument',
      'A restore names checkpoint entries ({ entryIds: [...] }) or a task ({ taskId }).',
    );
  }
  return [...new Set(target.entryIds)].sort((a, b) => a - b);
}

type Read = Awaited<ReturnType<RestoreCheckpointPort['readCheckpoint']>>;

async function readOrReason(port: RestoreCheckpointPort, id: CheckpointEntryId): Promise<Read | string> {
  try {
    return await port.readCheckpoint(id);
  } catch (error) {
    if (
      error instanceof BrainError &&
      ['CheckpointRemoved', 'TooLarge', 'CorruptBody', 'NotFound'].includes(error.code)
    )
      return error.message;
    throw error;
  }
}

/** The current bytes when the file is there and not over `max` bytes; null when absent. */
async function current(folder: AgentFolder, path: ProjectPath, max: number) {
  const info = await folder.stat(path);
  if (!info) return { bytes: null, version: null, size: 0 };
  if (info.size > max) return { bytes: undefined, version: await folder.version(path), size: info.size };
  const read = await folder.read(path, { maxBytes: max });
  return { bytes: read.bytes, version: read.version, size: read.size };
}

/** Plans a restore: one row per file, oldest entry's before-state against newest entry's after-state. */
export async function planRestore(
  folder: AgentFolder,
  port: RestoreCheckpointPort,
  target: RestoreTarget,
): Promise<RestorePlanResult & { bodies: Map<string, CheckpointBody> }> {
  const ids = await entriesOf(port, target);
  const reads = new Map<CheckpointEntryId, Read | string>();
  for (const id of ids) reads.set(id, await readOrReason(port, id));
  const metaPath = (id: CheckpointEntryId) => {
    const read = reads.get(id);
    return typeof read === 'string' ? null : (read?.path ?? null);
  };
  // Group by the path as recorded; entries whose body is unreadable still need their path: list gives it.
  const listed =
    'taskId' in target
      ? new Map((await port.listCheckpoints(target.taskId)).map((e) => [e.id, e.path]))
      : new Map<CheckpointEntryId, string>();
  const byPath = new Map<string, CheckpointEntryId[]>();
  for (const id of ids) {
    const path = metaPath(id) ?? listed.get(id) ?? `(entry ${id})`;
    byPath.set(path, [...(byPath.get(path) ?? []), id]);
  }
  const files: RestoreFilePlan[] = [];
  const bodies = new Map<string, CheckpointBody>();
  for (const [recorded, entryIds] of byPath) {
    const oldest = reads.get(entryIds[0] as CheckpointEntryId);
    const newest = reads.get(entryIds[entryIds.length - 1] as CheckpointEntryId);
    const taskIds = [
      ...new Set(
        entryIds.map((id) => reads.get(id)).flatMap((r) => (r && typeof r !== 'string' ? [r.taskId] : [])),
      ),
    ];
    const base = { entryIds, taskIds };
    let path: ProjectPath;
    try {
      path = normaliseProjectPath(recorded);
    } catch (error) {
      files.push({
        ...base,
        path: recorded,
        action: 'none',
        state: 'unavailable',
        reason: error instanceof BrainError ? error.message : String(error),
        currentVersion: null,
      });
      continue;
    }
    if (typeof oldest === 'string' || oldest === undefined) {
      files.push({
        ...base,
        path,
        action: 'none',
        state: 'unavailable',
        reason: oldest ?? 'No checkpoint body.',
        currentVersion: await folder.version(path),
      });
      continue;
    }
    const before = oldest.before;
    const now = await current(
      folder,
      path,
      Math.max(folder.limits.maxReadBytes, before === null ? 0 : toBytes(before).length),
    );
    const action = before === null ? 'delete' : 'write';
    const isBefore =
      before === null ? now.bytes === null : now.bytes != null && sameBytes(now.bytes, toBytes(before));
    let state: RestoreFileState;
    let reason: string | null = null;
    if (isBefore) state = 'already-restored';
    else if (typeof newest === 'string' || newest === undefined) {
      state = 'changed';
      reason = `Cannot tell whether it changed since the checkpoint: ${newest ?? 'no after-state'}`;
    } else if (
      newest.after === null
        ? now.bytes === null
        : now.bytes != null && sameBytes(now.bytes, toBytes(newest.after))
    )
      state = 'clean';
    else {
      state = 'changed';
      reason =
        now.bytes === null
          ? 'It was deleted since the checkpoint.'
          : 'It changed since the checkpoint (its bytes differ from the checkpoint’s after-state).';
    }
    bodies.set(path, before);
    files.push({
      ...base,
      path,
      action: state === 'already-restored' ? 'none' : action,
      state,
      reason,
      currentVersion: now.version,
    });
  }
  return { files, bodies };
}

export interface ConfirmedFile {
  readonly path: string;
  /** `currentVersion` from the restore plan the user saw. */
  readonly expectedVersion: FileVersion | null;
}

export interface AppliedFile {
  readonly path: ProjectPath;
  /** What the file held before this restore (null: absent) and what it holds now — for the restore's own checkpoint. */
  readonly previous: Uint8Array | null;
  readonly restored: CheckpointBody;
}

/**
 * Writes the before-states of the confirmed files. Every confirmed file must be in the restore plan and restorable, and
 * still at the version the user saw; otherwise nothing is written. Returns what each written file held before
 * (for the restore's own checkpoint) — also when a later write fails, so what was written can still be recorded.
 */
export async function applyRestore(
  folder: AgentFolder,
  restorePlan: RestorePlanResult & { bodies: Map<string, CheckpointBody> },
  confirmed: readonly ConfirmedFile[],
): Promise<{ applied: AppliedFile[]; failure: unknown }> {
  if (!Array.isArray(confirmed))
    throw new BrainError('InvalidArgument', 'Confirm the files to restore as [{ path, expectedVersion }].');
  const rows = new Map(restorePlan.files.map((f) => [f.path, f]));
  const chosen = confirmed.map((c) => {
    const path = normaliseProjectPath(c?.path);
    const row = rows.get(path);
    if (!row) throw new BrainError('InvalidArgument', `"${path}" is not part of this restore.`);
    if (row.state === 'unavailable')
      throw new BrainError('InvalidArgument', `"${path}" cannot be restored: ${row.reason ?? ''}`);
    if ((c.expectedVersion ?? null) !== row.currentVersion) {
      throw new BrainError(
        'Conflict',
        `"${path}" changed since the restore was planned; nothing was restored. Review the files again.`,
        { path },
      );
    }
    return { path, row };
  });
  const previous = new Map<string, Uint8Array | null>();
  for (const { path, row } of chosen) {
    if (row.action === 'none') continue;
    const info = await folder.stat(path);
    previous.set(path, info ? (await folder.read(path, { maxBytes: Math.max(info.size, 1) })).bytes : null);
  }
  const applied: AppliedFile[] = [];
  try {
    for (const { path, row } of chosen) {
      if (row.action === 'none') continue;
      const body = restorePlan.bodies.get(path) ?? null;
      if (body === null) await folder.remove(path, { expectedVersion: row.currentVersion ?? undefined });
      else await folder.write(path, toBytes(body), { expectedVersion: row.currentVersion });
      applied.push({ path, previous: previous.get(path) ?? null, restored: body });
    }
  } catch (error) {
    return { applied, failure: error };
  }
  return { applied, failure: null };
}
