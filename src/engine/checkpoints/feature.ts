import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { BrainError } from '../../core/errors';
import { asStepId, type CheckpointEntryId, type StepId, type TaskId } from '../../core/ids';
import { requireId } from '../../core/model';
import { formatFilePatch, parseFilePatch, patchLineCounts } from '../../core/unified-patch';
import { createBodyCache } from '../../storage/blobs/cache';
import { BODY_SIZE_CEILING } from '../../storage/blobs/codec';
import { bytesToText, looksBinary } from '../../storage/blobs/text';
import {
  createCheckpointsRepo,
  type EntryRecord,
  type NewEntry,
} from '../../storage/sqlite/repos/checkpoints-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import { createRecentBodies } from '../../storage/blobs/recent-bodies';
import type { EngineContext } from '../context';
import {
  bodyOf,
  DIFF_TIMEOUT_MS,
  entryIdOf,
  notCheckpointedMessage,
  preparePatch,
  prepareSide,
  requirePath,
  taskIdOf,
} from './validate';
import type {
  CheckpointBody,
  CheckpointContent,
  CheckpointDiff,
  CheckpointEntry,
  CheckpointFileInput,
  CheckpointsApi,
} from '../../core/api/checkpoints';

/**
 * A change kept as a patch because its bodies are not known (the tool-call recorder's: a transcript that shows a
 * change only as a unified diff). `patch`: one file's unified diff.
 */
export interface PatchFileInput {
  readonly taskId: TaskId;
  readonly path: string;
  readonly patch: string;
  readonly stepId?: StepId;
}

/**
 * The body store the checkpoint features share (one body cache): validated inserts inside the caller's transaction
 * (`store`) — the tool-call recorder stores its entries in its own transaction through it — and verified reads.
 */
export function createCheckpointStore(ctx: EngineContext) {
  const { db, clock, limits } = ctx;
  const cache = createBodyCache();
  // An edit's before body is usually the previous edit's after body: encoded and hashed once (recent-bodies.ts).
  const recent = createRecentBodies();
  const repo = createCheckpointsRepo(db, { cache, recent, now: () => clock.now() });
  const tasks = createTasksRepo(db);
  // Never above what a read accepts: a body stored over the ceiling could not be read back.
  const bodyCap = () => Math.min(limits.maxCheckpointBodyBytes, BODY_SIZE_CEILING);

  /**
   * Validates and stores the entries in the caller's transaction (no change notice: the caller emits). `known`:
   * steps the caller inserted in this transaction, with their tasks (a batch of tool calls), not looked up again.
   * Patch entries only from the engine's own callers (`patches`): the public `checkpointFile(s)` takes bodies.
   */
  async function store(
    inputs: readonly (CheckpointFileInput | PatchFileInput)[],
    known?: ReadonlyMap<StepId, TaskId>,
    patches = false,
  ): Promise<CheckpointEntryId[]> {
    if (!Array.isArray(inputs))
      throw new BrainError('InvalidArgument', 'checkpointFiles takes an array of changes.');
    const cap = bodyCap();
    const prepared = inputs.map((input, index) => {
      const at = inputs.length > 1 ? ` (change ${index})` : '';
      const common = {
        taskId: taskIdOf(input?.taskId),
        stepId: input.stepId === undefined ? null : asStepId(requireId(input.stepId, 'stepId')),
        path: requirePath(input.path),
      };
      if (patches && 'patch' in input) {
        const patch = preparePatch(input.patch, `The patch${at}`, cap);
        const unknown = { kind: 'unknown' } as const;
        return { ...common, before: unknown, after: unknown, binary: false, patch };
      }
      const before = prepareSide(input?.before, `The before body${at}`, cap, recent);
      const after = prepareSide(input?.after, `The after body${at}`, cap, recent);
      return { ...common, before: before.side, after: after.side, binary: before.binary || after.binary };
    });
    const seen = new Set<TaskId>(known?.values());
    const out: CheckpointEntryId[] = [];
    for (const entry of prepared) {
      if (!seen.has(entry.taskId)) {
        await tasks.get(entry.taskId);
        seen.add(entry.taskId);
      }
      const stepTask =
        entry.stepId === null
          ? entry.taskId
          : (known?.get(entry.stepId) ?? (await repo.taskOfStep(entry.stepId)));
      if (stepTask !== entry.taskId) {
        throw new BrainError(
          'InvalidArgument',
          `Step ${entry.stepId} does not belong to task ${entry.taskId}.`,
        );
      }
      const newEntry: NewEntry = { ...entry, now: clock.now() };
      out.push(await repo.insert(newEntry));
    }
    return out;
  }

  /**
   * A patch entry's change, verified (`CheckpointRemoved`, `CorruptBody` with side `patch`, as for bodies);
   * `InvalidArgument` for an entry that holds bodies. For rollback, which reverses it on the file.
   */
  async function readPatch(entryId: CheckpointEntryId) {
    const id = entryIdOf(entryId);
    return db.transaction(async () => {
      const { record, patch: raw } = await repo.readBodies(id, { withPatch: true });
      if (raw === null)
        throw new BrainError(
          'InvalidArgument',
          `Checkpoint entry ${id} (${record.path}) holds bodies, not a patch.`,
        );
      const text = bytesToText(raw);
      const parsed = text === null ? null : parseFilePatch(text);
      // It parsed when it was stored and passed its SHA-256 now: anything else is a bug, not damage.
      if (parsed === null || !parsed.ok)
        throw new BrainError(
          'Internal',
          `The patch of checkpoint entry ${id} (${record.path}) does not parse.`,
        );
      return { id, taskId: record.taskId, path: record.path, patch: parsed.patch };
    });
  }

  return {
    repo,
    store,
    readPatch,
    /** Why `store` would refuse this diff as a patch entry (not one file's diff, over the cap), or null. */
    patchProblem(diff: string): string | null {
      try {
        preparePatch(diff, 'the diff', bodyCap());
        return null;
      } catch (error) {
        if (error instanceof BrainError) return error.message;
        throw error;
      }
    },
    /** Runs `work` with the shared body cache bounded to `bytes` (an import: cache.ts). */
    withBodyCacheAtMost: <T>(bytes: number, work: () => Promise<T>) => cache.atMost(bytes, work),
  };
}

