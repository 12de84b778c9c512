import { BrainError, isBrainError } from '../../core/errors';
import { eventToLine } from '../../core/events/lines';
import { recordToLine } from '../../core/formats/jsonl';
import { eventDocument, parseEventInput, type EventRecord, type SessionEvent } from '../../core/events/model';
import type { EventId, SessionId } from '../../core/ids';
import { createEventsRepo } from '../../storage/sqlite/repos/events-repo';
import { createHistoryRepo, type HistoryDoc } from '../../storage/sqlite/repos/history-repo';
import { createPlansRepo } from '../../storage/sqlite/repos/plans-repo';
import { createSessionsRepo } from '../../storage/sqlite/repos/sessions-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import type { EngineContext } from '../context';
import type { RecordedBatch, RecordedEvent } from '../../core/api/memory';

import { memoryPaths, type MemoryFilesProvider } from '../memory-files';

const MAX_BATCH = 10_000;

/** Writes a batch puts off to its end (see insertAll). */
export interface DeferredWrites {
  readonly docs: HistoryDoc[];
  readonly touch: Map<SessionId, number>;
}

type LinkCache = Map<string, Promise<unknown>>;

function memo<T>(cache: LinkCache, key: string, load: () => Promise<T>): Promise<T> {
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = load();
    cache.set(key, hit);
  }
  return hit;
}

export const errorText = (error: unknown) =>
  error instanceof Error ? `${isBrainError(error) ? `${error.code}: ` : ''}${error.message}` : String(error);

/**
 * The event log shared by the memory features: validates an event against what it points at, stores it with its
 * search document in one transaction, then appends its line to `.agent/SESSION.jsonl` when a folder is open.
 */
