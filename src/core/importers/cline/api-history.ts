/**
 * The task's model conversation (`api_conversation_history.json`) → items. Cline writes an array of Anthropic
 * messages (`ClineStorageMessage`); Roo the same array (`ApiMessage`: `ts`, `isSummary`, `condenseId`,
 * `condenseParent`, `isTruncationMarker`) or, from its AI-SDK history, `{version: 2, messages}` with `tool-call`
 * / `tool-result` parts and `role: "tool"` messages (RooCodeInc/Roo-Code: src/core/task-persistence/). Tool
 * calls are native (`tool_use` / `tool-call`, paired by id) or tags in the assistant's text, whose result is the
 * next user message's `[execute_command for '…'] Result:` text. The person's words are the `<task>`,
 * `<feedback>`, `<answer>` and `<user_message>` parts of user messages.
 */
import type { TranscriptItem } from '../types';
import {
  blocksOf,
  instructions,
  isErrorOutput,
  resultInstructions,
  resultText,
  tagInput,
  textOf,
  toolCall,
  finalFileContent,
  workingDirectory,
  type Pending,
} from './content';
import { isRecord, strField, type Tally } from '../tally';
import { parseToolTags } from './xml-tools';

const file = 'api_conversation_history.json';
const resultHeader = /^\[([a-z_]+)(?: for [\s\S]*?)?\] Result:/;
const compactionTools = new Set(['summarize_task', 'condense']);

export interface ApiWalkContext {
  readonly tally: Tally;
  /** The time of api message `index` (of `role`), from its own `ts` or the ui messages. */
  atOf(index: number, own: unknown, role: string | null): number | null;
}

