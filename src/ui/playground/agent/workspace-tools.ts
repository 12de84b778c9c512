/**
 * The workspace tools the model gets beside brainTools: read, write, edit and list files, and run the check.
 * Each call is recorded through the two-phase recorder, which reads the touched files before and after, so every
 * edit reaches the brain with both bodies. A check that passed with nothing changed since is not run again.
 */
import type { Brain, SessionId, TaskId, ToolCallRecorder } from '../../../lib/index';
import { runCheck } from './check';
import type { Workspace } from './workspace';

export const checkName = 'run_check';

const pathParam = {
  type: 'string',
  minLength: 1,
  maxLength: 300,
  description: 'Path relative to the workspace, e.g. src/sum.js.',
};

const fn = (name: string, description: string, properties: Record<string, unknown>, required: string[]) => ({
  type: 'function' as const,
  function: {
    name,
    description,
    parameters: { type: 'object', properties, required, additionalProperties: false },
  },
});

export const workspaceToolDefs = [
  fn('list_files', 'List every file of the workspace with its size in bytes. Cheap.', {}, []),
  fn('read_file', 'Read one file of the workspace whole. Cheap.', { path: pathParam }, ['path']),
  fn(
    'write_file',
    'Create or replace a file of the workspace with `content`. Recorded with both bodies.',
    { path: pathParam, content: { type: 'string', maxLength: 200_000 } },
    ['path', 'content'],
  ),
  fn(
    'edit_file',
    'Replace the one occurrence of `old_string` in a file by `new_string` (fails if it occurs 0 or 2+ times).',
    { path: pathParam, old_string: { type: 'string', minLength: 1 }, new_string: { type: 'string' } },
    ['path', 'old_string', 'new_string'],
  ),
  fn(
    checkName,
    "Run the workspace's tests (every test/*.test.js). Returns each test's result and the counts. A check " +
      'that passed with no file changed since is not run again (the answer says so).',
    {},
    [],
  ),
] as const;

export const workspaceToolNames: ReadonlySet<string> = new Set(workspaceToolDefs.map((t) => t.function.name));

export interface WorkspaceToolHost {
  readonly brain: Brain;
  readonly workspace: Workspace;
  readonly recorder: ToolCallRecorder;
  readonly sessionId: SessionId;
  readonly taskId: TaskId;
}

type Input = Record<string, unknown>;

const str = (input: Input, key: string) => {
  const value = input[key];
  if (typeof value !== 'string') throw new ToolInputError(`${key} must be a string.`);
  return value;
};

export class ToolInputError extends Error {}

/** The passed run of the check, when nothing changed since (the brain's resume point decides). */
async function passedAndUnchanged(host: WorkspaceToolHost) {
  const point = await host.brain.resumePoint(host.sessionId);
  return point.validationsDone.find((v) => v.name === checkName && v.changedSince.length === 0) ?? null;
}

async function act(
  host: WorkspaceToolHost,
  name: string,
  input: Input,
): Promise<{ output: string; exitCode?: number }> {
  const { workspace } = host;
  switch (name) {
    case 'list_files': {
      const files = await workspace.list();
      return { output: files.map((f) => `${f.path} (${f.size} bytes)`).join('\n') || '(empty)' };
    }
    case 'read_file': {
      const text = await workspace.read(str(input, 'path'));
      if (text === null) throw new ToolInputError(`${str(input, 'path')} does not exist.`);
      return { output: text };
    }
    case 'write_file': {
      const content = str(input, 'content');
      await workspace.write(str(input, 'path'), content);
      return { output: `Wrote ${str(input, 'path')} (${content.length} characters).` };
    }
    case 'edit_file': {
      const path = str(input, 'path');
      const [oldText, newText] = [str(input, 'old_string'), str(input, 'new_string')];
      const text = await workspace.read(path);
      if (text === null) throw new ToolInputError(`${path} does not exist.`);
      const count = text.split(oldText).length - 1;
      if (count !== 1)
        throw new ToolInputError(`old_string occurs ${count} times in ${path}; it must occur once.`);
      await workspace.write(
        path,
        text.replace(oldText, () => newText),
      );
      return { output: `Edited ${path}.` };
    }
    default: {
      const result = await runCheck(await workspace.snapshot());
      return { output: result.output, exitCode: result.exitCode };
    }
  }
}

/** Runs one workspace tool call and records it; resolves to the text the model reads. */
export async function runWorkspaceTool(
  host: WorkspaceToolHost,
  name: string,
  input: Input,
  thought?: string,
): Promise<string> {
  if (name === checkName) {
    const passed = await passedAndUnchanged(host);
    if (passed)
      return `Not run again: ${checkName} passed (event ${passed.eventId}) and no file changed since.`;
  }
  const pending = await host.recorder.begin({ tool: name, input }, thought ? { thought } : {});
  try {
    const { output, exitCode } = await act(host, name, input);
    const recorded = await pending.end({ output, ...(exitCode === undefined ? {} : { exitCode }) });
    if (name !== checkName) return output;
    await host.brain.recordValidation({
      sessionId: host.sessionId,
      taskId: host.taskId,
      stepId: recorded.stepId,
      name: checkName,
      result: exitCode === 0 ? 'passed' : 'failed',
      text: output.split('\n').slice(-3).join(' '),
    });
    return `${output}\n(exit code ${exitCode ?? '?'})`;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await pending.end({ error: message });
    return `Error: ${message}`;
  }
}
