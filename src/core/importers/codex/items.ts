/**
 * `response_item` and `event_msg` payloads → items. Messages come twice (model side and UI side) and are kept
 * once (mirror.ts); injected context (`<environment_context>`, AGENTS.md, permissions) is not an instruction.
 */
import { leafText, list, num, str, type Fields } from './json';
import { isMirror } from './mirror';
import { count, lineId, type ParserState } from './state';
import { holdCall, pairOutput, readPatchEnd } from './tool-call';

interface Place {
  readonly line: number;
  readonly at: number | null;
}

const maxInstructions = 512;

/** Response item types this parser knows but keeps only as `other` text. */
const otherItems = new Set([
  'web_search_call',
  'tool_search_call',
  'tool_search_output',
  'image_generation_call',
  'additional_tools',
  'agent_message',
]);
const skippedItems = new Set(['ghost_snapshot']);
const skippedEvents = new Set([
  'token_count',
  'task_started',
  'task_complete',
  'turn_started',
  'turn_complete',
  'mcp_tool_call_end',
  'web_search_end',
  'view_image_tool_call',
  'image_generation_end',
  'sub_agent_activity',
]);
const otherEvents = new Set([
  'turn_aborted',
  'error',
  'entered_review_mode',
  'exited_review_mode',
  'item_completed',
  'thread_goal_updated',
  'warning',
  'stream_error',
  'collab_agent_spawn_end',
  'collab_agent_interaction_end',
  'collab_waiting_end',
  'collab_close_end',
  'collab_resume_end',
  'dynamic_tool_call_request',
  'dynamic_tool_call_response',
  'guardian_assessment',
  'background_event',
  'plan_update',
]);

/** Harness-written user text: one tag wrapping the whole text, or the AGENTS.md preamble. */
export function isInjected(text: string): boolean {
  const t = text.trim();
  if (t.startsWith('# AGENTS.md instructions') || t.startsWith('<INSTRUCTIONS>')) return true;
  const open = /^<([a-z_][\w-]*)[^>]*>/i.exec(t);
  return open !== null && t.endsWith(`</${open[1]}>`);
}

/** The working directory an `<environment_context>` names (the early rollouts' only record of it). */
function contextCwd(text: string): string | null {
  if (!text.trimStart().startsWith('<environment_context>')) return null;
  const m = /<cwd>([^<\n]+)<\/cwd>|Current working directory: ([^\n]+)/.exec(text.slice(0, 4000));
  return (m?.[1] ?? m?.[2] ?? '').trim() || null;
}

function messageText(p: Fields): string {
  return list(p, 'content')
    .map((c) => {
      const f = c as Fields | null;
      // Images are left out: the event mirror of the same message holds only its text.
      return typeof f?.['text'] === 'string' ? (f['text'] as string) : '';
    })
    .filter((t) => t !== '')
    .join('\n');
}

export function instruction(s: ParserState, text: string, side: 'item' | 'event', p: Place): void {
  if (text.trim() === '' || isMirror(s, 'user', side, text)) return;
  const sourceId = lineId(s, p.line);
  s.out.push({ kind: 'instruction', at: p.at, line: p.line, thread: s.thread, sourceId, text });
  s.instructions.push(sourceId);
  if (s.instructions.length > maxInstructions) s.instructions.shift();
}

function say(s: ParserState, text: string, reasoning: boolean, side: 'item' | 'event', p: Place) {
  if (text.trim() === '' || isMirror(s, reasoning ? 'reasoning' : 'assistant', side, text)) return;
  s.out.push({
    kind: 'assistant',
    at: p.at,
    line: p.line,
    thread: s.thread,
    sourceId: lineId(s, p.line),
    text,
    reasoning,
  });
}

export function other(s: ParserState, recordType: string, text: string, p: Place): void {
  s.out.push({
    kind: 'other',
    at: p.at,
    line: p.line,
    thread: s.thread,
    sourceId: lineId(s, p.line),
    recordType,
    text,
  });
}

