/**
 * OpenHands V0 events (OpenHands/OpenHands: openhands/events/serialization/event.py `event_to_dict`, pinned
 * d6fab190, 2025-11), stored one per file as `sessions/<sid>/events/<id>.json`: an action `{id, timestamp,
 * source, message, action, args, tool_call_metadata?, timeout?}` or an observation `{id, timestamp, source,
 * message, cause, observation, content, extras, success?}` answering the action whose id is its `cause`. Types
 * from openhands/core/schema/{action,observation}.py; `run` results carry `extras.metadata.exit_code`.
 */
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptFileBody, TranscriptItem } from '../types';
import { isRecord, leafText, strField, timeOf, type Tally } from '../tally';

/** Action types that are tool calls, and the tool name when `tool_call_metadata` gives none. */
const toolActions: Record<string, string> = {
  run: 'execute_bash',
  run_ipython: 'execute_ipython_cell',
  edit: 'str_replace_editor',
  read: 'read_file',
  write: 'write_file',
  browse: 'browser',
  browse_interactive: 'browser',
  call_tool_mcp: 'call_tool_mcp',
  delegate: 'delegate',
  task_tracking: 'task_tracker',
};
const skippedActions = new Set([
  'system',
  'start',
  'null',
  'pause',
  'resume',
  'stop',
  'change_agent_state',
  'recall',
  'condensation_request',
  'push',
  'send_pr',
  'reject',
  'loop_recovery',
]);
const skippedObservations = new Set([
  'agent_state_changed',
  'recall',
  'null',
  'success',
  'chat',
  'message',
  'condense',
  'loop_detection',
  'think',
  'download',
]);
const knownObservations = new Set([
  ...skippedObservations,
  'read',
  'write',
  'edit',
  'browse',
  'run',
  'run_ipython',
  'delegate',
  'error',
  'user_rejected',
  'mcp',
  'task_tracking',
]);
/** Args that are bookkeeping, not the tool's input. */
const metaArgs = new Set([
  'thought',
  'confirmation_state',
  'security_risk',
  'hidden',
  'blocking',
  'is_static',
  'impl_source',
  'wait_for_response',
]);

/**
 * Where OpenHands' sandbox mounts the project (its docs: `SANDBOX_VOLUMES=<host path>:/workspace:rw`; "anything
 * mounted read-write into /workspace can be modified by the agent").
 */
const SANDBOX_WORKSPACE = '/workspace';

/**
 * The run's root: the working directory a command or the conversation stated, else the sandbox's workspace when a
 * file the agent wrote or edited lies under it (a run with no command says no working directory: without a root,
 * its files would be listed by their sandbox paths), else none.
 */
export function runRoot(stated: string | null, items: readonly TranscriptItem[]): string | null {
  if (stated !== null) return stated;
  const under = (path: unknown) => typeof path === 'string' && path.startsWith(`${SANDBOX_WORKSPACE}/`);
  const wrote = items.some(
    (item) =>
      item.kind === 'tool_call' &&
      ((item.files ?? []).some((f) => under(f.path)) ||
        under(isRecord(item.call.input) ? item.call.input['path'] : undefined)),
  );
  return wrote ? SANDBOX_WORKSPACE : null;
}

export interface V0Walk {
  readonly pending: Map<string, { event: Record<string, unknown>; line: number }>;
  cwd: string | null;
}

export function createV0Walk(): V0Walk {
  return { pending: new Map(), cwd: null };
}

