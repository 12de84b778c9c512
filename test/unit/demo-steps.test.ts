/**
 * Issue 17, item 3: the demo promises "every step", so its tasks record their tool calls as steps — each edit,
 * command run and history lookup, in the shapes agents' transcripts use — and each file change's checkpoint names
 * the step that made it.
 */
import { describe, expect, it } from 'vitest';
import type { AgentAction } from '../../src/ui/demo/actions';
import { demoScript, scriptActions } from '../../src/ui/demo/script';
import { createDemoAgent, type AgentWorkspace } from '../../src/ui/demo/agent';
import { demoProjectFiles } from '../../src/storage/agent-folder/demo-project';
import { memoryBrain } from './engine-helpers';
import { fakeMemoryFiles } from './memory-files-fake';

const all = scriptActions(demoScript);
const child = 'Child agent: survey cursor conventions';

function workspace(): AgentWorkspace {
  const files = new Map(Object.entries(demoProjectFiles));
  return {
    async read(path) {
      return files.get(path) ?? null;
    },
    async write(path, text) {
      files.set(path, text);
    },
  };
}

/** The tool calls the script implies for one task, in order, as `tool:main text`. */
function expectedCalls(inChild: boolean): string[] {
  return all.flatMap((a: AgentAction) => {
    const mine = 'child' in a && a.child !== undefined ? inChild : !inChild;
    if (!mine) return [];
    if (a.kind === 'edit') return [`${a.edit.op === 'replace' ? 'Edit' : 'Write'}:${a.path}`];
    if (a.kind === 'validate') return [`Bash:${a.command ?? a.name}`];
    if (a.kind === 'recall') return [`search_history:${a.query}`];
    return [];
  });
}

describe('the demo agent records its tool steps', () => {
  it('every edit, check run and lookup is a step of its task, and each checkpoint names its step', async () => {
    const folder = fakeMemoryFiles();
    const { api } = await memoryBrain({ memoryFiles: folder.provider });
    const result = await createDemoAgent(api, { workspace: workspace() }).run();
    expect(result.stoppedBy).toBe('finished');
    const tasks = await api.listTasks(result.sessionId);
    const childId = tasks.find((t) => t.title === child)!.id;

    const described = (steps: Awaited<ReturnType<typeof api.listSteps>>) =>
      steps.map((s) => {
        const p = s.params as Record<string, string>;
        return `${s.tool}:${p['file_path'] ?? p['command'] ?? p['query']}`;
      });
    const mainSteps = await api.listSteps(result.taskId);
    const childSteps = await api.listSteps(childId);
    expect(described(mainSteps)).toEqual(expectedCalls(false));
    expect(described(childSteps)).toEqual(expectedCalls(true));
    expect(mainSteps.length).toBeGreaterThanOrEqual(20);

    // Bash steps carry the output and exit code; a failing check is an error step.
    const runs = mainSteps.filter((s) => s.tool === 'Bash');
    expect(runs.map((s) => s.status)).toContain('error');
    expect(runs.find((s) => s.status === 'error')?.result).toMatchObject({
      output: '1 failed, 4 passed — page 1 of 26 letters has 11 items',
      exitCode: 1,
    });
    expect(runs.find((s) => (s.params as { command: string }).command === 'npx tsc --noEmit')).toBeDefined();
    // The off-by-one fix is an Edit with the exact old and new text.
    expect(mainSteps.find((s) => s.tool === 'Edit')?.params).toEqual({
      file_path: 'src/paginate.ts',
      old_string: 'i <= start + pageSize',
      new_string: 'i < start + pageSize',
    });

    // Each checkpoint entry is linked to the step that made the change, in the same task.
    const entries = await api.listCheckpoints(result.taskId);
    const stepIds = new Set(
      mainSteps.filter((s) => s.tool === 'Edit' || s.tool === 'Write').map((s) => s.id),
    );
    expect(entries.length).toBe(stepIds.size);
    expect(entries.every((e) => e.stepId !== null && stepIds.has(e.stepId))).toBe(true);

    // A second run has nothing left to do and records no step again.
    await createDemoAgent(api, { workspace: workspace() }).run();
    expect((await api.listSteps(result.taskId)).length).toBe(mainSteps.length);
  }, 60_000);
});
