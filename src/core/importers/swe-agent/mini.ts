/**
 * mini-swe-agent `.traj.json` files (SWE-agent/mini-swe-agent: `DefaultAgent.serialize` in
 * src/minisweagent/agents/default.py, pinned a83fcae8, 2026-07): `{info{exit_status, submission, model_stats,
 * config, mini_version}, messages[], trajectory_format: "mini-swe-agent-1" | "mini-swe-agent-1.1"}`. The
 * assistant's text holds a THOUGHT and one fenced block (```mswea_bash_command, older ```bash) — or, with tool
 * calls, `tool_calls` and `extra.actions[{command, tool_call_id}]`; the next `user` (or `tool`) message is the
 * observation: `<returncode>N</returncode>` and `<output>…</output>` (1.1 also `extra.returncode`,
 * `extra.raw_output`, `extra.timestamp`). A run ends with an `exit` message (1.1). `line` is the message's
 * 1-based index; the first user message is the task.
 *
 * The final submission (`extra.submission` of the exit message) is the output of the submit command waiting for
 * it (`echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && …`, which the classifier reads as the final patch); with no
 * command waiting (or only in 1.0's `info`), it comes as a call of the `submit` tool of its own (sourceId
 * `submission`), so the files of the final patch are recorded the one way, through the classifier
 * (core/tool-calls/effects/shown.ts).
 */
import type { ToolCall } from '../../tool-calls/types';
import type { ParsedTranscript, TranscriptItem, TranscriptMeta } from '../types';
import { isMiniSubmitCommand, outcomeOfExitStatus } from '../run-end';
import { createTally, emptyMeta, isRecord, parseJsonCounted, strField, withSourceIds } from '../tally';
import { submissionItem, unshownSubmission } from './submission';

const fence = /```(?:mswea_bash_command|bash)[^\n]*\n([\s\S]*?)\n```/g;
const knownRoles = new Set(['system', 'user', 'assistant', 'tool', 'exit']);

interface Pending {
  readonly command: string;
  readonly line: number;
  readonly at: number | null;
  readonly id: string | null;
}

export function parseMiniSweAgentTrajectory(
  text: string,
  options: { readonly name?: string } = {},
): ParsedTranscript {
  const tally = createTally();
  const items: TranscriptItem[] = [];
  const sessionId = options.name
    ? (options.name.split('/').pop() ?? '').replace(/\.traj\.json$/, '') || null
    : null;
  let meta: TranscriptMeta = emptyMeta('mini-swe-agent', sessionId);
  const parsed = parseJsonCounted(text, tally);
  if (!parsed.ok) return { meta, items, stats: tally.stats(), problems: tally.problems };
  let doc = parsed.value;
  // The first releases wrote the bare list of messages (`[{role, content}, …]`), with no `info`.
  if (Array.isArray(doc)) doc = { messages: doc };
  if (!isRecord(doc) || !Array.isArray(doc['messages'])) {
    tally.malformed++;
    tally.problem(1, 'not a mini-swe-agent trajectory: no messages array');
    return { meta, items, stats: tally.stats(), problems: tally.problems };
  }
  let pending: Pending[] = [];
  let task: string | null = null;
  let ended = false;
  // Set inside the messages' callback: a holder, so the type checker does not narrow it to its initial null.
  const last: { command: { command: string; at: number | null } | null } = { command: null };
  let startedAt: number | null = null;
  const flush = () => {
    for (const p of pending) items.push(callItem(p, null));
    pending = [];
  };
  doc['messages'].forEach((msg: unknown, index: number) => {
    tally.records++;
    const line = index + 1;
    if (!isRecord(msg)) {
      tally.malformed++;
      tally.problem(line, 'message is not an object');
      return;
    }
    const role = strField(msg, 'role') ?? '(none)';
    const extra = isRecord(msg['extra']) ? msg['extra'] : {};
    const at = typeof extra['timestamp'] === 'number' ? Math.round(extra['timestamp'] * 1000) : null;
    startedAt ??= at;
    const content = contentText(msg['content']);
    const common = { at, line, thread: null, sourceId: null };
    if (!knownRoles.has(role)) {
      tally.unknownType(`role:${role}`);
      items.push({ ...common, kind: 'other', recordType: `role:${role}`, text: content.slice(0, 4096) });
      return;
    }
    if (role === 'system') return;
    if (role === 'assistant') {
      flush();
      const commands = actionsOf(msg, extra, content);
      const prose = content.replace(fence, '').trim();
      if (prose) items.push({ ...common, kind: 'assistant', text: prose, reasoning: false });
      pending = commands.map((c) => ({ ...c, line, at }));
      const final = commands.at(-1);
      if (final) last.command = { command: final.command, at };
      return;
    }
    if (role === 'exit') {
      const submission = strField(extra, 'submission');
      const status = strField(extra, 'exit_status');
      const waiting = pending.splice(0);
      for (const p of waiting) items.push(callItem(p, { output: submission ?? content, exitCode: null }));
      if (waiting.length === 0 && submission !== null && submission.trim() !== '')
        items.push(submissionItem(submission, line, at));
      items.push({
        ...common,
        kind: 'other',
        recordType: 'exit',
        text: `${status ?? content}${submission ? `\n${submission}` : ''}`,
      });
      const outcome = outcomeOfExitStatus(status ?? content, submission);
      if (outcome)
        items.push({ ...common, kind: 'run_end', outcome, text: `exit_status: ${status ?? content}` });
      ended = outcome !== null;
      return;
    }
    const observation = observationOf(content, extra);
    if (observation && pending.length > 0) {
      const id = strField(msg, 'tool_call_id');
      const at2 = id === null ? 0 : pending.findIndex((p) => p.id === id);
      const [p] = pending.splice(at2 < 0 ? 0 : at2, 1);
      if (p) items.push(callItem(p, observation));
      return;
    }
    if (role === 'user' && task === null) {
      task = content;
      items.push({ ...common, kind: 'instruction', text: content });
      return;
    }
    if (role === 'user' && !observation) tally.skip('format-error or notice');
  });
  flush();
  const info = isRecord(doc['info']) ? doc['info'] : {};
  if (!ended) {
    // 1.0 wrote no `exit` message: the end is in `info`; the first releases only show the submit command.
    const status = strField(info, 'exit_status');
    const outcome =
      outcomeOfExitStatus(status, strField(info, 'submission')) ??
      (last.command && isMiniSubmitCommand(last.command.command) ? 'submitted' : null);
    const line = doc['messages'].length;
    // 1.0's submission is in `info` only: its submit command's output was never written.
    const submission = strField(info, 'submission');
    if (submission !== null && unshownSubmission(items, submission))
      items.push(submissionItem(submission, line, last.command?.at ?? null));
    if (outcome)
      items.push({
        at: last.command?.at ?? null,
        line,
        thread: null,
        sourceId: null,
        kind: 'run_end',
        outcome,
        text:
          status !== null
            ? `exit_status: ${status}`
            : `the agent ran ${last.command?.command ?? 'its submit command'}`,
      });
  }
  const config = isRecord(info['config']) ? info['config'] : {};
  const model = isRecord(config['model']) ? config['model'] : {};
  const env = isRecord(config['environment']) ? config['environment'] : {};
  meta = {
    ...meta,
    title:
      (task ?? '')
        .split('\n')
        .find((l) => l.trim() !== '')
        ?.slice(0, 200) ?? null,
    cwd: strField(env, 'cwd'),
    startedAt,
    model: strField(model, 'model_name'),
    version: strField(info, 'mini_version'),
  };
  return { meta, items: withSourceIds(items), stats: tally.stats(), problems: tally.problems };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: unknown) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : ''))
    .join('');
}

