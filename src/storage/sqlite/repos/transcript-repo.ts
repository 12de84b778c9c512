import { BrainError, isBrainError } from '../../../core/errors';
import { checkJson } from '../../../core/json-bounds';
import { asMessageId, asSessionId, asStepId, asSummaryId, asTaskId } from '../../../core/ids';
import type { MessageId, SessionId, StepId, SummaryId, TaskId } from '../../../core/ids';
import type { Json, Message, MessageRole, Step, StepStatus, Summary } from '../../../core/model';
import type { SqlDriver } from '../driver';
import { packJson, unpackJson, type StoredJson } from './step-json';

interface MessageRow {
  id: number;
  session_id: number;
  task_id: number | null;
  role: MessageRole;
  content: string;
  created_at: number;
}

/** A step row as stored: params and result each JSON text, or packed (step-json.ts). */
export interface StepRow {
  id: number;
  task_id: number;
  seq: number;
  tool: string;
  params: StoredJson;
  result: StoredJson;
  status: StepStatus;
  created_at: number;
}

interface SummaryRow {
  id: number;
  session_id: number;
  task_id: number | null;
  kind: string;
  content: string;
  created_at: number;
}

/** A stored step as the history index reads it: params and result as their JSON text (unpacked). */
export interface StepToIndex {
  readonly id: StepId;
  readonly taskId: TaskId;
  readonly sessionId: SessionId | null;
  readonly seq: number;
  readonly tool: string;
  readonly params: string;
  readonly result: string;
  readonly status: StepStatus;
  readonly createdAt: number;
}

/**
 * A stored step as the history index reads it (its JSON columns as their text), with its task's session.
 * `CorruptDatabase` when a packed column cannot be decoded.
 */
export const toStepToIndex = (row: StepRow & { session_id: number | null }): StepToIndex => ({
  id: asStepId(row.id),
  taskId: asTaskId(row.task_id),
  sessionId: row.session_id === null ? null : asSessionId(row.session_id),
  seq: row.seq,
  tool: row.tool,
  params: unpackJson(row.params, row.id, 'params'),
  result: unpackJson(row.result, row.id, 'result'),
  status: row.status,
  createdAt: row.created_at,
});

const toMessage = (row: MessageRow): Message => ({
  id: asMessageId(row.id),
  sessionId: asSessionId(row.session_id),
  taskId: row.task_id === null ? null : asTaskId(row.task_id),
  role: row.role,
  content: row.content,
  createdAt: row.created_at,
});

/**
 * A stored params/result column read back: its value, or why it cannot be (the row was changed outside
 * agent-brain, or stored before values were bounded) — then the step still reads, that part as null.
 */
function readJsonColumn(text: string, part: 'params' | 'result'): { value: Json } | { unreadable: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { unreadable: `${part} is not valid JSON` };
  }
  try {
    // Bounded as recordStep bounds it: a deeper value could not be sent out of the worker.
    checkJson(value, part);
  } catch (error) {
    if (isBrainError(error)) return { unreadable: error.message.replace(/\.$/, '') };
    throw error;
  }
  return { value: value as Json };
}

/** A stored step read back; a packed column that cannot be decoded throws `CorruptDatabase` (step-json.ts). */
function toStep(row: StepRow): Step {
  const params = readJsonColumn(unpackJson(row.params, row.id, 'params'), 'params');
  const result = readJsonColumn(unpackJson(row.result, row.id, 'result'), 'result');
  const unreadable = {
    ...('unreadable' in params ? { params: params.unreadable } : {}),
    ...('unreadable' in result ? { result: result.unreadable } : {}),
  };
  return {
    id: asStepId(row.id),
    taskId: asTaskId(row.task_id),
    seq: row.seq,
    tool: row.tool,
    params: 'value' in params ? params.value : null,
    result: 'value' in result ? result.value : null,
    status: row.status,
    createdAt: row.created_at,
    ...(Object.keys(unreadable).length > 0 ? { unreadable } : {}),
  };
}

const toSummary = (row: SummaryRow): Summary => ({
  id: asSummaryId(row.id),
  sessionId: asSessionId(row.session_id),
  taskId: row.task_id === null ? null : asTaskId(row.task_id),
  kind: row.kind,
  content: row.content,
  createdAt: row.created_at,
});

