/**
 * Tools for the model: `brainTools(brain, options?)` describes what a model should record and read itself (a
 * decision, a blocker, a question, the plan and its steps, progress, history search, the resume point, the
 * memory files, a skill draft) in the two common tool-calling shapes, and runs the calls it makes.
 */
import type { SessionId, TaskId } from '../../worker/protocol';
import { boundNames, callBrainTool, toolSpecs, type BrainToolName, type BrainToolResult } from './call';
import type { ObjectSchema } from './schema';
import type { BrainToolHost } from './spec';

export { callBrainTool, brainToolNames, type BrainToolName, type BrainToolResult } from './call';
export {
  maxPlainLineChars,
  resumePrompt,
  resumePromptFrom,
  type ResumePromptAudience,
  type ResumePromptOptions,
} from './resume-prompt';
export type { BrainToolHost } from './spec';
export type { JsonSchema, ObjectSchema } from './schema';

/** Anthropic Messages API `tools[]` entry. */
export interface AnthropicTool {
  readonly name: BrainToolName;
  readonly description: string;
  readonly input_schema: ObjectSchema;
}

/** OpenAI Chat Completions `tools[]` entry. */
export interface OpenAiTool {
  readonly type: 'function';
  readonly function: {
    readonly name: BrainToolName;
    readonly description: string;
    readonly parameters: ObjectSchema;
  };
}

export interface BrainToolsOptions {
  /** Only these tools (default: all). */
  readonly only?: readonly BrainToolName[];
  /** The session every call is about: left out of the schemas and filled in by `call`. */
  readonly sessionId?: SessionId;
  /** The task every call is about: likewise. */
  readonly taskId?: TaskId;
}

export interface BrainTools {
  readonly names: readonly BrainToolName[];
  /** For `tools` of Anthropic's Messages API. */
  readonly anthropic: readonly AnthropicTool[];
  /** For `tools` of OpenAI-compatible chat completions. */
  readonly openai: readonly OpenAiTool[];
  /** Runs a tool call the model made (input as an object or as JSON text) with this set's bound ids. */
  call(name: string, input: unknown): Promise<BrainToolResult>;
}

export function brainTools(brain: BrainToolHost, options: BrainToolsOptions = {}): BrainTools {
  const bound = {
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    ...(options.taskId === undefined ? {} : { taskId: options.taskId }),
  };
  const only = options.only && new Set<string>(options.only);
  const specs = toolSpecs.filter((spec) => !only || only.has(spec.name));
  const names = boundNames(bound);
  const anthropic = specs.map((spec) => ({
    name: spec.name,
    description: spec.description,
    input_schema: spec.schema(names),
  }));
  return {
    names: specs.map((spec) => spec.name),
    anthropic,
    openai: anthropic.map(({ name, description, input_schema }) => ({
      type: 'function' as const,
      function: { name, description, parameters: input_schema },
    })),
    call: (name, input) =>
      only && !only.has(name)
        ? Promise.resolve(
            unavailable(
              name,
              specs.map((s) => s.name),
            ),
          )
        : callBrainTool(brain, name, input, bound),
  };
}

function unavailable(name: string, names: readonly string[]): BrainToolResult {
  return {
    ok: false,
    tool: name,
    code: 'UnknownTool',
    text: `The tool "${name}" is not offered here. The tools are: ${names.join(', ')}.`,
  };
}
