import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { BrainError } from '../../core/errors';
import { asCheckpointEntryId, asStepId, asTaskId, type CheckpointEntryId, type TaskId } from '../../core/ids';
import { requireId } from '../../core/model';
import { createBodyCache } from '../../storage/blobs/cache';
import { BODY_SIZE_CEILING } from '../../storage/blobs/codec';
import { bytesToText, looksBinary, textToBytes } from '../../storage/blobs/text';
import {
  createCheckpointsRepo,
  type EntryRecord,
  type NewEntry,
  type NewEntrySide,
} from '../../storage/sqlite/checkpoints-repo';
import { createTasksRepo } from '../../storage/sqlite/tasks-repo';
import type { EngineContext } from '../context';
import type {
  CheckpointBody,
  CheckpointContent,
  CheckpointDiff,
  CheckpointEntry,
  CheckpointFileInput,
  CheckpointsApi,
} from '../../core/api/checkpoints';

const MAX_PATH_CHARS = 4096;
/** Diffs of pathological inputs stop here rather than hold the engine for minutes. */
const DIFF_TIMEOUT_MS = 5_000;

const taskIdOf = (value: unknown) => asTaskId(requireId(value, 'taskId'));
const entryIdOf = (value: unknown) => asCheckpointEntryId(requireId(value, 'entryId'));

