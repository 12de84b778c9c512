/**
 * Rollback into the folder: which files a restore would write, and whether each changed since the checkpoint.
 *
 * A file changed by several entries goes back to the before-state of its oldest entry; it counts as "changed
 * since" when its current bytes differ from the after-state of its newest entry. A patch entry (its change kept
 * only as a unified diff) is undone by reversing the diff on the file as it is now, newest entry first: a hunk
 * that no longer matches makes the file unavailable, named (`PatchDoesNotApply`). Nothing is written here except
 * by `applyRestore`, which first re-checks every file against the version the user confirmed (a file changed in
 * between makes the whole restore a `Conflict`, nothing written) and then writes each file atomically.
 */
import { BrainError } from '../../core/errors';
import { normaliseProjectPath, type ProjectPath } from '../../core/paths';
import { applyFilePatch, type FilePatch, type PatchApplied } from '../../core/unified-patch';
import type { AgentFolder } from './folder';
import { decodeText, encodeText } from './text';

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
  /** A patch entry's change (`readCheckpoint` refuses it with `BodiesUnknown`), verified as bodies are. */
  readPatch(entryId: CheckpointEntryId): Promise<{
    readonly id: CheckpointEntryId;
    readonly taskId: TaskId;
    readonly path: string;
    readonly patch: FilePatch;
  }>;
}

export interface RestorePlanResult {
  readonly files: readonly RestoreFilePlan[];
}

