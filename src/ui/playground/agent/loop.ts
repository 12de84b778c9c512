/**
 * The agent loop: the model (any OpenAI-compatible endpoint) gets the workspace tools and every brainTools tool;
 * each call it makes is run and recorded, its result goes back as a `tool` message. A fresh run starts from the
 * goal; a resumed one (after a reload) starts from `resumePrompt`, the model's context rebuilt from the brain.
 */
import {
  brainTools,
  resumePrompt,
  toolCallRecorder,
  type Brain,
  type SessionId,
  type TaskId,
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
  readonly run: Run;
  readonly resume: boolean;
  readonly onEntry: (entry: LoopEntry) => void;
  readonly signal?: AbortSignal;
  readonly maxTurns?: number;
}

/** Runs until the model answers without a tool call (the task is then done); throws an EndpointError plainly. */
export async function runLoop(options: LoopOptions): Promise<string> {
  const { brain, workspace, run, onEntry } = options;
  const tools = brainTools(brain, run);
  const recorder = toolCallRecorder(brain, {
    ...run,
    root: workspaceRoot,
    readFile: (path) => workspace.read(path),
    listFiles: () => workspace.list(),
  });
  const first = options.resume
    ? `${await resumePrompt(brain, run.sessionId, { for: 'brain-tools' })}\nYou were restarted: continue from this handoff.`
    : goal;
  onEntry({ kind: 'context', text: first });
  const messages: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: first },
  ];
  const definitions = [...workspaceToolDefs, ...tools.openai];
  for (let turn = 0; turn < (options.maxTurns ?? 60); turn++) {
    const message = await chatCompletion(options.settings, { messages, tools: definitions }, options.signal);
    messages.push(message);
    onEntry({ kind: 'assistant', message });
    if (!message.tool_calls?.length) {
      const answer = message.content ?? '';
      await brain.recordMessage({
        sessionId: run.sessionId,
        taskId: run.taskId,
        role: 'assistant',
        content: answer,
      });
      await brain.setTaskState(run.taskId, 'done');
      return answer;
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
        result = input
          ? await runWorkspaceTool({ brain, workspace, recorder, ...run }, name, input, thought)
          : `Error: the arguments of ${name} are not a JSON object: ${args.slice(0, 200)}`;
      } else {
        const out = await tools.call(name, args || '{}');
        result = out.ok ? out.text : `Error (${out.code}): ${out.text}`;
      }
      thought = undefined;
      onEntry({ kind: 'tool', name, input: args, result });
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  throw new Error(
    `The model made tool calls for ${options.maxTurns ?? 60} turns without finishing: stopped.`,
  );
}
