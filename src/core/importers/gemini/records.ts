/**
 * Gemini CLI message records (google-gemini/gemini-cli: packages/core/src/services/chatRecordingTypes.ts) →
 * items. A message is appended again each time it changes (tokens arrive, a tool call finishes), so each id is
 * followed: its text and thoughts come out once, each tool call once when it reaches a final status
 * (`success`, `error`, `cancelled`); calls still `scheduled`/`executing`/`awaiting_approval` at the end come out
 * without a result.
 */
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptItem } from '../types';
import { isRecord, strField, timeOf, type Tally } from '../tally';

const finalStatuses = new Set(['success', 'error', 'cancelled']);
/** Message types the CLI writes (`MessageRecord.type`); `info`/`error`/`warning` are kept as text. */
const noticeTypes = new Set(['info', 'error', 'warning']);

export interface MessageState {
  /** Ids of the messages in the conversation now, in order (rewinds and history rewrites cut it). */
  readonly live: string[];
  readonly seen: Map<string, { text: boolean; thoughts: number }>;
  readonly emittedCalls: Set<string>;
  readonly pending: Map<string, { record: Record<string, unknown>; line: number }>;
  model: string | null;
}

export function createMessageState(): MessageState {
  return { live: [], seen: new Map(), emittedCalls: new Set(), pending: new Map(), model: null };
}

/** The text parts of a `PartListUnion` (thought parts and function calls/responses left out). */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part);
    else if (isRecord(part) && typeof part['text'] === 'string' && part['thought'] !== true)
      texts.push(part['text']);
  }
  return texts.join('');
}

/** One message record → the items it adds (none when it repeats what an earlier copy said). */
export function messageItems(
  msg: Record<string, unknown>,
  line: number,
  state: MessageState,
  tally: Tally,
): TranscriptItem[] {
  const id = strField(msg, 'id') as string;
  const type = strField(msg, 'type') ?? '(none)';
  const at = timeOf(msg['timestamp']);
  const common = { at, line, thread: null, sourceId: id };
  let seen = state.seen.get(id);
  const repeat = seen !== undefined;
  if (!seen) {
    seen = { text: false, thoughts: 0 };
    state.seen.set(id, seen);
    // Notices (info/error/warning) are not part of the model's history, which a `$set: {messages}` rewrites.
    if (type === 'user' || type === 'gemini') state.live.push(id);
  }
  const out: TranscriptItem[] = [];
  if (type === 'user') {
    // What the person typed (`displayContent`) over what the model got (`content`, with @-file contents
    // expanded), as the CLI's own rewind viewer shows a prompt.
    const shown = msg['displayContent'] === undefined ? '' : partsText(msg['displayContent']);
    const text = shown.trim() !== '' ? shown : partsText(msg['content']);
    if (!seen.text && text.trim() !== '') out.push({ ...common, kind: 'instruction', text });
    else if (!repeat && text.trim() === '') tally.skip('user-function-response');
    seen.text ||= text.trim() !== '';
  } else if (type === 'gemini') {
    const model = strField(msg, 'model');
    if (model) state.model = model;
    const thoughts = Array.isArray(msg['thoughts']) ? msg['thoughts'] : [];
    for (let k = seen.thoughts; k < thoughts.length; k++) {
      const thought: unknown = thoughts[k];
      if (!isRecord(thought)) continue;
      const subject = strField(thought, 'subject') ?? '';
      const description = strField(thought, 'description') ?? '';
      const text = subject && description ? `${subject}: ${description}` : subject || description;
      if (text)
        out.push({
          ...common,
          sourceId: `${id}#thought${k}`,
          at: timeOf(thought['timestamp']) ?? at,
          kind: 'assistant',
          text,
          reasoning: true,
        });
    }
    seen.thoughts = Math.max(seen.thoughts, thoughts.length);
    const text = partsText(msg['content']);
    if (!seen.text && text.trim() !== '') {
      out.push({ ...common, kind: 'assistant', text, reasoning: false });
      seen.text = true;
    }
    const calls = Array.isArray(msg['toolCalls']) ? msg['toolCalls'] : [];
    for (const call of calls) {
      if (!isRecord(call)) continue;
      const callId = strField(call, 'id');
      if (callId === null || state.emittedCalls.has(callId)) continue;
      if (finalStatuses.has(strField(call, 'status') ?? '')) {
        state.pending.delete(callId);
        state.emittedCalls.add(callId);
        out.push(toolCallItem(call, line));
      } else state.pending.set(callId, { record: call, line });
    }
  } else if (noticeTypes.has(type)) {
    if (!repeat) out.push({ ...common, kind: 'other', recordType: type, text: partsText(msg['content']) });
  } else if (!repeat) {
    tally.unknownType(`message:${type}`);
    out.push({ ...common, kind: 'other', recordType: type, text: partsText(msg['content']) });
  }
  if (repeat && out.length === 0) tally.duplicates++;
  return out;
}

