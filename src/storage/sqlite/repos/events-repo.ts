import { BrainError } from '../../../core/errors';
import { parseAgentTodos } from '../../../core/events/agent-notes';
import {
  eventFromRecord,
  eventKinds,
  fileChangeKinds,
  validationResults,
  type EventData,
  type EventKind,
  type EventRecord,
  type PlanStepId,
  type SessionEvent,
} from '../../../core/events/model';
import {
  asCheckpointEntryId,
  asEventId,
  asSessionId,
  asStepId,
  asTaskId,
  type EventId,
  type SessionId,
  type TaskId,
} from '../../../core/ids';
import type { SqlDriver } from '../driver';

export interface EventRow {
  id: number;
  session_id: number;
  task_id: number | null;
  step_id: number | null;
  plan_step_id: number | null;
  kind: EventKind;
  text: string;
  ref_event_id: number | null;
  path: string | null;
  checkpoint_entry_id: number | null;
  data: string;
  created_at: number;
  compressed_at: number | null;
}

const validData: Record<keyof EventData, (value: unknown) => boolean> = {
  why: (value) => typeof value === 'string',
  change: (value) => (fileChangeKinds as readonly unknown[]).includes(value),
  name: (value) => typeof value === 'string',
  command: (value) => typeof value === 'string',
  result: (value) => (validationResults as readonly unknown[]).includes(value),
  next: (value) => typeof value === 'string',
  outside: (value) => value === true,
  shown: (value) => value === true,
  said: (value) => value === true,
  baseline: (value) => value === true,
  todos: (value) => {
    try {
      parseAgentTodos(value);
      return true;
    } catch {
      return false;
    }
  },
};

/** The checks of `validData` in their order (the first invalid field is the one named), listed once. */
const dataChecks = Object.entries(validData);
const knownKinds: ReadonlySet<string> = new Set(eventKinds);

