/**
 * Codex tool calls: `function_call` / `custom_tool_call` / `local_shell_call` held by `call_id` until their
 * output; `exec_command_end` (when persisted) gives the exit code, `patch_apply_end` the changed files; otherwise
 * the exit code is read from the output text (`Exit code: N`, `Process exited with code N`, JSON
 * `metadata.exit_code` — whose `output` is then the text the command printed).
 */
import { exitCodeInOutput } from '../../tool-calls';
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptFileBody, TranscriptItem } from '../types';
import { asFields, str, type Fields } from './json';
import type { ParserState, PendingCall } from './state';

export function holdCall(s: ParserState, p: Fields, line: number, at: number | null): void {
  const type = str(p, 'type');
  const callId = str(p, 'call_id') ?? str(p, 'id') ?? `L${line}`;
  let tool: string;
  let input: unknown;
  if (type === 'local_shell_call') {
    tool = 'local_shell_call';
    input = p['action'] ?? {};
  } else if (type === 'custom_tool_call') {
    tool = str(p, 'name') ?? 'custom_tool';
    input = p['input'] ?? '';
  } else {
    tool = str(p, 'name') ?? 'function';
    const namespace = str(p, 'namespace');
    if (namespace !== null && namespace !== '') tool = `${namespace}.${tool}`;
    input = parseArguments(p['arguments']);
  }
  s.pending.set(callId, { tool, input, callId, line, at });
}

function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/** The text of a `function_call_output.output`: a string, content items, or `{content, success}`. */
export function outputText(output: unknown): { text: string; failed: boolean } {
  if (typeof output === 'string') return { text: output, failed: false };
  if (Array.isArray(output)) {
    const parts = output.map(
      (o) => str(asFields(o), 'text') ?? (asFields(o)?.['type'] === 'input_image' ? '[image]' : ''),
    );
    return { text: parts.join('\n'), failed: false };
  }
  const f = asFields(output);
  const content = f?.['content'] ?? f?.['body'];
  const inner = content !== undefined ? outputText(content) : { text: '', failed: false };
  return { text: inner.text, failed: f?.['success'] === false };
}

export function pairOutput(s: ParserState, p: Fields, line: number): void {
  const callId = str(p, 'call_id');
  const call = callId !== null ? s.pending.get(callId) : undefined;
  const { text, failed } = outputText(p['output']);
  if (call === undefined || callId === null) {
    s.out.push({
      kind: 'other',
      at: null,
      line,
      thread: s.thread,
      sourceId: `output:${callId ?? line}`,
      recordType: `response_item:${str(p, 'type') ?? 'output'}:orphan`,
      text,
    });
    return;
  }
  s.pending.delete(callId);
  s.out.push(callItem(s, call, text, failed));
}

export function callItem(
  s: ParserState,
  call: PendingCall,
  output: string | undefined,
  failed = false,
): Extract<TranscriptItem, { kind: 'tool_call' }> {
  const tool: ToolCall =
    output === undefined
      ? { tool: call.tool, input: call.input }
      : { tool: call.tool, input: call.input, ...outcome(call, output) };
  const error = call.patchError ?? (failed ? (output ?? 'failed') : undefined);
  const full: ToolCall = {
    ...tool,
    ...(error !== undefined ? { error } : {}),
    ...(call.patch !== undefined ? { result: call.patch } : {}),
  };
  return {
    kind: 'tool_call',
    at: call.at,
    line: call.line,
    thread: s.thread,
    sourceId: call.callId,
    callId: call.callId,
    call: full,
    ...(call.files !== undefined && call.files.length > 0 ? { files: call.files } : {}),
  };
}

function outcome(call: PendingCall, output: string): { output: string; exitCode?: number } {
  const written = exitCodeInOutput(output);
  const text = written !== null && output.startsWith('{') ? written.text : output;
  const exitCode = call.exitCode ?? written?.exitCode;
  return exitCode !== undefined ? { output: text, exitCode } : { output: text };
}

/** `patch_apply_end.changes` → the bodies and diffs of each file. */
export function changedFiles(changes: unknown): TranscriptFileBody[] {
  const files: TranscriptFileBody[] = [];
  for (const [path, raw] of Object.entries(asFields(changes) ?? {})) {
    const change = asFields(raw);
    const type = str(change, 'type');
    const content = str(change, 'content');
    if (type === 'add') files.push({ path, before: null, ...(content !== null ? { after: content } : {}) });
    else if (type === 'delete')
      files.push({ path, ...(content !== null ? { before: content } : {}), after: null });
    else {
      const diff = str(change, 'unified_diff');
      const movedTo = str(change, 'move_path');
      files.push({ path, ...(diff !== null ? { diff } : {}), ...(movedTo !== null ? { movedTo } : {}) });
    }
  }
  return files;
}

/** `patch_apply_end`: onto its pending call, or a call of its own when none waits. */
export function readPatchEnd(
  s: ParserState,
  p: Fields,
  line: number,
  at: number | null,
  sourceId: string,
): void {
  const callId = str(p, 'call_id');
  const files = changedFiles(p['changes']);
  const result = { success: p['success'], stdout: p['stdout'], stderr: p['stderr'], status: p['status'] };
  const failed = p['success'] === false;
  const error = failed ? str(p, 'stderr') || str(p, 'stdout') || 'patch failed' : undefined;
  const call = callId !== null ? s.pending.get(callId) : undefined;
  if (call !== undefined) {
    call.files = files;
    call.patch = result;
    if (error !== undefined) call.patchError = error;
    return;
  }
  const own: PendingCall = {
    tool: 'patch_apply_end',
    input: { changes: files.map((f) => f.path) },
    callId: callId ?? sourceId,
    line,
    at,
    files,
    patch: result,
    ...(error !== undefined ? { patchError: error } : {}),
  };
  s.out.push(callItem(s, own, str(p, 'stdout') ?? ''));
}