export function v0EventItems(
  event: Record<string, unknown>,
  line: number,
  walk: V0Walk,
  tally: Tally,
): TranscriptItem[] {
  const id = typeof event['id'] === 'number' || typeof event['id'] === 'string' ? String(event['id']) : null;
  const common = { at: timeOf(event['timestamp']), line, thread: null, sourceId: id };
  const args = isRecord(event['args']) ? event['args'] : {};
  const action = strField(event, 'action');
  if (action !== null) {
    const out: TranscriptItem[] = [];
    if (action === 'message') {
      const text = strField(args, 'content') ?? '';
      if (text.trim())
        out.push(
          strField(event, 'source') === 'user'
            ? { ...common, kind: 'instruction', text }
            : { ...common, kind: 'assistant', text, reasoning: false },
        );
    } else if (action === 'think') {
      const text = strField(args, 'thought') ?? '';
      if (text.trim()) out.push({ ...common, kind: 'assistant', text, reasoning: true });
    } else if (action === 'finish') {
      const text = strField(args, 'final_thought') ?? strField(args, 'thought') ?? '';
      if (text.trim()) out.push({ ...common, kind: 'assistant', text, reasoning: false });
      const state = strField(args, 'task_completed');
      out.push({
        ...common,
        kind: 'run_end',
        outcome: 'finished',
        text: `finish${state ? ` (task_completed: ${state})` : ''}`,
      });
    } else if (action === 'condensation') {
      const forgotten = Array.isArray(args['forgotten_event_ids'])
        ? args['forgotten_event_ids'].length
        : range(args);
      out.push({
        ...common,
        kind: 'compaction',
        summary: strField(args, 'summary'),
        trigger: 'condenser',
        before: forgotten,
      });
    } else if (Object.hasOwn(toolActions, action)) {
      const thought = strField(args, 'thought') ?? '';
      if (thought.trim()) out.push({ ...common, kind: 'assistant', text: thought, reasoning: false });
      if (id !== null) walk.pending.set(id, { event, line });
      else out.push(callItem({ event, line }, null, walk));
    } else if (skippedActions.has(action)) tally.skip(`action:${action}`);
    else {
      tally.unknownType(`action:${action}`);
      out.push({ ...common, kind: 'other', recordType: `action:${action}`, text: leafText(event) });
    }
    return out;
  }
  const observation = strField(event, 'observation') ?? '(none)';
  const cause =
    typeof event['cause'] === 'number' || typeof event['cause'] === 'string' ? String(event['cause']) : null;
  const pending = cause === null ? undefined : walk.pending.get(cause);
  if (pending && cause !== null && !skippedObservations.has(observation)) {
    walk.pending.delete(cause);
    return [callItem(pending, event, walk)];
  }
  if (!knownObservations.has(observation)) {
    tally.unknownType(`observation:${observation}`);
    return [{ ...common, kind: 'other', recordType: `observation:${observation}`, text: leafText(event) }];
  }
  if (observation === 'error')
    return [
      { ...common, kind: 'other', recordType: 'observation:error', text: strField(event, 'content') ?? '' },
    ];
  tally.skip(`observation:${observation}`);
  return [];
}

/** Actions still open at the end of the log. */
export function openV0Actions(walk: V0Walk): TranscriptItem[] {
  const out = [...walk.pending.values()].map((p) => callItem(p, null, walk));
  walk.pending.clear();
  return out;
}

function range(args: Record<string, unknown>): number | null {
  const start = args['forgotten_events_start_id'];
  const end = args['forgotten_events_end_id'];
  return typeof start === 'number' && typeof end === 'number' ? end - start + 1 : null;
}

function callItem(
  p: { event: Record<string, unknown>; line: number },
  result: Record<string, unknown> | null,
  walk: V0Walk,
): TranscriptItem {
  const { event, line } = p;
  const action = strField(event, 'action') ?? '';
  const metadata = isRecord(event['tool_call_metadata']) ? event['tool_call_metadata'] : {};
  const args = isRecord(event['args']) ? event['args'] : {};
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!metaArgs.has(key)) input[key] = value;
  const tool = strField(metadata, 'function_name') ?? toolActions[action] ?? action;
  const callId = strField(metadata, 'tool_call_id');
  const id = typeof event['id'] === 'number' || typeof event['id'] === 'string' ? String(event['id']) : null;
  const base = {
    kind: 'tool_call' as const,
    at: timeOf(event['timestamp']),
    line,
    thread: null,
    sourceId: callId ?? id,
    callId,
  };
  if (result === null) return { ...base, call: { tool, input } };
  const extras = isRecord(result['extras']) ? result['extras'] : {};
  const observation = strField(result, 'observation');
  const content = strField(result, 'content') ?? '';
  // An error or a rejection is the tool's answer instead of a result: the call did not run, it has no output.
  if (observation === 'error' || observation === 'user_rejected') {
    return { ...base, call: { tool, input, error: content.slice(0, 2000) || observation } };
  }
  const call: { tool: string; input: unknown; output: string; exitCode?: number | null } = {
    tool,
    input,
    output: content,
  };
  const meta = isRecord(extras['metadata']) ? extras['metadata'] : {};
  if (typeof meta['exit_code'] === 'number')
    call.exitCode = meta['exit_code'] === -1 ? null : meta['exit_code'];
  walk.cwd ??= strField(meta, 'working_dir');
  const path = strField(extras, 'path');
  let files: TranscriptFileBody[] | undefined;
  if (observation === 'edit' && path !== null && ('old_content' in extras || 'new_content' in extras)) {
    files = [
      {
        path,
        before: extras['prev_exist'] === false ? null : strField(extras, 'old_content'),
        after: strField(extras, 'new_content'),
      },
    ];
  }
  const item = { ...base, call: call satisfies ToolCall };
  return files ? { ...item, files } : item;
}