/** Items of each message, by its index; the working directory its environment details name. */
export function walkApiHistory(
  messages: readonly unknown[],
  ctx: ApiWalkContext,
): { byIndex: TranscriptItem[][]; cwd: string | null } {
  const byIndex: TranscriptItem[][] = messages.map(() => []);
  const tagPending: Pending[] = [];
  const native = new Map<string, Pending>();
  let cwd: string | null = null;
  const emit = (
    index: number,
    p: Pending,
    result: { output?: string; error?: string; isError?: boolean } | null,
  ) => {
    const call = toolCall(p, result);
    const at = ctx.atOf(p.index, (messages[p.index] as Record<string, unknown>)['ts'], 'assistant');
    // The body the edit left, when the result holds it (a refused call's has none).
    const saved = call.error === undefined ? finalFileContent(result?.output) : null;
    byIndex[index]?.push({
      kind: 'tool_call',
      at,
      line: p.index + 1,
      thread: null,
      sourceId: p.id,
      callId: p.id,
      call,
      ...(saved === null ? {} : { files: [saved] }),
    });
  };
  messages.forEach((raw, index) => {
    ctx.tally.records++;
    const out = byIndex[index] as TranscriptItem[];
    if (!isRecord(raw)) {
      ctx.tally.malformed++;
      ctx.tally.problem(index + 1, 'message is not an object', file);
      return;
    }
    const at = ctx.atOf(index, raw['ts'], strField(raw, 'role'));
    const common = {
      at,
      line: index + 1,
      thread: null,
      sourceId: strField(raw, 'condenseId') ?? strField(raw, 'id'),
    };
    const blocks = blocksOf(raw['content']);
    if (raw['isSummary'] === true || raw['isTruncationMarker'] === true) {
      const summary = raw['isSummary'] === true ? blocks.map(textOf).join('\n') : null;
      out.push({
        ...common,
        kind: 'compaction',
        summary,
        trigger: raw['isSummary'] === true ? 'condense' : 'truncation',
        before: null,
      });
      return;
    }
    if (raw['type'] === 'reasoning' && raw['role'] === undefined) {
      const summary = Array.isArray(raw['summary']) ? raw['summary'].map(textOf).join('\n') : '';
      if (summary) out.push({ ...common, kind: 'assistant', text: summary, reasoning: true });
      return;
    }
    const role = strField(raw, 'role');
    if (role === 'assistant') {
      for (const block of blocks) {
        const type = isRecord(block) ? strField(block, 'type') : 'text';
        if (type === 'text' || typeof block === 'string') {
          const { calls, prose: tagged } = parseToolTags(textOf(block));
          // Cline shows its text without the `<thinking>` tags its prompt asks for; so does the reply here.
          const prose = tagged
            .replace(/<thinking>\s?/g, '')
            .replace(/\s?<\/thinking>/g, '')
            .trim();
          if (prose) out.push({ ...common, kind: 'assistant', text: prose, reasoning: false });
          for (const call of calls) {
            if (compactionTools.has(call.name)) {
              out.push({
                ...common,
                kind: 'compaction',
                summary: call.params['context'] ?? null,
                trigger: call.name,
                before: null,
              });
            } else tagPending.push({ name: call.name, input: tagInput(call), index, id: null });
          }
        } else if ((type === 'thinking' || type === 'reasoning') && isRecord(block)) {
          const text = strField(block, 'thinking') ?? strField(block, 'text') ?? '';
          if (text) out.push({ ...common, kind: 'assistant', text, reasoning: true });
        } else if ((type === 'tool_use' || type === 'tool-call') && isRecord(block)) {
          const id = strField(block, 'id') ?? strField(block, 'toolCallId');
          const name = strField(block, 'name') ?? strField(block, 'toolName') ?? '(unnamed)';
          const p = { name, input: block['input'] ?? {}, index, id };
          if (id === null) emit(index, p, null);
          else native.set(id, p);
        }
      }
      return;
    }
    if (role !== 'user' && role !== 'tool') {
      ctx.tally.unknownType(`role:${role ?? '(none)'}`);
      out.push({
        ...common,
        kind: 'other',
        recordType: `role:${role ?? '(none)'}`,
        text: blocks.map(textOf).join('\n').slice(0, 4096),
      });
      return;
    }
    for (let k = 0; k < blocks.length; k++) {
      const block = blocks[k];
      const type = isRecord(block) ? strField(block, 'type') : 'text';
      if ((type === 'tool_result' || type === 'tool-result') && isRecord(block)) {
        const id = strField(block, 'tool_use_id') ?? strField(block, 'toolCallId') ?? '';
        const text = resultText(type === 'tool_result' ? block['content'] : block['output']);
        const p = native.get(id);
        resultInstructions(text, p?.name ?? null, common, out);
        if (!p) continue;
        native.delete(id);
        emit(index, p, {
          output: text,
          isError: block['is_error'] === true || isErrorOutput(block['output']),
        });
        continue;
      }
      if (type !== 'text') continue;
      const text = textOf(block);
      // The latest: a task resumed elsewhere ('[TASK RESUMPTION] … The current working directory is now …') goes on
      // in the new folder, where its later work, and the handoff, are.
      cwd = workingDirectory(text) ?? cwd;
      const header = resultHeader.exec(text);
      const fenced = text.startsWith('<function_results>');
      if ((header || fenced) && tagPending.length > 0) {
        let result = header
          ? text.slice(header[0].length).replace(/^\n/, '')
          : text.replace(/^<function_results>\n?|\n?<\/function_results>\s*$/g, '');
        if (header && result === '' && k + 1 < blocks.length && textOf(blocks[k + 1]) !== '')
          result = textOf(blocks[++k]);
        const at = header ? tagPending.findIndex((p) => p.name === header[1]) : 0;
        const [p] = tagPending.splice(at < 0 ? 0 : at, 1);
        resultInstructions(result, p?.name ?? null, common, out);
        if (p) emit(index, p, { output: result });
        continue;
      }
      // Cline 3.x with native tool calls answers them in labelled text too (`[read_file for 'x'] Result:`), not in
      // tool_result blocks: each answers the earliest call of that name still waiting (else the earliest call).
      if (header && native.size > 0) {
        const waiting = [...native.values()];
        const p = waiting.find((w) => w.name === header[1]) ?? (waiting[0] as Pending);
        let result = text.slice(header[0].length).replace(/^\n/, '');
        if (result === '' && k + 1 < blocks.length && textOf(blocks[k + 1]) !== '')
          result = textOf(blocks[++k]);
        native.delete(p.id as string);
        resultInstructions(result, p.name, common, out);
        emit(index, p, { output: result });
        continue;
      }
      instructions(text, common, out);
    }
    // One tool per message: a tag call the next user message does not answer never ran.
    for (const p of tagPending.splice(0)) emit(index, p, null);
  });
  for (const p of native.values()) emit(p.index, p, null);
  return { byIndex, cwd };
}