export function createEventLog(ctx: EngineContext, files: MemoryFilesProvider) {
  const { db, clock } = ctx;
  const sessions = createSessionsRepo(db);
  const tasks = createTasksRepo(db);
  const events = createEventsRepo(db);
  const history = createHistoryRepo(db);
  const plans = createPlansRepo(db);
  /**
   * Set by the compression feature: compresses the session when its active context passed its bound; true when
   * it did. Called after a session's events are published (here, or by an import after its commit).
   */
  const hooks: { afterPublish: ((sessionId: SessionId) => Promise<boolean>) | null } = { afterPublish: null };

  async function referenced(
    id: EventId,
    sessionId: SessionId,
    kind: SessionEvent['kind'],
    what: string,
  ): Promise<SessionEvent> {
    const target = await events.get(id).catch((error: unknown) => {
      if (isBrainError(error, 'NotFound'))
        throw new BrainError('NotFound', `${what} ${id} does not exist.`, { eventId: id });
      throw error;
    });
    if (target.kind === 'note' && target.unreadable !== undefined && target.unreadable.kind === kind) {
      // A damaged row reads as a note saying so: say that, rather than that it is of the wrong kind.
      throw new BrainError('CorruptDatabase', `${target.text} ${what} must be one that can be read.`, {
        eventId: id,
      });
    }
    if (target.sessionId !== sessionId || target.kind !== kind) {
      throw new BrainError(
        'InvalidArgument',
        `Event ${id} is not a ${kind} of session ${sessionId}; ${what.toLowerCase()} must be one.`,
      );
    }
    return target;
  }

  /**
   * Fills defaults (the session's current task, the task's started plan step) and checks every link. `cache`
   * shares the session/task lookups between the events of one batch (one transaction: they cannot change).
   */
  async function resolveLinks(record: EventRecord, cache: LinkCache): Promise<EventRecord> {
    const session = await memo(cache, `s${record.sessionId}`, () => sessions.get(record.sessionId));
    const taskId = record.taskId ?? session.currentTaskId;
    if (taskId !== null) {
      const task = await memo(cache, `t${taskId}`, () => tasks.get(taskId));
      if (task.sessionId !== record.sessionId) {
        throw new BrainError(
          'InvalidArgument',
          `Task ${taskId} belongs to session ${task.sessionId}, not ${record.sessionId}.`,
        );
      }
    }
    let planStepId = record.planStepId;
    if (planStepId !== null) {
      const step = await plans.step(planStepId);
      if (taskId !== null && step.taskId !== taskId) {
        const owner = await tasks.get(step.taskId);
        if (owner.sessionId !== record.sessionId) {
          throw new BrainError('InvalidArgument', `Plan step ${planStepId} belongs to another session.`);
        }
      }
    } else if (taskId !== null && record.kind !== 'instruction') {
      planStepId = await memo(cache, `p${taskId}`, () => plans.currentStep(taskId));
    }
    if (record.stepId !== null) {
      const stepId = record.stepId;
      const stepTask = await memo(cache, `st${stepId}`, () => events.stepTask(stepId));
      if (stepTask === null) throw new BrainError('NotFound', `Step ${record.stepId} does not exist.`);
    }
    if (record.refEventId !== null) {
      if (record.kind === 'decision')
        await referenced(record.refEventId, record.sessionId, 'decision', 'The superseded decision');
      if (record.kind === 'blocker_resolved') {
        await referenced(record.refEventId, record.sessionId, 'blocker', 'The blocker');
        const by = await events.firstReferrer(record.refEventId, 'blocker_resolved');
        if (by !== null)
          throw new BrainError(
            'Conflict',
            `Blocker ${record.refEventId} was already resolved by event ${by}.`,
          );
      }
      if (record.kind === 'answer')
        await referenced(record.refEventId, record.sessionId, 'question', 'The question');
    }
    return { ...record, taskId, planStepId };
  }

  async function appendToSessionFile(
    ...batch: SessionEvent[]
  ): Promise<Pick<RecordedEvent, 'sessionFile' | 'sessionFileError'>> {
    try {
      const folder = await files(batch[0]?.sessionId);
      if (!folder) return { sessionFile: 'no-folder' };
      await folder.appendLines(
        memoryPaths.session,
        batch.map((event) => recordToLine(eventToLine(event))),
      );
      return { sessionFile: 'appended' };
    } catch (error) {
      return { sessionFile: 'failed', sessionFileError: errorText(error) };
    }
  }

  /** The search document of an event (indexed by the caller, one statement per batch). */
  function documentOf(event: SessionEvent): HistoryDoc {
    const doc = eventDocument(event);
    return {
      source: 'event',
      sourceId: event.id,
      sessionId: event.sessionId,
      taskId: event.taskId,
      stepId: event.stepId,
      planStepId: event.planStepId,
      kind: event.kind,
      path: event.kind === 'file_change' ? event.path : null,
      checkpointEntryId: event.kind === 'file_change' ? event.checkpointEntryId : null,
      title: doc.title,
      body: doc.body,
      createdAt: event.createdAt,
    };
  }

  /**
   * Stores events inside the caller's transaction, with their search documents (no file write, no emit). `at`:
   * their time when it is not now (an import keeps the transcript's times); `cache` shares lookups across calls
   * of one transaction.
   */
  async function insertAll(
    records: readonly EventRecord[],
    at?: number,
    cache: LinkCache = new Map(),
    deferred?: DeferredWrites,
  ): Promise<SessionEvent[]> {
    const stored: SessionEvent[] = [];
    for (const record of records)
      stored.push(await events.insert(await resolveLinks(record, cache), at ?? clock.now()));
    if (stored.length === 0) return stored;
    if (deferred) {
      // A batch writes its search documents and session times once, at its end (flushDeferred).
      deferred.docs.push(...stored.map(documentOf));
      for (const e of stored) deferred.touch.set(e.sessionId, e.createdAt);
      return stored;
    }
    await history.insertDocs(stored.map(documentOf));
    for (const sessionId of new Set(stored.map((e) => e.sessionId))) {
      await sessions.touch(sessionId, (stored.at(-1) as SessionEvent).createdAt);
    }
    return stored;
  }

  /** What insertAll left for the end of a batch: one statement for every document, one touch per session. */
  async function flushDeferred(deferred: DeferredWrites) {
    if (deferred.docs.length > 0) await history.insertDocs(deferred.docs.splice(0));
    for (const [sessionId, at] of deferred.touch) await sessions.touch(sessionId, at);
    deferred.touch.clear();
  }

  const insert = async (record: EventRecord): Promise<SessionEvent> =>
    (await insertAll([record]))[0] as SessionEvent;

  /** After the transaction committed: the SESSION.jsonl line and the change notice. */
  async function published(event: SessionEvent): Promise<RecordedEvent> {
    ctx.emit({
      topic: 'events',
      sessionId: event.sessionId,
      ...(event.taskId === null ? {} : { taskId: event.taskId }),
    });
    const recorded: RecordedEvent = { id: event.id, event, ...(await appendToSessionFile(event)) };
    if (!hooks.afterPublish) return recorded;
    try {
      return (await hooks.afterPublish(event.sessionId)) ? { ...recorded, autoCompressed: true } : recorded;
    } catch (error) {
      return { ...recorded, autoCompressError: errorText(error) };
    }
  }

  async function record(input: unknown): Promise<RecordedEvent> {
    const parsed = parseEventInput(input);
    const event = await db.transaction(() => insert(parsed));
    return published(event);
  }

  /** Many events in one transaction (a replay, an import): all or none; one append, one compression check. */
  async function recordMany(inputs: unknown): Promise<RecordedBatch> {
    if (!Array.isArray(inputs))
      throw new BrainError('InvalidArgument', 'recordEvents takes an array of events.');
    if (inputs.length > MAX_BATCH)
      throw new BrainError(
        'TooLarge',
        `recordEvents takes at most ${MAX_BATCH} events a call; got ${inputs.length}.`,
      );
    const parsed = inputs.map((input, index) => {
      try {
        return parseEventInput(input);
      } catch (error) {
        if (error instanceof BrainError)
          throw new BrainError(error.code, `Event ${index}: ${error.message}`, error.details);
        throw error;
      }
    });
    const stored = await db.transaction(() => insertAll(parsed));
    return publishMany(stored);
  }

  /** After a batch's transaction committed: change notices, one SESSION.jsonl append, one compression check. */
  async function publishMany(stored: readonly SessionEvent[]): Promise<RecordedBatch> {
    const sessionIds = [...new Set(stored.map((e) => e.sessionId))];
    for (const sessionId of sessionIds) ctx.emit({ topic: 'events', sessionId });
    const file =
      stored.length === 0 ? { sessionFile: 'no-folder' as const } : await appendToSessionFile(...stored);
    let autoCompressed = false;
    for (const sessionId of sessionIds) {
      if (hooks.afterPublish && (await hooks.afterPublish(sessionId))) autoCompressed = true;
    }
    return {
      ids: stored.map((e) => e.id),
      ...file,
      ...(autoCompressed ? { autoCompressed: true as const } : {}),
    };
  }

  /** Parses and stores inside the caller's transaction; publish with `published` after it commits. */
  const insertParsed = (input: unknown) => insert(parseEventInput(input));

  return {
    ctx,
    hooks,
    record,
    recordMany,
    insert,
    insertAll,
    flushDeferred,
    insertParsed,
    publishMany,
    published,
    repos: { sessions, tasks, events, history, plans },
  };
}

export type EventLog = ReturnType<typeof createEventLog>;