/** A `ToolCallRecord` → a tool_call item; `final: false` for one the file never finished. */
export function toolCallItem(call: Record<string, unknown>, line: number, final = true): TranscriptItem {
  const name = strField(call, 'name') ?? '(unnamed)';
  const status = strField(call, 'status');
  const result = resultOf(call['result'], call['resultDisplay']);
  const toolCall: {
    tool: string;
    input: unknown;
    output?: string;
    exitCode?: number | null;
    error?: string;
    result?: unknown;
  } = { tool: name, input: isRecord(call['args']) ? call['args'] : {} };
  if (final && result.output !== null) toolCall.output = result.output;
  if (final && status === 'error') toolCall.error = result.error ?? result.output ?? 'The tool call failed.';
  else if (final && status === 'cancelled') toolCall.error = result.error ?? 'The tool call was cancelled.';
  else if (final && result.error !== null) toolCall.error = result.error;
  if (final && toolCall.output !== undefined && name === 'run_shell_command')
    toolCall.exitCode = shellExit(toolCall.output);
  // A subagent call names the subagent's chat (`agentId`: its sessionId); a structured display (a file diff) is
  // kept as it is.
  const agentId = strField(call, 'agentId');
  const display = call['resultDisplay'];
  const structured = display !== undefined && display !== null && typeof display !== 'string';
  if (final && agentId !== null)
    toolCall.result = structured ? { agentId, resultDisplay: display } : { agentId };
  else if (final && structured) toolCall.result = display;

  return {
    kind: 'tool_call',
    at: timeOf(call['timestamp']),
    line,
    thread: null,
    sourceId: strField(call, 'id'),
    callId: strField(call, 'id'),
    call: toolCall satisfies ToolCall,
  };
}

/** The text the model was given: `functionResponse.response.output` (or `.error`), else text parts, else the display. */
function resultOf(result: unknown, display: unknown): { output: string | null; error: string | null } {
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  const texts: string[] = [];
  let error: string | null = null;
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part);
    else if (isRecord(part) && isRecord(part['functionResponse'])) {
      const response = part['functionResponse']['response'];
      if (isRecord(response)) {
        if (typeof response['output'] === 'string') texts.push(response['output']);
        if (typeof response['error'] === 'string') error = response['error'];
      }
    } else if (isRecord(part) && typeof part['text'] === 'string') texts.push(part['text']);
  }
  if (texts.length > 0) return { output: texts.join('\n'), error };
  if (typeof display === 'string' && error === null) return { output: display, error };
  return { output: null, error };
}

/**
 * The exit status run_shell_command writes into its text (packages/core/src/tools/shell.ts): `Exit Code: N`
 * only when N ≠ 0, so an `Output:` text without it (and without `Error:`/`Signal:`) exited 0.
 */
function shellExit(output: string): number | null {
  const tail = output.length > 4096 ? output.slice(-4096) : output;
  const m = /(?:^|\n)Exit Code: (-?\d{1,3})(?:\n|$)/.exec(tail);
  if (m) return Number(m[1]);
  if (!output.startsWith('Output:') && !output.startsWith('Command:')) return null;
  if (/(?:^|\n)(?:Signal|Error): /.test(tail)) return null;
  return 0;
}