/** UTF-8 length of a string without encoding it (lone surrogates count as the 3 bytes of U+FFFD). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (
      unit >= 0xd800 &&
      unit <= 0xdbff &&
      i + 1 < text.length &&
      (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00
    ) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function prepareSide(value: unknown, what: string, cap: number): { side: NewEntrySide; binary: boolean } {
  if (value === null) return { side: { kind: 'absent' }, binary: false };
  if (typeof value === 'string') {
    // Cheap pre-check: a string of more UTF-16 units than the cap is over it in UTF-8 too.
    const size = value.length > cap ? utf8Length(value) : -1;
    if (size > cap) return { side: { kind: 'too-large', size }, binary: false };
    const raw = textToBytes(value, what);
    if (raw.length > cap) return { side: { kind: 'too-large', size: raw.length }, binary: false };
    return { side: { kind: 'text', raw }, binary: false };
  }
  if (value instanceof Uint8Array) {
    if (value.length > cap) return { side: { kind: 'too-large', size: value.length }, binary: true };
    // Our own copy: the caller may reuse its buffer, and the store caches what it writes.
    const raw = new Uint8Array(value);
    return { side: { kind: 'bytes', raw }, binary: looksBinary(raw) };
  }
  throw new BrainError('InvalidArgument', `${what} must be a string, a Uint8Array or null (file absent).`);
}

function requirePath(value: unknown): string {
  if (typeof value !== 'string' || value === '')
    throw new BrainError('InvalidArgument', 'A checkpoint path must be a non-empty string.');
  if (value.length > MAX_PATH_CHARS)
    throw new BrainError('TooLarge', `A checkpoint path is limited to ${MAX_PATH_CHARS} characters.`);
  if (value.includes('\0'))
    throw new BrainError('InvalidArgument', 'A checkpoint path cannot contain a NUL character.');
  return value;
}

function bodyOf(raw: Uint8Array | null, kind: EntryRecord['before']['kind'], what: string): CheckpointBody {
  if (kind === 'absent') return null;
  if (raw === null) throw new BrainError('Internal', `${what} has no stored body.`);
  if (kind === 'bytes') return raw.slice();
  const text = bytesToText(raw);
  // The bytes passed their SHA-256, so they are the UTF-8 we wrote; anything else is a bug, not damage.
  if (text === null) throw new BrainError('Internal', `${what} was stored as text but is not UTF-8.`);
  return text;
}

function notCheckpointedMessage(record: EntryRecord, cap: number): string {
  const sides = (['before', 'after'] as const).filter((side) => record[side].kind === 'too-large');
  const sizes = sides.map((side) => `${side}: ${record[side].size} bytes`).join(', ');
  return `Checkpoint entry ${record.id} (${record.path}) was not checkpointed in full: too large (${sizes}; the cap is ${cap} bytes).`;
}

/** Checkpoint entries: record file changes, list them, read them back verified, diff them. */
export function createCheckpointsFeature(ctx: EngineContext) {
  const { db, clock, limits } = ctx;
  const cache = createBodyCache();
  const repo = createCheckpointsRepo(db, { cache, now: () => clock.now() });
  const tasks = createTasksRepo(db);

  async function checkpointFiles(
    inputs: readonly CheckpointFileInput[],
  ): Promise<{ ids: CheckpointEntryId[] }> {
    if (!Array.isArray(inputs))
      throw new BrainError('InvalidArgument', 'checkpointFiles takes an array of changes.');
    // Never above what a read accepts: a body stored over the ceiling could not be read back.
    const cap = Math.min(limits.maxCheckpointBodyBytes, BODY_SIZE_CEILING);
    const prepared = inputs.map((input, index) => {
      const at = inputs.length > 1 ? ` (change ${index})` : '';
      const before = prepareSide(input?.before, `The before body${at}`, cap);
      const after = prepareSide(input?.after, `The after body${at}`, cap);
      return {
        taskId: taskIdOf(input.taskId),
        stepId: input.stepId === undefined ? null : asStepId(requireId(input.stepId, 'stepId')),
        path: requirePath(input.path),
        before: before.side,
        after: after.side,
        binary: before.binary || after.binary,
      };
    });
    const ids = await db.transaction(async () => {
      const known = new Set<TaskId>();
      const out: CheckpointEntryId[] = [];
      for (const entry of prepared) {
        if (!known.has(entry.taskId)) {
          await tasks.get(entry.taskId);
          known.add(entry.taskId);
        }
        if (entry.stepId !== null && (await repo.taskOfStep(entry.stepId)) !== entry.taskId) {
          throw new BrainError(
            'InvalidArgument',
            `Step ${entry.stepId} does not belong to task ${entry.taskId}.`,
          );
        }
        const newEntry: NewEntry = { ...entry, now: clock.now() };
        out.push(await repo.insert(newEntry));
      }
      return out;
    });
    for (const taskId of new Set(prepared.map((entry) => entry.taskId)))
      ctx.emit({ topic: 'checkpoints', taskId });
    return { ids };
  }

  async function read(entryId: CheckpointEntryId): Promise<CheckpointContent & { record: EntryRecord }> {
    const { record, before, after } = await repo.readBodies(entryIdOf(entryId));
    if (record.before.kind === 'too-large' || record.after.kind === 'too-large') {
      throw new BrainError('TooLarge', notCheckpointedMessage(record, limits.maxCheckpointBodyBytes), {
        entryId: record.id,
        path: record.path,
      });
    }
    const what = (side: string) => `The ${side} body of checkpoint entry ${record.id} (${record.path})`;
    return {
      record,
      id: record.id,
      taskId: record.taskId,
      path: record.path,
      before: bodyOf(before, record.before.kind, what('before')),
      after: bodyOf(after, record.after.kind, what('after')),
    };
  }

  const content = ({ id, taskId, path, before, after }: CheckpointContent): CheckpointContent => ({
    id,
    taskId,
    path,
    before,
    after,
  });

  return {
    async checkpointFile(input: CheckpointFileInput) {
      const { ids } = await checkpointFiles([input]);
      return { id: ids[0] as CheckpointEntryId };
    },

    checkpointFiles,

    async listCheckpoints(taskId: TaskId): Promise<CheckpointEntry[]> {
      const id = taskIdOf(taskId);
      return db.transaction(async () => {
        await tasks.get(id);
        return repo.list(id);
      });
    },

    // Reads run in one transaction: on OPFS every statement outside one re-validates the file (two I/O calls).
    async readCheckpoint(entryId: CheckpointEntryId): Promise<CheckpointContent> {
      return db.transaction(async () => content(await read(entryId)));
    },

    async readCheckpoints(entryIds: readonly CheckpointEntryId[]): Promise<CheckpointContent[]> {
      if (!Array.isArray(entryIds))
        throw new BrainError('InvalidArgument', 'readCheckpoints takes an array of entry ids.');
      const ids = entryIds.map(entryIdOf);
      return db.transaction(async () => {
        const out: CheckpointContent[] = [];
        for (const id of ids) out.push(content(await read(id)));
        return out;
      });
    },

    async diffCheckpoint(entryId: CheckpointEntryId): Promise<CheckpointDiff> {
      const id = entryIdOf(entryId);
      return db.transaction(() => diff(id));
    },
  } satisfies CheckpointsApi;

  async function diff(id: CheckpointEntryId): Promise<CheckpointDiff> {
    const record = await repo.get(id);
    const names = {
      a: record.before.kind === 'absent' ? '/dev/null' : `a/${record.path}`,
      b: record.after.kind === 'absent' ? '/dev/null' : `b/${record.path}`,
    };
    if (
      record.removed === null &&
      (record.before.kind === 'too-large' || record.after.kind === 'too-large')
    ) {
      const patch = `Files ${names.a} and ${names.b} differ (${notCheckpointedMessage(record, limits.maxCheckpointBodyBytes)})\n`;
      return { id, path: record.path, kind: 'too-large', patch, added: 0, removed: 0 };
    }
    const { before, after } = await read(id);
    const text = (body: CheckpointBody): string | null =>
      body === null ? '' : typeof body === 'string' ? body : looksBinary(body) ? null : bytesToText(body);
    const oldText = text(before);
    const newText = text(after);
    if (oldText === null || newText === null) {
      const same =
        before instanceof Uint8Array &&
        after instanceof Uint8Array &&
        before.length === after.length &&
        before.every((b, i) => b === after[i]);
      const patch = same ? '' : `Binary files ${names.a} and ${names.b} differ\n`;
      return { id, path: record.path, kind: 'binary', patch, added: 0, removed: 0 };
    }
    const structured = structuredPatch(names.a, names.b, oldText, newText, undefined, undefined, {
      context: 3,
      timeout: DIFF_TIMEOUT_MS,
    });
    if (structured === undefined) {
      throw new BrainError(
        'TooLarge',
        `The diff of checkpoint entry ${id} (${record.path}) took over ${DIFF_TIMEOUT_MS / 1000} s to compute.`,
      );
    }
    let added = 0;
    let removed = 0;
    for (const hunk of structured.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) added++;
        else if (line.startsWith('-')) removed++;
      }
    }
    const patch = structured.hunks.length === 0 ? '' : formatPatch(structured, FILE_HEADERS_ONLY);
    return { id, path: record.path, kind: 'text', patch, added, removed };
  }
}