/** `extra.actions` when written (1.1), else the tool calls' `command`, else exactly one fenced block in the text. */
function actionsOf(
  msg: Record<string, unknown>,
  extra: Record<string, unknown>,
  content: string,
): { command: string; id: string | null }[] {
  if (Array.isArray(extra['actions'])) {
    return extra['actions'].flatMap((a: unknown) =>
      isRecord(a) && typeof a['command'] === 'string'
        ? [{ command: a['command'], id: strField(a, 'tool_call_id') }]
        : [],
    );
  }
  if (Array.isArray(msg['tool_calls'])) {
    return msg['tool_calls'].flatMap((c: unknown) => {
      const fn = isRecord(c) && isRecord(c['function']) ? c['function'] : null;
      if (!fn || typeof fn['arguments'] !== 'string') return [];
      try {
        const args: unknown = JSON.parse(fn['arguments']);
        return isRecord(args) && typeof args['command'] === 'string'
          ? [{ command: args['command'], id: strField(c as Record<string, unknown>, 'id') }]
          : [];
      } catch {
        return []; // Arguments that are not JSON: the agent refused the call as a format error too.
      }
    });
  }
  const blocks = [...content.matchAll(fence)].map((m) => (m[1] as string).trim());
  return blocks.length === 1 ? [{ command: blocks[0] as string, id: null }] : [];
}

/** The observation's text and exit status, from `extra` (1.1) or the `<returncode>` / `<output>` text. */
function observationOf(
  content: string,
  extra: Record<string, unknown>,
): { output: string; exitCode: number | null } | null {
  const rc = /^\s*(?:<exception>[\s\S]*?<\/exception>\s*)?<returncode>(-?\d{1,3})<\/returncode>/.exec(
    content,
  );
  if (!rc && typeof extra['returncode'] !== 'number') return null;
  const code = typeof extra['returncode'] === 'number' ? extra['returncode'] : Number(rc?.[1]);
  let output = typeof extra['raw_output'] === 'string' ? extra['raw_output'] : null;
  if (output === null) {
    const inner = /<output>\n?([\s\S]*?)\n?<\/output>/.exec(content);
    output = inner ? (inner[1] as string) : content;
  }
  return { output, exitCode: code };
}

function callItem(p: Pending, result: { output: string; exitCode: number | null } | null): TranscriptItem {
  const call: ToolCall =
    result === null
      ? { tool: 'bash', input: { command: p.command } }
      : { tool: 'bash', input: { command: p.command }, output: result.output, exitCode: result.exitCode };
  return { kind: 'tool_call', at: p.at, line: p.line, thread: null, sourceId: p.id, callId: p.id, call };
}
