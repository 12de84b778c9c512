/** What recordToolCall(s) accept (it crossed the worker boundary: trust nothing), validated into one shape. */
import type { RecordToolCallInput, ToolCallFile } from '../../core/api/tool-calls';
import { BrainError } from '../../core/errors';
import type { PlanStepId } from '../../core/events/model';
import { asPlanStepId } from '../../core/events/model';
import { asSessionId, asTaskId } from '../../core/ids';
import { requireId, requireText } from '../../core/model';
import type { ToolCall } from '../../core/tool-calls/types';
import { cleanRoot } from '../../core/tool-calls/paths';

export const MAX_TOOL_CALLS = 5_000;
const MAX_TOOL_NAME = 200;
const MAX_THOUGHT = 100_000;

export interface ParsedToolCall {
  readonly sessionId: ReturnType<typeof asSessionId>;
  readonly taskId: ReturnType<typeof asTaskId>;
  readonly call: ToolCall;
  readonly files: readonly ToolCallFile[];
  readonly root: string | null;
  readonly thought: string | null;
  readonly planStepId: PlanStepId | null;
  readonly at: number | null;
}

const isBody = (v: unknown) =>
  v === undefined || v === null || typeof v === 'string' || v instanceof Uint8Array;

/** A call as the recorder takes it (validated, its fields copied): one shape for every caller. */
export function parseCall(value: unknown): ToolCall {
  if (typeof value !== 'object' || value === null)
    throw new BrainError(
      'InvalidArgument',
      'A tool call needs `call`: { tool, input, output?, exitCode?, error?, isError? }.',
    );
  const raw = value as Record<string, unknown>;
  const tool = requireText(raw['tool'], 'The tool name', MAX_TOOL_NAME).trim();
  if (tool === '') throw new BrainError('InvalidArgument', 'The tool name must not be empty.');
  const exitCode = raw['exitCode'];
  if (exitCode !== undefined && exitCode !== null && !Number.isSafeInteger(exitCode))
    throw new BrainError('InvalidArgument', 'The exit code must be an integer or null.');
  if (raw['isError'] !== undefined && typeof raw['isError'] !== 'boolean')
    throw new BrainError('InvalidArgument', "The tool call's isError must be true or false.");
  for (const key of ['output', 'error'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string')
      throw new BrainError('InvalidArgument', `The tool call's ${key} must be text.`);
  }
  return {
    tool,
    input: raw['input'],
    ...(typeof raw['output'] === 'string' ? { output: raw['output'] } : {}),
    ...(typeof exitCode === 'number' ? { exitCode } : {}),
    ...(typeof raw['error'] === 'string' ? { error: raw['error'] } : {}),
    ...(raw['isError'] === true ? { isError: true } : {}),
    ...(raw['result'] === undefined ? {} : { result: raw['result'] }),
  };
}

function parseFiles(value: unknown): ToolCallFile[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw new BrainError('InvalidArgument', '`files` must be an array of { path, before?, after?, diff? }.');
  return value.map((f: unknown, i) => {
    const raw = (typeof f === 'object' && f !== null ? f : {}) as Record<string, unknown>;
    const path = requireText(raw['path'], `files[${i}].path`, 4096).trim();
    if (path === '') throw new BrainError('InvalidArgument', `files[${i}].path must not be empty.`);
    if (!isBody(raw['before']) || !isBody(raw['after']))
      throw new BrainError('InvalidArgument', `files[${i}]: before and after must be text, bytes or null.`);
    if (raw['diff'] !== undefined && typeof raw['diff'] !== 'string')
      throw new BrainError('InvalidArgument', `files[${i}].diff must be a unified diff text.`);
    return {
      path,
      ...(raw['before'] === undefined ? {} : { before: raw['before'] as ToolCallFile['before'] }),
      ...(raw['after'] === undefined ? {} : { after: raw['after'] as ToolCallFile['after'] }),
      ...(raw['diff'] === undefined ? {} : { diff: raw['diff'] as string }),
    };
  });
}

export function parseToolCallInput(input: RecordToolCallInput | unknown, index?: number): ParsedToolCall {
  try {
    if (typeof input !== 'object' || input === null)
      throw new BrainError('InvalidArgument', 'recordToolCall takes { sessionId, taskId, call }.');
    const raw = input as Record<string, unknown>;
    const at = raw['at'];
    if (at !== undefined && (typeof at !== 'number' || !Number.isFinite(at) || at < 0))
      throw new BrainError('InvalidArgument', '`at` must be a time in epoch ms.');
    const thought =
      raw['thought'] === undefined ? null : requireText(raw['thought'], 'The thought', MAX_THOUGHT).trim();
    return {
      sessionId: asSessionId(requireId(raw['sessionId'], 'sessionId')),
      taskId: asTaskId(requireId(raw['taskId'], 'taskId')),
      call: parseCall(raw['call']),
      files: parseFiles(raw['files']),
      root: raw['root'] === undefined ? null : cleanRoot(requireText(raw['root'], 'The root', 4096)),
      thought: thought === '' ? null : thought,
      planStepId:
        raw['planStepId'] === undefined ? null : asPlanStepId(requireId(raw['planStepId'], 'planStepId')),
      at: typeof at === 'number' ? Math.round(at) : null,
    };
  } catch (error) {
    if (index !== undefined && error instanceof BrainError)
      throw new BrainError(error.code, `Tool call ${index}: ${error.message}`, error.details);
    throw error;
  }
}