export type CheckpointStore = ReturnType<typeof createCheckpointStore>;

/** Checkpoint entries: record file changes, list them, read them back verified, diff them. */
export function createCheckpointsFeature(
  ctx: EngineContext,
  shared: CheckpointStore = createCheckpointStore(ctx),
) {
  const { db, limits } = ctx;
  const { repo } = shared;
  const tasks = createTasksRepo(db);

  async function checkpointFiles(
    inputs: readonly CheckpointFileInput[],
  ): Promise<{ ids: CheckpointEntryId[] }> {
    const ids = await db.transaction(() => shared.store(inputs));
    for (const taskId of new Set(inputs.map((entry) => taskIdOf(entry.taskId))))
      ctx.emit({ topic: 'checkpoints', taskId });
    return { ids };
  }

  async function read(entryId: CheckpointEntryId): Promise<CheckpointContent & { record: EntryRecord }> {
    const { record, before, after } = await repo.readBodies(entryIdOf(entryId));
    if (record.patch !== null) {
      throw new BrainError(
        'BodiesUnknown',
        `Checkpoint entry ${record.id} (${record.path}) holds its change only as a patch: the file's whole ` +
          'bodies before and after were never seen. diffCheckpoint returns the patch.',
        { entryId: record.id, path: record.path },
      );
    }
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
    if (record.patch !== null) return patchDiff(id);
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

  /** A patch entry's diff: its verified bytes (a removed entry: `CheckpointRemoved`), headers named by the path. */
  async function patchDiff(entryId: CheckpointEntryId): Promise<CheckpointDiff> {
    const { id, path, patch: parsed } = await shared.readPatch(entryId);
    const { added, removed } = patchLineCounts(parsed);
    return { id, path, kind: 'patch', patch: formatFilePatch(parsed, path), added, removed };
  }
}
