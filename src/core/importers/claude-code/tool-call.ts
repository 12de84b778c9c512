/**
 * A `tool_use` paired with its `tool_result` → the classifier's `ToolCall`, carrying only what the file holds: the
 * output text, `is_error` as `isError`, the line-level `toolUseResult` (without the copies of the output), and the
 * file bodies and patch an Edit/MultiEdit/Write result carries. What they mean — a Bash exit status, an edit's
 * after-body — is told once, by src/core/tool-calls (exit-status.ts, the edit effects and their replay).
 */
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptFileBody, TranscriptItem } from '../types';
import { asFields, contentText, list, str, type Fields } from './json';
import type { PendingCall } from './state';

const shellTools = new Set(['bash', 'powershell']);

export function toolCallItem(
  call: PendingCall,
  block: Fields | null,
  useResult: unknown,
): Extract<TranscriptItem, { kind: 'tool_call' }> {
  const base = { kind: 'tool_call' as const, at: call.at, line: call.line, thread: call.thread };
  const common = { ...base, sourceId: call.callId, callId: call.callId };
  if (block === null) return { ...common, call: { tool: call.tool, input: call.input } };
  const output = contentText(block['content']);
  const isError = block['is_error'] === true;
  const result = asFields(useResult);
  const tool: ToolCall = { tool: call.tool, input: call.input, output, ...(isError ? { isError } : {}) };
  const kept = keptResult(call.tool, result);
  const files = isError ? [] : fileBodies(call.tool, asFields(call.input), result);
  return {
    ...common,
    call: kept === undefined ? tool : { ...tool, result: kept },
    ...(files.length > 0 ? { files } : {}),
  };
}

/** The structured result, without the strings that repeat the output (Bash stdout/stderr, Read's content). */
function keptResult(tool: string, result: Fields | null): unknown {
  if (result === null) return undefined;
  const name = tool.toLowerCase();
  if (shellTools.has(name)) {
    const { stdout: _o, stderr: _e, ...rest } = result;
    return rest;
  }
  if (name === 'read') {
    const file = asFields(result['file']);
    if (file === null) return result;
    const { content: _c, ...meta } = file;
    return { ...result, file: meta };
  }
  return result;
}

/** The bodies and patch the result carries: the file before (`originalFile`), a Write's content, the hunks. */
export function fileBodies(tool: string, input: Fields | null, result: Fields | null): TranscriptFileBody[] {
  const name = tool.toLowerCase();
  if (name !== 'edit' && name !== 'multiedit' && name !== 'write') return [];
  const path = str(result, 'filePath') ?? str(input, 'file_path');
  if (path === null) return [];
  const original = result?.['originalFile'];
  const before = typeof original === 'string' ? original : original === null ? null : undefined;
  const diff = patchText(path, result);
  const extra = diff !== null ? { diff } : {};
  if (name === 'write') {
    const after = str(result, 'content') ?? str(input, 'content');
    const created = str(result, 'type') === 'create';
    return [
      {
        path,
        ...(before !== undefined ? { before } : created ? { before: null } : {}),
        ...(after !== null ? { after } : {}),
        ...extra,
      },
    ];
  }
  // An Edit's after-body follows from `originalFile` and its edits: the classifier's edit effect replays them.
  return [{ path, ...(before !== undefined ? { before } : {}), ...extra }];
}

/** `structuredPatch` hunks as a unified diff of the file, or null. */
function patchText(path: string, result: Fields | null): string | null {
  const hunks = list(result, 'structuredPatch');
  if (hunks.length === 0) return null;
  const out = [`--- ${path}`, `+++ ${path}`];
  for (const h of hunks) {
    const f = asFields(h);
    if (f === null) continue;
    const n = (k: string) => (typeof f[k] === 'number' ? (f[k] as number) : 0);
    out.push(`@@ -${n('oldStart')},${n('oldLines')} +${n('newStart')},${n('newLines')} @@`);
    for (const l of list(f, 'lines')) if (typeof l === 'string') out.push(l);
  }
  return `${out.join('\n')}\n`;
}
