/**
 * OpenHands V1 events (OpenHands/software-agent-sdk: openhands-sdk/openhands/sdk/event/, pinned 611629e6,
 * 2026-08), each a JSON object with its `kind`: `MessageEvent` (user: an instruction; agent: text and
 * `reasoning_content`), `ActionEvent` (`tool_name`, `tool_call_id`, `action` with its own `kind`, `thought`),
 * `ObservationEvent` / `UserRejectObservation` / `AgentErrorEvent` (paired with the action by `tool_call_id`;
 * `observation.exit_code` or `metadata.exit_code`, -1 meaning still running; the file editor's `old_content` /
 * `new_content`), `Condensation` (`forgotten_event_ids`, `summary`). Events carry `parent_id`: one that is not
 * the previous event starts a branch, a rewind to that parent.
 */
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptFileBody, TranscriptItem } from '../types';
import { isRecord, leafText, strField, timeOf, type Tally } from '../tally';

/** Kinds that say nothing the import keeps: counted as skipped. */
const skippedKinds = new Set([
  'SystemPromptEvent',
  'TokenEvent',
  'StreamingDeltaEvent',
  'ConversationStateUpdateEvent',
  'LLMCompletionLogEvent',
  'HookExecutionEvent',
  'PauseEvent',
  'InterruptEvent',
  'CondensationRequest',
]);
const rootParent = '__root__';

interface PendingAction {
  readonly event: Record<string, unknown>;
  readonly line: number;
}

export interface EventWalk {
  readonly pending: Map<string, PendingAction>;
  lastId: string | null;
  lastSummary: string | null;
}

export function createEventWalk(): EventWalk {
  return { pending: new Map(), lastId: null, lastSummary: null };
}

export function eventItems(
  event: Record<string, unknown>,
  line: number,
  walk: EventWalk,
  tally: Tally,
): TranscriptItem[] {
  const kind = strField(event, 'kind') ?? '(none)';
  const id = strField(event, 'id');
  const at = timeOf(event['timestamp']);
  const common = { at, line, thread: null, sourceId: id };
  const out: TranscriptItem[] = [];
  const parent = strField(event, 'parent_id');
  if (parent !== null && parent !== rootParent && walk.lastId !== null && parent !== walk.lastId) {
    out.push({ ...common, sourceId: null, kind: 'rewind', toSourceId: parent, inclusive: false });
  }
  if (id !== null) walk.lastId = id;
  switch (kind) {
    case 'MessageEvent': {
      const message = isRecord(event['llm_message']) ? event['llm_message'] : {};
      const text = textOf(message['content']);
      const source = strField(event, 'source');
      if (source === 'user') {
        if (text.trim()) out.push({ ...common, kind: 'instruction', text });
      } else {
        const reasoning = strField(message, 'reasoning_content');
        if (reasoning) out.push({ ...common, kind: 'assistant', text: reasoning, reasoning: true });
        if (text.trim()) out.push({ ...common, kind: 'assistant', text, reasoning: false });
      }
      break;
    }
    case 'ActionEvent': {
      const reasoning = strField(event, 'reasoning_content');
      if (reasoning) out.push({ ...common, kind: 'assistant', text: reasoning, reasoning: true });
      const thought = textOf(event['thought']);
      if (thought.trim()) out.push({ ...common, kind: 'assistant', text: thought, reasoning: false });
      const callId = strField(event, 'tool_call_id');
      if (callId !== null) walk.pending.set(callId, { event, line });
      else out.push(callItem({ event, line }, null));
      break;
    }
    case 'ObservationEvent':
    case 'UserRejectObservation':
    case 'AgentErrorEvent': {
      const callId = strField(event, 'tool_call_id') ?? '';
      const action = walk.pending.get(callId);
      if (action) {
        walk.pending.delete(callId);
        out.push(callItem(action, event));
      } else if (kind === 'AgentErrorEvent') {
        out.push({ ...common, kind: 'other', recordType: kind, text: strField(event, 'error') ?? '' });
      } else tally.skip(`${kind} without action`);
      break;
    }
    case 'Condensation': {
      const forgotten = Array.isArray(event['forgotten_event_ids'])
        ? event['forgotten_event_ids'].length
        : null;
      const summary = strField(event, 'summary');
      walk.lastSummary = summary;
      out.push({ ...common, kind: 'compaction', summary, trigger: 'condenser', before: forgotten });
      break;
    }
    case 'CondensationSummaryEvent': {
      const summary = strField(event, 'summary');
      if (summary !== null && summary === walk.lastSummary) tally.skip(kind);
      else out.push({ ...common, kind: 'compaction', summary, trigger: 'condenser', before: null });
      break;
    }
    default:
      if (skippedKinds.has(kind)) tally.skip(kind);
      else {
        tally.unknownType(kind);
        out.push({ ...common, kind: 'other', recordType: kind, text: leafText(event) });
      }
  }
  return out;
}

/** A still-open action (no observation) at the end of the log. */
export function openActions(walk: EventWalk): TranscriptItem[] {
  const out = [...walk.pending.values()].map((p) => callItem(p, null));
  walk.pending.clear();
  return out;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function inputOf(event: Record<string, unknown>): unknown {
  const action = event['action'];
  if (isRecord(action)) {
    const { kind: _kind, ...input } = action;
    return input;
  }
  const call = event['tool_call'];
  if (isRecord(call) && typeof call['arguments'] === 'string') return call['arguments'];
  return {};
}

function callItem(action: PendingAction, result: Record<string, unknown> | null): TranscriptItem {
  const { event, line } = action;
  const tool = strField(event, 'tool_name') ?? '(unnamed)';
  const callId = strField(event, 'tool_call_id');
  const base = {
    kind: 'tool_call' as const,
    at: timeOf(event['timestamp']),
    line,
    thread: null,
    sourceId: strField(event, 'id'),
    callId,
  };
  if (result === null) return { ...base, call: { tool, input: inputOf(event) } };
  const call: {
    tool: string;
    input: unknown;
    output?: string;
    exitCode?: number | null;
    error?: string;
    result?: unknown;
  } = { tool, input: inputOf(event) };
  let files: TranscriptFileBody[] | undefined;
  const kind = strField(result, 'kind');
  if (kind === 'UserRejectObservation')
    call.error = strField(result, 'rejection_reason') ?? 'The user rejected the action.';
  else if (kind === 'AgentErrorEvent')
    call.error = strField(result, 'error') ?? 'The agent could not run the action.';
  else {
    const observation = isRecord(result['observation']) ? result['observation'] : {};
    call.output = textOf(observation['content']);
    const metadata = isRecord(observation['metadata']) ? observation['metadata'] : {};
    const exit =
      typeof observation['exit_code'] === 'number' ? observation['exit_code'] : metadata['exit_code'];
    if (typeof exit === 'number') call.exitCode = exit === -1 ? null : exit;
    if (observation['is_error'] === true)
      call.error = call.output.slice(0, 2000) || 'The tool reported an error.';
    const path = strField(observation, 'path');
    if (path !== null && ('old_content' in observation || 'new_content' in observation)) {
      const before = observation['prev_exist'] === false ? null : strField(observation, 'old_content');
      const after = strField(observation, 'new_content');
      if (before !== null || after !== null || observation['prev_exist'] === false)
        files = [{ path, before, after }];
    }
  }
  const item = { ...base, call: call satisfies ToolCall };
  return files ? { ...item, files } : item;
}