export function readResponseItem(s: ParserState, payload: Fields, p: Place): void {
  const type = str(payload, 'type') ?? '(no type)';
  switch (type) {
    case 'message': {
      const role = str(payload, 'role');
      const text = messageText(payload);
      if (role === 'user') {
        if (isInjected(text)) {
          s.meta.cwd ??= contextCwd(text);
          other(s, 'response_item:user-context', text, p);
        } else instruction(s, text, 'item', p);
      } else if (role === 'assistant') say(s, text, false, 'item', p);
      else count(s.skipped, `response_item:${role ?? 'message'}`);
      return;
    }
    case 'reasoning': {
      const summary = list(payload, 'summary')
        .map((x) => str(x as Fields, 'text') ?? '')
        .filter((t) => t !== '');
      const content = list(payload, 'content')
        .map((x) => str(x as Fields, 'text') ?? '')
        .filter((t) => t !== '');
      const text = (summary.length > 0 ? summary : content).join('\n\n');
      if (text === '') count(s.skipped, 'response_item:reasoning');
      else say(s, text, true, 'item', p);
      return;
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
      holdCall(s, payload, p.line, p.at);
      return;
    case 'function_call_output':
    case 'custom_tool_call_output':
      pairOutput(s, payload, p.line);
      return;
    case 'compaction':
    case 'compaction_summary':
    case 'context_compaction':
      mergeCompaction(s, null, 'remote', p);
      return;
    default:
      if (skippedItems.has(type)) count(s.skipped, `response_item:${type}`);
      else {
        if (!otherItems.has(type)) count(s.unknown, `response_item:${type}`);
        other(s, `response_item:${type}`, leafText(payload, 2000), p);
      }
  }
}

export function readEvent(s: ParserState, payload: Fields, p: Place): void {
  const type = str(payload, 'type') ?? '(no type)';
  switch (type) {
    case 'user_message':
      instruction(s, str(payload, 'message') ?? '', 'event', p);
      return;
    case 'agent_message':
      say(s, str(payload, 'message') ?? '', false, 'event', p);
      return;
    case 'agent_reasoning':
    case 'agent_reasoning_raw_content':
      say(s, str(payload, 'text') ?? '', true, 'event', p);
      return;
    case 'exec_command_end': {
      const call = s.pending.get(str(payload, 'call_id') ?? '');
      const code = num(payload, 'exit_code');
      if (call !== undefined && code !== null) call.exitCode = code;
      count(s.skipped, 'event_msg:exec_command_end');
      return;
    }
    case 'patch_apply_end':
      readPatchEnd(s, payload, p.line, p.at, lineId(s, p.line));
      return;
    case 'context_compacted':
      mergeCompaction(s, null, null, p);
      return;
    case 'thread_name_updated':
      s.meta.title = str(payload, 'thread_name') ?? s.meta.title;
      count(s.skipped, 'event_msg:thread_name_updated');
      return;
    case 'thread_rolled_back': {
      const n = num(payload, 'num_turns') ?? 1;
      const target = s.instructions[s.instructions.length - n];
      if (target !== undefined) {
        s.instructions.splice(s.instructions.length - n);
        s.out.push({
          kind: 'rewind',
          at: p.at,
          line: p.line,
          thread: s.thread,
          sourceId: lineId(s, p.line),
          toSourceId: target,
          inclusive: true,
        });
      } else other(s, 'event_msg:thread_rolled_back', leafText(payload), p);
      return;
    }
    default:
      if (skippedEvents.has(type)) count(s.skipped, `event_msg:${type}`);
      else {
        if (!otherEvents.has(type)) count(s.unknown, `event_msg:${type}`);
        other(s, `event_msg:${type}`, leafText(payload, 2000), p);
      }
  }
}

/** One compaction per burst: `compacted`, `context_compacted` and a remote `compaction` item merge into it. */
export function mergeCompaction(
  s: ParserState,
  summary: string | null,
  trigger: string | null,
  p: Place,
): void {
  const c = (s.compaction ??= { line: p.line, at: p.at, summary: null, trigger: null });
  if (summary !== null && summary.trim() !== '') c.summary = summary;
  if (trigger !== null) c.trigger = trigger;
}

export function flushCompaction(s: ParserState): void {
  const c = s.compaction;
  if (c === null) return;
  s.compaction = null;
  s.out.push({
    kind: 'compaction',
    at: c.at,
    line: c.line,
    thread: s.thread,
    sourceId: `compaction:L${c.line}`,
    summary: c.summary,
    trigger: c.trigger,
    before: null,
  });
}
