/**
 * Reading the content of Cline / Roo api messages: blocks and their text, tool results (Anthropic blocks or AI-SDK
 * outputs), the person's words inside user text, the working directory the environment details name, and a
 * paired call as the classifier's `ToolCall` (with Roo's `Exit code: N`).
 */
import { exitCodeInOutput } from '../../tool-calls';
import type { ToolCall } from '../../tool-calls/types';
import type { TranscriptItem } from '../types';
import { isRecord, strField } from '../tally';
import type { TagCall } from './xml-tools';

const personTags = /<(task|feedback|answer|user_message)>\n?([\s\S]*?)\n?<\/\1>/g;
const failed =
  /^(The tool execution failed with the following error:|The user denied this operation|\[ERROR\])/;
const answeringTools = new Set([
  'ask_followup_question',
  'plan_mode_respond',
  'attempt_completion',
  'new_task',
]);

/** A call waiting for its result: its tool, input, the api message it is in, and its id (native calls). */
export interface Pending {
  readonly name: string;
  readonly input: unknown;
  readonly index: number;
  readonly id: string | null;
}

export function blocksOf(content: unknown): unknown[] {
  if (typeof content === 'string') return [content];
  return Array.isArray(content) ? content : [];
}

export function textOf(block: unknown): string {
  if (typeof block === 'string') return block;
  if (!isRecord(block)) return '';
  return strField(block, 'text') ?? '';
}

export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (isRecord(content)) {
    // AI SDK tool output: {type: 'text' | 'error-text' | 'json' | 'content', value}.
    const value = content['value'];
    if (typeof value === 'string') return value;
    if (Array.isArray(value)) return value.map(textOf).join('\n');
    return value === undefined ? '' : JSON.stringify(value);
  }
  return blocksOf(content).map(textOf).join('\n');
}

export function isErrorOutput(output: unknown): boolean {
  return isRecord(output) && (output['type'] === 'error-text' || output['type'] === 'error-json');
}

export function instructions(
  text: string,
  common: Omit<TranscriptItem & { kind: 'instruction' }, 'kind' | 'text'>,
  out: TranscriptItem[],
): void {
  if (!text.includes('<')) return;
  for (const m of text.matchAll(personTags)) {
    const words = (m[2] as string).trim();
    if (words) out.push({ ...common, kind: 'instruction', text: words });
  }
}

/** The person's words inside a tool result: an answer, feedback on a completion or a denied call. */
export function resultInstructions(
  text: string,
  tool: string | null,
  common: Omit<TranscriptItem & { kind: 'instruction' }, 'kind' | 'text'>,
  out: TranscriptItem[],
): void {
  if (
    (tool !== null && answeringTools.has(tool)) ||
    /The user (?:provided|denied this operation and provided)/.test(text)
  )
    instructions(text, common, out);
}

/** Cline: `# Current Working Directory (/x) Files`; Roo: `# Current Workspace Directory (/x) Files`. */
export function workingDirectory(text: string): string | null {
  const m = /# Current (?:Working|Workspace) Directory \(([^)\n]+)\) Files/.exec(text);
  return m ? (m[1] as string) : null;
}

export function tagInput(call: TagCall): Record<string, unknown> {
  const input: Record<string, unknown> = { ...call.params };
  if (typeof input['requires_approval'] === 'string')
    input['requires_approval'] = input['requires_approval'] === 'true';
  return input;
}

export function toolCall(p: Pending, result: { output?: string; isError?: boolean } | null): ToolCall {
  if (result === null || result.output === undefined) return { tool: p.name, input: p.input };
  const output = result.output;
  const call: { tool: string; input: unknown; output: string; exitCode?: number | null; error?: string } = {
    tool: p.name,
    input: p.input,
    output,
  };
  // A refusal (denied, a tool error) is the answer instead of a result: the call did not run, it has no output.
  if (failed.test(output)) return { tool: p.name, input: p.input, error: output.slice(0, 2000) };
  if (result.isError) call.error = output.slice(0, 2000);
  if (p.name === 'execute_command') {
    // Roo: `Command executed in terminal within working directory '…'. Exit code: N`; Cline 3.x `Command executed
    // successfully (exit code 0).` / `Command failed with exit code N.` (exitCodeInOutput); older Cline none.
    const roo = /^(?:[^\n]*\n)?[^\n]*?Exit code: (-?\d{1,3})\b/.exec(output);
    call.exitCode = roo ? Number(roo[1]) : (exitCodeInOutput(output)?.exitCode ?? null);
  }
  return call;
}

/**
 * The body a file edit left, as Cline answers write_to_file / replace_in_file: `The content was successfully saved
 * to P.` then `<final_file_content path="P">` … `</final_file_content>` — the file as saved, with the person's
 * own edits in the diff view (`The user made the following updates to your content:`) included.
 */
export function finalFileContent(output: string | undefined): { path: string; after: string } | null {
  if (output === undefined) return null;
  const open = /<final_file_content path="([^"\n]+)">\n?/.exec(output);
  if (!open) return null;
  const start = open.index + open[0].length;
  const end = output.indexOf('</final_file_content>', start);
  if (end < 0) return null;
  const body = output.slice(start, end);
  // Cline writes `…path="P">\n${content}\n</final_file_content>`.
  return { path: open[1] as string, after: body.endsWith('\n') ? body.slice(0, -1) : body };
}