/** The event's kind-specific fields, or why the row cannot be read as its kind (it was changed outside agent-brain). */
function readData(row: EventRow): { data: EventData } | { unreadable: string } {
  if (!knownKinds.has(row.kind))
    return { unreadable: `its kind ${JSON.stringify(row.kind)} is not one this build knows` };
  let data: unknown;
  try {
    data = JSON.parse(row.data);
  } catch {
    return { unreadable: 'its data is not valid JSON' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { unreadable: 'its data is not a JSON object' };
  const fields = data as Record<string, unknown>;
  for (const [field, valid] of dataChecks) {
    if (fields[field] !== undefined && !valid(fields[field]))
      return { unreadable: `its data has an invalid ${field}` };
  }
  if (row.kind === 'validation' && (fields['name'] === undefined || fields['result'] === undefined))
    return { unreadable: 'its data lacks the validation name or result' };
  if ((row.kind === 'blocker_resolved' || row.kind === 'answer') && row.ref_event_id === null)
    return { unreadable: 'it lost the event it refers to' };
  if ((row.kind === 'plan_step_started' || row.kind === 'plan_step_done') && row.plan_step_id === null)
    return { unreadable: 'it lost its plan step' };
  return { data: fields as EventData };
}

/**
 * An event row as the typed event. A row that cannot be read as its kind reads as a note saying so (the kind and
 * text it held kept in `unreadable`), so one damaged row never makes the rest of a session unreadable.
 */
export function toEvent(row: EventRow): SessionEvent {
  const read = readData(row);
  // Fields assigned onto the row's stamp, not spread after it (in Node 20 `{ ...a, k }` costs microseconds).
  if ('unreadable' in read) {
    return Object.assign(stampOf(row), {
      kind: 'note' as const,
      text: `Event ${row.id} could not be read: ${read.unreadable}.`,
      unreadable: { kind: String(row.kind), text: String(row.text) },
    });
  }
  return eventFromRecord(
    Object.assign(stampOf(row), {
      kind: row.kind,
      text: row.text,
      refEventId: row.ref_event_id === null ? null : asEventId(row.ref_event_id),
      path: row.path,
      checkpointEntryId:
        row.checkpoint_entry_id === null ? null : asCheckpointEntryId(row.checkpoint_entry_id),
      data: read.data,
    }),
  );
}

/** The columns every event row has, as the event's first fields (in the events' key order). */
const stampOf = (row: EventRow) => ({
  id: asEventId(row.id),
  sessionId: asSessionId(row.session_id),
  taskId: row.task_id === null ? null : asTaskId(row.task_id),
  stepId: row.step_id === null ? null : asStepId(row.step_id),
  planStepId: row.plan_step_id === null ? null : (row.plan_step_id as PlanStepId),
  createdAt: row.created_at,
  compressedAt: row.compressed_at,
});

/** The record with its id and time, listed key by key (a spread with further keys is slow in Node 20). */
const stamped = (record: EventRecord, id: EventId, createdAt: number) => ({
  sessionId: record.sessionId,
  taskId: record.taskId,
  stepId: record.stepId,
  planStepId: record.planStepId,
  kind: record.kind,
  text: record.text,
  refEventId: record.refEventId,
  path: record.path,
  checkpointEntryId: record.checkpointEntryId,
  data: record.data,
  id,
  createdAt,
  compressedAt: null,
});

export interface ListEventsQuery {
  readonly taskId?: TaskId;
  readonly kinds?: readonly EventKind[];
  /** Only events with a greater id. */
  readonly afterId?: EventId;
  /** `false` (default): the whole log; `true`: only events still in the active context. */
  readonly activeOnly?: boolean;
  readonly limit?: number;
}

/** The session event log. Rows are appended and stamped as compressed; never rewritten otherwise. */
export function createEventsRepo(db: SqlDriver) {
  return {
    async insert(record: EventRecord, createdAt: number): Promise<SessionEvent> {
      const { lastInsertRowid } = await db.run(
        `INSERT INTO events (session_id, task_id, step_id, plan_step_id, kind, text, ref_event_id, path,
           checkpoint_entry_id, data, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.sessionId,
          record.taskId,
          record.stepId,
          record.planStepId,
          record.kind,
          record.text,
          record.refEventId,
          record.path,
          record.checkpointEntryId,
          JSON.stringify(record.data),
          createdAt,
        ],
      );
      return eventFromRecord(stamped(record, asEventId(lastInsertRowid), createdAt));
    },

    async get(id: EventId): Promise<SessionEvent> {
      const row = await db.get<EventRow>('SELECT * FROM events WHERE id = ?', [id]);
      if (!row) throw new BrainError('NotFound', `Event ${id} does not exist.`, { eventId: id });
      return toEvent(row);
    },

    async list(sessionId: SessionId, query: ListEventsQuery = {}): Promise<SessionEvent[]> {
      const where = ['session_id = ?'];
      const params: (number | string)[] = [sessionId];
      if (query.taskId !== undefined) {
        where.push('task_id = ?');
        params.push(query.taskId);
      }
      if (query.kinds !== undefined) {
        where.push('kind IN (SELECT value FROM json_each(?))');
        params.push(JSON.stringify(query.kinds));
      }
      if (query.afterId !== undefined) {
        where.push('id > ?');
        params.push(query.afterId);
      }
      if (query.activeOnly === true) where.push('compressed_at IS NULL');
      const limit = query.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(query.limit))}`;
      const rows = await db.all<EventRow>(
        `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY id${limit}`,
        params,
      );
      return rows.map(toEvent);
    },

    /** Stamps the given events as compressed away; returns how many were still active. */
    async markCompressed(ids: readonly EventId[], at: number): Promise<number> {
      if (ids.length === 0) return 0;
      const { changes } = await db.run(
        `UPDATE events SET compressed_at = ? WHERE compressed_at IS NULL AND id IN (SELECT value FROM json_each(?))`,
        [at, JSON.stringify(ids)],
      );
      return changes;
    },

    /** Those of `ids` that are events of the session already compressed away, in id order. */
    async compressedAmong(sessionId: SessionId, ids: readonly EventId[]): Promise<SessionEvent[]> {
      if (ids.length === 0) return [];
      const rows = await db.all<EventRow>(
        `SELECT * FROM events WHERE id IN (SELECT value FROM json_each(?)) AND session_id = ? AND compressed_at IS NOT NULL
         ORDER BY id`,
        [JSON.stringify(ids), sessionId],
      );
      return rows.map(toEvent);
    },

    /** The task a recorded tool step belongs to, or null when there is no such step. */
    async stepTask(stepId: number): Promise<TaskId | null> {
      const row = await db.get<{ task_id: number }>('SELECT task_id FROM steps WHERE id = ?', [stepId]);
      return row ? asTaskId(row.task_id) : null;
    },

    /** The event that already resolves/answers `id`, if any. */
    async firstReferrer(id: EventId, kind: 'blocker_resolved' | 'answer'): Promise<EventId | null> {
      const row = await db.get<{ id: number }>(
        'SELECT id FROM events WHERE ref_event_id = ? AND kind = ? ORDER BY id LIMIT 1',
        [id, kind],
      );
      return row ? asEventId(row.id) : null;
    },

    /** How much of the session is still in the active context (read through the partial index of active events). */
    async activeSize(sessionId: SessionId): Promise<{ events: number; chars: number }> {
      const row = await db.get<{ n: number; chars: number | null }>(
        'SELECT count(*) AS n, sum(length(text) + length(data)) AS chars FROM events WHERE session_id = ? AND compressed_at IS NULL',
        [sessionId],
      );
      return { events: row?.n ?? 0, chars: row?.chars ?? 0 };
    },

    /** The latest file change of `path` in the session: undefined when the session never recorded it. */
    async latestChangeOf(
      sessionId: SessionId,
      path: string,
    ): Promise<{ id: number; checkpointEntryId: number | null; change: string } | undefined> {
      const row = await db.get<{ id: number; checkpoint_entry_id: number | null; data: string }>(
        `SELECT id, checkpoint_entry_id, data FROM events WHERE session_id = ? AND path = ? AND kind = 'file_change'
         ORDER BY id DESC LIMIT 1`,
        [sessionId, path],
      );
      if (!row) return undefined;
      let change = 'modified';
      try {
        change = (JSON.parse(row.data) as { change?: string }).change ?? 'modified';
      } catch {
        // A damaged row: its body is then not known (no entry is trusted), the change reads as modified.
        return { id: row.id, checkpointEntryId: null, change };
      }
      return { id: row.id, checkpointEntryId: row.checkpoint_entry_id, change };
    },

    /** Paths of the session's file changes under `prefix` (`dir/`; '' for all), at most 10,000. */
    async pathsUnder(sessionId: SessionId, prefix: string): Promise<string[]> {
      const escaped = prefix.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await db.all<{ path: string }>(
        `SELECT DISTINCT path FROM events WHERE session_id = ? AND kind = 'file_change' AND path LIKE ? ESCAPE '\\'
         LIMIT 10000`,
        [sessionId, `${escaped}%`],
      );
      return rows.map((r) => r.path);
    },

    async lastId(sessionId: SessionId): Promise<EventId | null> {
      const row = await db.get<{ id: number | null }>(
        'SELECT max(id) AS id FROM events WHERE session_id = ?',
        [sessionId],
      );
      return row?.id == null ? null : asEventId(row.id);
    },
  };
}

export type EventsRepo = ReturnType<typeof createEventsRepo>;
