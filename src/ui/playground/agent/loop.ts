/**
 * The agent loop: the model (any OpenAI-compatible endpoint) gets the workspace tools and every brainTools tool;
 * each call it makes is run and recorded, its result goes back as a `tool` message. A fresh run starts from the
 * goal; a resumed one (after a reload) starts from `resumePrompt`, the model's context rebuilt from the brain. Each
 * turn is kept as a message of the run's session: the transcript a reload shows again.
 */
import {
  brainTools,
  resumePrompt,
  toolCallRecorder,
  type Brain,
  type SessionId,
  type TaskId,
  type ToolCallRecorder,
} from '../../../lib/index';
import { chatCompletion, type AssistantMessage, type ChatMessage, type ChatSettings } from './endpoint';
import { runWorkspaceTool, workspaceToolDefs, workspaceToolNames } from './workspace-tools';
import { workspaceRoot, type Workspace } from './workspace';

export interface Run {
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
}

export type LoopEntry =
  | { readonly kind: 'context'; readonly text: string }
  | { readonly kind: 'assistant'; readonly message: AssistantMessage }
  | { readonly kind: 'tool'; readonly name: string; readonly input: string; readonly result: string };

export const goal =
  'The workspace holds a small JavaScript library whose test fails. Make every test pass (run_check), keeping ' +
  'the brain as you go: a plan, decisions, progress, and what you learnt in PROJECT_MEMORY.md.';

const system =
  'You are a coding agent working in a virtual workspace. Use the workspace tools to read, change and check ' +
  'files, and the brain tools to keep your plan, decisions, blockers, questions and progress: after a restart ' +
  'you get only what the brain kept. When the work is done, answer without a tool call.';

/** Writes a new run into the brain: its session, its task and the goal as its instruction. */
export async function startRun(brain: Brain): Promise<Run> {
  const { id: sessionId } = await brain.startSession({ title: `Playground run ${new Date().toISOString()}` });
  const { id: taskId } = await brain.startTask({ sessionId, title: 'Make the workspace tests pass' });
  await brain.recordInstruction({ sessionId, taskId, text: goal });
  return { sessionId, taskId };
}

export interface LoopOptions {
  readonly brain: Brain;
  readonly workspace: Workspace;
  readonly settings: ChatSettings;
  /**
   * The run to continue (its context rebuilt from `resumePrompt`), or null for a new one — written to the brain
   * only once the model's first answer has arrived, so a start that fails (endpoint unreachable, refusing, not
   * the protocol) leaves no session behind.
   */
  readonly run: Run | null;
  /**
   * Awaited once the run is in the brain, before its first tool call: at once for a resumed run, at the first
   * answer for a new one (the page resets the workspace then, so a failed start leaves it as it was).
   */
  readonly onRun?: (run: Run) => void | Promise<void>;
  /** Called with each turn once it is recorded in the brain as a message (`transcriptMessage`). */
  readonly onEntry: (entry: LoopEntry) => void;
  readonly signal?: AbortSignal;
  readonly maxTurns?: number;
}

/** The longest message content the transcript keeps of one turn (the brain's own limit is 1,000,000). */
export const maxTranscriptChars = 100_000;

const bounded = (text: string) =>
  text.length <= maxTranscriptChars
    ? text
    : `${text.slice(0, maxTranscriptChars)}\n… (${text.length - maxTranscriptChars} more characters not kept)`;

/**
 * A turn as the brain keeps it, one message: what the model was given (`user`), what it said and which tools it
 * called (`assistant`), a tool's input and result (`tool`). The page shows the same text live and after a reload.
 */
export function transcriptMessage(entry: LoopEntry): {
  role: 'user' | 'assistant' | 'tool';
  content: string;
} {
  switch (entry.kind) {
    case 'context':
      return { role: 'user', content: bounded(entry.text) };
    case 'assistant': {
      const calls = (entry.message.tool_calls ?? []).map((c) => c.function.name).join(', ');
      const said = entry.message.content ?? '';
      return {
        role: 'assistant',
        content: bounded(calls ? `${said}${said ? '\n' : ''}→ calls ${calls}` : said),
      };
    }
    case 'tool':
      return { role: 'tool', content: bounded(`${entry.name}(${entry.input})\n${entry.result}`) };
  }
}

/**
 * The tool definitions a run offers. They depend on which ids `brainTools` binds, not on their values, so a new
 * run's first request — sent before its session exists — offers exactly what every later request does; `call` of
 * this set is never used (the ids are placeholders).
 */
function toolDefinitions(brain: Brain) {
  const bound = { sessionId: 1 as SessionId, taskId: 1 as TaskId };
  return [...workspaceToolDefs, ...brainTools(brain, bound).openai];
}

/** Runs until the model answers without a tool call (the task is then done); throws an EndpointError plainly. */
export async function runLoop(options: LoopOptions): Promise<string> {
  const { brain, workspace } = options;
  let run = options.run;
  if (run) await options.onRun?.(run);
  const first = run
    ? `${await resumePrompt(brain, run.sessionId, { for: 'brain-tools' })}\nYou were restarted: continue from this handoff.`
    : goal;
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: first },
  ];
  const definitions = toolDefinitions(brain);
  let bound: { run: Run; tools: ReturnType<typeof brainTools>; recorder: ToolCallRecorder } | null = null;
  const record = async (to: Run, entry: LoopEntry) => {
    await brain.recordMessage({ ...to, ...transcriptMessage(entry) });
    options.onEntry(entry);
  };
  for (let turn = 0; turn < (options.maxTurns ?? 60); turn++) {
    const message = await chatCompletion(options.settings, { messages, tools: definitions }, options.signal);
    if (!bound) {
      // The model answered: from here on the run is in the brain, with what it was given.
      if (!run) {
        run = await startRun(brain);
        await options.onRun?.(run);
      }
      bound = {
        run,
        tools: brainTools(brain, run),
        recorder: toolCallRecorder(brain, {
          ...run,
          root: workspaceRoot,
          readFile: (path) => workspace.read(path),
          listFiles: () => workspace.list(),
        }),
      };
      await record(run, { kind: 'context', text: first });
    }
    messages.push(message);
    await record(bound.run, { kind: 'assistant', message });
    if (!message.tool_calls?.length) {
      await brain.setTaskState(bound.run.taskId, 'done');
      return message.content ?? '';
    }
    let thought = message.content ?? undefined;
    for (const call of message.tool_calls) {
      options.signal?.throwIfAborted();
      const { name, arguments: args } = call.function;
      let result: string;
      if (workspaceToolNames.has(name)) {
        let input: Record<string, unknown> | null = null;
        try {
          const parsed: unknown = JSON.parse(args || '{}');
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            input = parsed as Record<string, unknown>;
        } catch {
          // said below
        }
        const host = { brain, workspace, recorder: bound.recorder, ...bound.run };
        result = input
          ? await runWorkspaceTool(host, name, input, thought)
          : `Error: the arguments of ${name} are not a JSON object: ${args.slice(0, 200)}`;
      } else {
        const out = await bound.tools.call(name, args || '{}');
        result = out.ok ? out.text : `Error (${out.code}): ${out.text}`;
      }
      thought = undefined;
      await record(bound.run, { kind: 'tool', name, input: args, result });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  throw new Error(
    `The model made tool calls for ${options.maxTurns ?? 60} turns without finishing: stopped.`,
  );
}