/** Messages and summaries (light) and steps (heavy) — the transcript of what a session said and did (an imported transcript file becomes these rows). */
export function createTranscriptRepo(db: SqlDriver) {
  return {
    async addMessage(m: Omit<Message, 'id'>): Promise<MessageId> {
      const { lastInsertRowid } = await db.run(
        'INSERT INTO messages (session_id, task_id, role, content, created_at) VALUES (?, ?, ?, ?, ?)',
        [m.sessionId, m.taskId, m.role, m.content, m.createdAt],
      );
      return asMessageId(lastInsertRowid);
    },

    async listMessages(sessionId: SessionId, taskId?: TaskId): Promise<Message[]> {
      const rows =
        taskId === undefined
          ? await db.all<MessageRow>('SELECT * FROM messages WHERE session_id = ? ORDER BY id', [sessionId])
          : await db.all<MessageRow>(
              'SELECT * FROM messages WHERE session_id = ? AND task_id = ? ORDER BY id',
              [sessionId, taskId],
            );
      return rows.map(toMessage);
    },

    /**
     * `params` and `result` arrive as JSON text, already validated and bounded by the caller; each is stored
     * packed when that makes it smaller (step-json.ts).
     */
    /**
     * `packed`: what `packJson` gave for this very `params` / `result` text elsewhere (an import packs ahead on
     * another thread, engine/tool-calls/step-texts.ts) — stored as given, not packed again.
     */
    async addStep(
      s: {
        taskId: TaskId;
        tool: string;
        params: string;
        result: string;
        status: StepStatus;
        createdAt: number;
      },
      packed: { readonly params?: StoredJson; readonly result?: StoredJson } = {},
    ): Promise<{ id: StepId; seq: number }> {
      const params = packed.params ?? packJson(s.params);
      const result = packed.result ?? packJson(s.result);
      const row = await db.get<{ id: number; seq: number }>(
        `INSERT INTO steps (task_id, seq, tool, params, result, status, created_at)
         VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM steps WHERE task_id = ?), ?, ?, ?, ?, ?)
         RETURNING id, seq`,
        [s.taskId, s.taskId, s.tool, params, result, s.status, s.createdAt],
      );
      if (!row) throw new BrainError('Internal', 'A step insert returned no row.');
      return { id: asStepId(row.id), seq: row.seq };
    },

    /**
     * Steps with ids up to `uptoId`, newest first, for the history index of an older database: at most `limit`
     * steps and, past the first, at most `maxBytes` of params and result as stored — a page bounded in work and
     * memory.
     */
    async stepsToIndex(uptoId: number, limit: number, maxBytes: number): Promise<StepToIndex[]> {
      const sizes = await db.all<{ id: number; bytes: number }>(
        `SELECT id, octet_length(params) + octet_length(result) AS bytes FROM steps
         WHERE id <= ? ORDER BY id DESC LIMIT ?`,
        [uptoId, limit],
      );
      const ids: number[] = [];
      let bytes = 0;
      for (const size of sizes) {
        if (ids.length > 0 && bytes + size.bytes > maxBytes) break;
        ids.push(size.id);
        bytes += size.bytes;
      }
      const rows = await db.all<StepRow & { session_id: number | null }>(
        `SELECT st.*, t.session_id FROM steps st JOIN tasks t ON t.id = st.task_id
         WHERE st.id IN (SELECT value FROM json_each(?)) ORDER BY st.id DESC`,
        [JSON.stringify(ids)],
      );
      return rows.map(toStepToIndex);
    },

    /** The task's latest step (its heaviest columns read whole: one row). */
    async lastStep(taskId: TaskId): Promise<Step | null> {
      const row = await db.get<StepRow>('SELECT * FROM steps WHERE task_id = ? ORDER BY seq DESC LIMIT 1', [
        taskId,
      ]);
      return row ? toStep(row) : null;
    },

    /** `last`: only the latest n steps (still in order), read from the end of the task's index. */
    async listSteps(taskId: TaskId, last?: number): Promise<Step[]> {
      const rows =
        last === undefined
          ? await db.all<StepRow>('SELECT * FROM steps WHERE task_id = ? ORDER BY seq', [taskId])
          : (
              await db.all<StepRow>('SELECT * FROM steps WHERE task_id = ? ORDER BY seq DESC LIMIT ?', [
                taskId,
                last,
              ])
            ).reverse();
      return rows.map(toStep);
    },

    async addSummary(s: Omit<Summary, 'id'>): Promise<SummaryId> {
      const { lastInsertRowid } = await db.run(
        'INSERT INTO summaries (session_id, task_id, kind, content, created_at) VALUES (?, ?, ?, ?, ?)',
        [s.sessionId, s.taskId, s.kind, s.content, s.createdAt],
      );
      return asSummaryId(lastInsertRowid);
    },

    async listSummaries(sessionId: SessionId): Promise<Summary[]> {
      return (
        await db.all<SummaryRow>('SELECT * FROM summaries WHERE session_id = ? ORDER BY id', [sessionId])
      ).map(toSummary);
    },
  };
}

export type TranscriptRepo = ReturnType<typeof createTranscriptRepo>;
