import { BrainError } from '../../core/errors';
import { skillFilePath } from '../../core/formats/agent-files';
import { skillNameProblem } from '../../core/formats/skill';
import { asTaskId } from '../../core/ids';
import { requireId, requireText, type Task } from '../../core/model';
import { draftSkill } from '../../core/plan/skill-draft';
import type { SkillDraftResult, SkillsApi } from '../../core/api/memory';
import type { EventLog } from '../events/log';
import type { MemoryFilesProvider } from '../memory-files';

/** The task and its child tasks, all the way down (a child agent's work is part of what worked). */
function withDescendants(root: Task, all: readonly Task[]): Set<number> {
  const ids = new Set<number>([root.id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const t of all) {
      if (t.parentTaskId !== null && ids.has(t.parentTaskId) && !ids.has(t.id)) {
        ids.add(t.id);
        grew = true;
      }
    }
  }
  return ids;
}

/**
 * "Promote to skill". Listing, reading and saving skills are the project feature's (listSkills, readSkill,
 * saveSkill); this drafts a SKILL.md from a finished, validated task for the person to edit and save.
 */
export function createSkillsFeature(log: EventLog, files: MemoryFilesProvider) {
  const { tasks, events, plans } = log.repos;
  return {
    async draftSkillFromTask(taskId, options = {}): Promise<SkillDraftResult> {
      const task = await tasks.get(asTaskId(requireId(taskId, 'taskId')));
      if (task.sessionId === null)
        throw new BrainError('Conflict', `Task ${task.id} lost its session; its events are gone.`);
      let name: string | undefined;
      if (options.name !== undefined) {
        name = requireText(options.name, 'Skill name', 64);
        const issue = skillNameProblem(name);
        if (issue) throw new BrainError('InvalidArgument', `"${name}": ${issue}.`);
      }
      const family = withDescendants(task, await tasks.list(task.sessionId));
      const all = await events.list(task.sessionId);
      const draft = draftSkill({
        task,
        plan: await plans.get(task.id),
        events: all.filter((e) => e.taskId !== null && family.has(e.taskId)),
        now: log.ctx.clock.now(),
        ...(name === undefined ? {} : { name }),
      });
      const path = skillFilePath(draft.name);
      const folder = await files(task.sessionId);
      const exists = folder === null ? null : (await folder.read(path)) !== null;
      return { ...draft, taskId: task.id, path, exists };
    },
  } satisfies SkillsApi;
}
