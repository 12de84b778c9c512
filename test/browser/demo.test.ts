/**
 * The demo agent on the real engine (worker, OPFS, project folder, checkpoint store), killed and restarted: the
 * brain is closed in the middle of the run (its worker terminated, as when a page closes) and opened again, and
 * the agent goes on from resumePoint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoScript, scriptActions } from '../../src/ui/demo/script';
import { createDemoAgent } from '../../src/ui/demo/agent';
import { openBrain, type Brain } from '../../src/lib/index';
import { demoProjectFiles } from '../../src/storage/agent-folder/demo-project';

const all = scriptActions(demoScript);
const open: Brain[] = [];
const projects: string[] = [];
let counter = 0;

afterEach(async () => {
  const brain = open.at(-1);
  for (const name of projects.splice(0)) await brain?.deleteProject(name).catch(() => undefined);
  await Promise.all(open.splice(0).map((b) => b.close()));
});

/** A brain with its own copy of the demo project (tests share one OPFS; the built-in demo name is global). */
async function openWithProject(dbName: string, project: string, seed: boolean): Promise<Brain> {
  const brain = await openBrain({ dbName, closeOnPageHide: false });
  open.push(brain);
  if (seed) {
    projects.push(project);
    const files = Object.entries(demoProjectFiles).map(([path, text]) => ({
      path,
      data: new TextEncoder().encode(text),
    }));
    await brain.importFolderFiles(files, { name: project });
  } else {
    await brain.openProject({ kind: 'opfs', name: project });
  }
  return brain;
}

describe('the demo agent on OPFS', () => {
  it('is killed three times, resumes each time at resumePoint, repeats no validation and finishes every step once', async () => {
    const dbName = `demo-${Date.now().toString(36)}-${++counter}.db`;
    const project = `demo-agent-test-${Date.now().toString(36)}-${counter}`;
    let brain = await openWithProject(dbName, project, true);
    let performed = 0;
    const resumes: string[] = [];
    for (const killAt of [7, 23, 36]) {
      const stopped = await createDemoAgent(brain, { maxActions: killAt - performed }).run();
      expect(stopped.stoppedBy).toBe('max-actions');
      // The kill: the worker goes away (a page closed), and a new one opens the same agent.db and project.
      await brain.close();
      performed = killAt;
      brain = await openWithProject(dbName, project, false);
      const session = (await brain.listSessions()).find((s) => s.title === demoScript.sessionTitle)!;
      const resume = await brain.resumePoint(session.id);
      resumes.push(`${resume.firstUnfinishedAction.kind}:${resume.firstUnfinishedAction.planStepN}`);
      const done = (await brain.listEvents(session.id)).length;
      expect(done).toBeGreaterThan(0);
    }
    expect(resumes).toEqual(['continue_step:2', 'continue_step:4', 'resolve_blocker:5']);

    const result = await createDemoAgent(brain).run();
    expect(result.stoppedBy).toBe('finished');
    expect(result.performed).toHaveLength(all.length - 36);
    const { sessionId, taskId } = result;

    const plan = await brain.getPlan(taskId);
    expect(plan?.steps.every((s) => s.state === 'done')).toBe(true);
    const stepsDone = await brain.listEvents(sessionId, { kinds: ['plan_step_done'] });
    expect(stepsDone.map((e) => e.planStepId)).toEqual(plan?.steps.map((s) => s.id));
    const runs = await brain.listEvents(sessionId, { kinds: ['validation'] });
    const scripted = all.flatMap((a) => (a.kind === 'validate' ? [`${a.name}:${a.result}:${a.output}`] : []));
    expect(runs.map((r) => (r.kind === 'validation' ? `${r.name}:${r.result}:${r.text}` : ''))).toEqual(
      scripted,
    );

    // Every file change links a checkpoint entry whose diff opens; the files on disk are the script's result.
    const changes = await brain.listEvents(sessionId, { kinds: ['file_change'] });
    expect(changes.length).toBe(all.filter((a) => a.kind === 'edit').length);
    for (const change of changes) {
      if (change.kind !== 'file_change' || change.checkpointEntryId === null)
        throw new Error(`no checkpoint for event ${change.id}`);
      await expect(brain.diffCheckpoint(change.checkpointEntryId)).resolves.toBeTruthy();
    }
    expect((await brain.readProjectFile('src/paginate.ts')).text).toContain('encodeCursor(end) : null');

    // After the compressions, the early superseded decision is found in the history.
    const found = await brain.searchHistory('plain item indexes', { sessionId, kinds: ['decision'] });
    expect(found.hits[0]?.eventId).not.toBeNull();
    expect((await brain.getEvent(found.hits[0]!.eventId!)).compressedAt).not.toBeNull();
    expect((await brain.readAgentFile('.agent/SESSION_SUMMARY.md')).text).toContain(
      'All 8 plan steps are done.',
    );
  }, 240_000);
});