/** What `applyRestore` needs beyond the rows: each file's body to write, and why a refused file is refused. */
export interface RestorePlanDetail extends RestorePlanResult {
  readonly bodies: Map<string, CheckpointBody>;
  /** The typed error a file refused by the plan is refused with (a patch that no longer applies). */
  readonly refusals: Map<string, BrainError>;
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
type PatchRead = Awaited<ReturnType<RestoreCheckpointPort['readPatch']>>;

const isPatch = (read: Read | PatchRead | string | undefined): read is PatchRead =>
  typeof read === 'object' && 'patch' in read;

async function readOrReason(
  port: RestoreCheckpointPort,
  id: CheckpointEntryId,
): Promise<Read | PatchRead | string> {
  try {
    try {
      return await port.readCheckpoint(id);
    } catch (error) {
      if (error instanceof BrainError && error.code === 'BodiesUnknown') return await port.readPatch(id);
      throw error;
    }
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
): Promise<RestorePlanDetail> {
  const ids = await entriesOf(port, target);
  const reads = new Map<CheckpointEntryId, Read | PatchRead | string>();
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
  const refusals = new Map<string, BrainError>();
  for (const [recorded, entryIds] of byPath) {
    const chain = entryIds.map((id) => reads.get(id));
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
    if (chain.some(isPatch)) {
      const planned = await planPatchedFile(folder, path, chain);
      if (planned.body !== undefined) bodies.set(path, planned.body);
      if (planned.refusal) refusals.set(path, planned.refusal);
      files.push({ ...base, ...planned.row, path });
      continue;
    }
    // No patch among them: bodies, or the reason they cannot be read.
    const oldest = chain[0] as Read | string | undefined;
    const newest = chain[chain.length - 1] as Read | string | undefined;
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
  return { files, bodies, refusals };
}

const sameBody = (a: CheckpointBody, b: CheckpointBody) =>
  a === null || b === null ? a === b : sameBytes(toBytes(a), toBytes(b));

type PlannedRow = Pick<RestoreFilePlan, 'action' | 'state' | 'reason' | 'currentVersion'>;

/**
 * A file whose entries include a patch: the file as it is now, walked back newest entry first — a patch reversed
 * on it, a body entry's before taken (noting when the file differs from its after). A hunk that does not match is
 * a refusal naming it, unless the file already holds the state before the entries (each applies to it forwards).
 */
async function planPatchedFile(
  folder: AgentFolder,
  path: ProjectPath,
  chain: readonly (Read | PatchRead | string | undefined)[],
): Promise<{ row: PlannedRow; body?: CheckpointBody; refusal?: BrainError }> {
  const unavailable = (reason: string, currentVersion: FileVersion | null): { row: PlannedRow } => ({
    row: { action: 'none', state: 'unavailable', reason, currentVersion },
  });
  const unreadable = chain.find((read) => typeof read !== 'object');
  if (unreadable !== undefined || chain.length === 0)
    return unavailable(unreadable ?? 'No checkpoint body.', await folder.version(path));
  const entries = chain as readonly (Read | PatchRead)[];
  const now = await current(folder, path, folder.limits.maxReadBytes);
  if (now.bytes === undefined)
    return unavailable(
      `It is ${now.size} bytes now, over the ${folder.limits.maxReadBytes} bytes a patch is reversed on here.`,
      now.version,
    );
  let start: CheckpointBody;
  try {
    start = now.bytes === null ? null : decodeText(now.bytes, path);
  } catch (error) {
    if (!(error instanceof BrainError)) throw error;
    return unavailable(`${error.message} A recorded patch applies to text only.`, now.version);
  }
  let text: CheckpointBody = start;
  let changed: string | null = null;
  let refusal: BrainError | null = null;
  for (let i = entries.length - 1; i >= 0 && refusal === null; i--) {
    const entry = entries[i] as Read | PatchRead;
    if (!isPatch(entry)) {
      if (!sameBody(text, entry.after))
        changed ??= `It changed since checkpoint entry ${entry.id} (its bytes differ from that entry's after-state).`;
      text = entry.before;
      continue;
    }
    const reversed: PatchApplied | null =
      typeof text === 'string' ? applyFilePatch(text, entry.patch, 'reverse') : null;
    if (reversed?.ok) text = reversed.text;
    else refusal = patchRefusal(path, entry, reversed === null ? null : reversed.hunk);
  }
  if (refusal !== null) {
    if (holdsStateBefore(start, entries))
      return {
        row: { action: 'none', state: 'already-restored', reason: null, currentVersion: now.version },
      };
    return { ...unavailable(refusal.message, now.version), refusal };
  }
  if (sameBody(text, start))
    return { row: { action: 'none', state: 'already-restored', reason: null, currentVersion: now.version } };
  const row: PlannedRow = {
    action: text === null ? 'delete' : 'write',
    state: changed === null ? 'clean' : 'changed',
    reason:
      changed ??
      'Only a patch of the change was recorded (not the whole file): rolling back reverses it on the file as it is now.',
    currentVersion: now.version,
  };
  return { row, body: text };
}

/** Whether `text` is the state before the entries: each applies to it in turn, oldest first. */
function holdsStateBefore(text: CheckpointBody, entries: readonly (Read | PatchRead)[]): boolean {
  let at = text;
  for (const entry of entries) {
    if (isPatch(entry)) {
      const applied: PatchApplied | null =
        typeof at === 'string' ? applyFilePatch(at, entry.patch, 'forward') : null;
      if (!applied?.ok) return false;
      at = applied.text;
    } else {
      if (!sameBody(at, entry.before)) return false;
      at = entry.after;
    }
  }
  return true;
}

function patchRefusal(path: string, entry: PatchRead, hunk: string | null): BrainError {
  const details = { path, entryId: entry.id, hunk };
  if (hunk === null)
    return new BrainError(
      'PatchDoesNotApply',
      `${path} is not there now as text, so the patch of checkpoint entry ${entry.id} cannot be reversed on it.`,
      details,
    );
  return new BrainError(
    'PatchDoesNotApply',
    `${hunk} no longer matches ${path}: the file changed since checkpoint entry ${entry.id} recorded this patch, so the patch cannot be reversed on it.`,
    details,
  );
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
  restorePlan: RestorePlanDetail,
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
      throw (
        restorePlan.refusals.get(path) ??
        new BrainError('InvalidArgument', `"${path}" cannot be restored: ${row.reason ?? ''}`)
      );
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
