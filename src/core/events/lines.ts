/**
 * Events as JSON lines: the record format of `.agent/SESSION.jsonl` (the active tail) and `.agent/HISTORY.jsonl`
 * (what compression moved out of the active context). One event per line, with a format version `v` so later
 * builds can read older lines. The generic JSONL reader/writer (torn lines, malformed lines) lives in
 * `core/formats`; this module only maps one parsed line to an event and back.
 */
import { BrainError } from '../errors';
import type { Json } from '../model';
import { eventFromRecord, parseEventInput, type SessionEvent } from './model';
import { asEventId } from '../ids';
import { requireId } from '../model';

export const EVENT_LINE_VERSION = 1;

/** The line object for one event; keys are short and stable, absent fields are left out. */
export function eventToLine(event: SessionEvent): { [key: string]: Json } {
  // The envelope of every .agent log record (see core/formats/agent-log): v, ts, kind first.
  const line: { [key: string]: Json } = {
    v: EVENT_LINE_VERSION,
    ts: event.createdAt,
    kind: event.kind,
    id: event.id,
    session: event.sessionId,
  };
  if (event.taskId !== null) line['task'] = event.taskId;
  if (event.stepId !== null) line['step'] = event.stepId;
  if (event.planStepId !== null) line['planStep'] = event.planStepId;
  if (event.text !== '') line['text'] = event.text;
  switch (event.kind) {
    case 'decision':
      if (event.why !== null) line['why'] = event.why;
      if (event.supersedes !== null) line['supersedes'] = event.supersedes;
      break;
    case 'file_change':
      line['path'] = event.path;
      line['change'] = event.change;
      if (event.checkpointEntryId !== null) line['checkpoint'] = event.checkpointEntryId;
      if (event.outside) line['outside'] = true;
      if (event.shown) line['shown'] = true;
      break;
    case 'validation':
      line['name'] = event.name;
      if (event.command !== undefined) line['command'] = event.command;
      line['result'] = event.result;
      if (event.baseline) line['baseline'] = true;
      break;
    case 'blocker_resolved':
      line['resolves'] = event.resolves;
      break;
    case 'answer':
      line['answers'] = event.answers;
      break;
    case 'progress':
      if (event.next !== null) line['next'] = event.next;
      break;
    case 'note':
      if (event.said) line['said'] = true;
      // Plain JSON, but readonly: `Json` has only mutable arrays.
      if (event.todos) line['todos'] = event.todos as unknown as Json;
      break;
    default:
      break;
  }
  return line;
}

/**
 * The event a parsed line holds. Throws `MalformedLine` for a line that is JSON but not an event (the caller
 * reports it with its line number and keeps going).
 */
export function eventFromLine(value: unknown): SessionEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BrainError('MalformedLine', 'This line is not an event object.');
  }
  const line = value as Record<string, unknown>;
  if (line['v'] !== undefined && (typeof line['v'] !== 'number' || line['v'] > EVENT_LINE_VERSION)) {
    throw new BrainError('MalformedLine', `Unknown event line version ${JSON.stringify(line['v'])}.`);
  }
  try {
    const record = parseEventInput({
      sessionId: line['session'],
      taskId: line['task'],
      stepId: line['step'],
      planStepId: line['planStep'],
      kind: line['kind'],
      text: line['text'] ?? '',
      why: line['why'],
      supersedes: line['supersedes'],
      path: line['path'],
      change: line['change'],
      checkpointEntryId: line['checkpoint'],
      name: line['name'],
      command: line['command'],
      result: line['result'],
      baseline: line['baseline'],
      resolves: line['resolves'],
      answers: line['answers'],
      next: line['next'],
      outside: line['outside'],
      shown: line['shown'],
      said: line['said'],
      todos: line['todos'],
    });
    const ts = line['ts'];
    if (typeof ts !== 'number' || !Number.isFinite(ts))
      throw new BrainError('InvalidArgument', 'The event time `ts` is missing.');
    return eventFromRecord({
      ...record,
      id: asEventId(requireId(line['id'], 'id')),
      createdAt: ts,
      compressedAt: null,
    });
  } catch (error) {
    if (error instanceof BrainError)
      throw new BrainError('MalformedLine', `Not a valid event: ${error.message}`);
    throw error;
  }
}
