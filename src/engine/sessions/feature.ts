import { BrainError } from '../../core/errors';
import { asSessionId, asTaskId, type SessionId, type TaskId } from '../../core/ids';
import {
  jsonToText,
  parseMessageRole,
  parseReferenceKind,
  parseStepStatus,
  parseTaskState,
  requireId,
  requireText,
} from '../../core/model';
import { stepSearchText } from '../../core/events/step-text';
import { createHistoryRepo } from '../../storage/sqlite/repos/history-repo';
import { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import { integrityCheck } from '../../storage/sqlite/health';
import { createSessionsRepo } from '../../storage/sqlite/repos/sessions-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import type { EngineContext } from '../context';
import { stepDocument } from '../history/step-index';
import type { CoreApi, SessionsOverviewApi } from '../../core/api';
import { sessionsOverview } from './overview';

const sessionIdOf = (value: unknown) => asSessionId(requireId(value, 'sessionId'));
const taskIdOf = (value: unknown, what = 'taskId') => asTaskId(requireId(value, what));

/** Sessions, tasks, messages, steps and summaries (everything but subscribe/info, which the assembly adds). */
export function createSessionsFeature(ctx: EngineContext) {
  const { db, clock, limits } = ctx;
  const sessions = createSessionsRepo(db);
  const tasks = createTasksRepo(db);
  const transcript = createTranscriptRepo(db);
  const history = createHistoryRepo(db);

  async function taskInSession(taskId: TaskId, sessionId: SessionId) {
    const task = await tasks.get(taskId);
    if (task.sessionId !== sessionId) {
      throw new BrainError(
        'InvalidArgument',
        `Task ${taskId} belongs to session ${task.sessionId}, not ${sessionId}.`,
      );
    }
    return task;
  }

  return {
    async startSession(input: { readonly title?: string } = {}) {
      const title = requireText(input.title ?? 'Untitled session', 'Session title', limits.maxTitleChars);
      const id = await sessions.create(title, clock.now());
      ctx.emit({ topic: 'sessions', sessionId: id });
      return { id };
    },

    listSessions: () => sessions.list(),
    sessionsOverview: () => sessionsOverview(db),
    getSession: (id: SessionId) => sessions.get(sessionIdOf(id)),

    async deleteSession(id: SessionId) {
      const sessionId = sessionIdOf(id);
      await db.transaction(async () => {
        // Its tasks stay (orphans, their steps removed by cleanup later); their steps' search documents go now,
        // with the session's events and summaries: nothing of a deleted session is found any more.
        await history.removeSessionStepDocs(sessionId);
        await sessions.delete(sessionId);
      });
      ctx.emit({ topic: 'sessions', sessionId: id });
    },

    async startTask(input: Parameters<CoreApi['startTask']>[0]) {
      const sessionId = sessionIdOf(input.sessionId);
      const title = requireText(input.title, 'Task title', limits.maxTitleChars);
      const parentTaskId =
        input.parentTaskId === undefined ? null : taskIdOf(input.parentTaskId, 'parentTaskId');
      const references = (input.references ?? []).map((ref) => ({
        to: taskIdOf(ref.to, 'references[].to'),
        kind: parseReferenceKind(ref.kind),
      }));
      const now = clock.now();
      const id = await db.transaction(async () => {
        await sessions.get(sessionId);
        if (parentTaskId !== null) await tasks.get(parentTaskId);
        const taskId = await tasks.insert({ sessionId, title, parentTaskId, references, now });
        if (input.makeCurrent ?? true) await sessions.setCurrentTask(sessionId, taskId, now);
        else await sessions.touch(sessionId, now);
        return taskId;
      });
      ctx.emit({ topic: 'tasks', sessionId, taskId: id });
      return { id };
    },

    getTask: (id: TaskId) => tasks.get(taskIdOf(id)),
    listTasks: (sessionId: SessionId) => tasks.list(sessionIdOf(sessionId)),

    async setTaskState(taskId: TaskId, state: Parameters<CoreApi['setTaskState']>[1]) {
      const id = taskIdOf(taskId);
      await tasks.setState(id, parseTaskState(state), clock.now());
      ctx.emit({ topic: 'tasks', taskId: id });
    },

    async setCurrentTask(sessionId: SessionId, taskId: TaskId | null) {
      const sid = sessionIdOf(sessionId);
      await db.transaction(async () => {
        await sessions.get(sid);
        if (taskId !== null) await taskInSession(taskIdOf(taskId), sid);
        await sessions.setCurrentTask(sid, taskId === null ? null : taskIdOf(taskId), clock.now());
      });
      ctx.emit({ topic: 'sessions', sessionId: sid });
    },

    async pinTask(taskId: TaskId, pinned: boolean) {
      const id = taskIdOf(taskId);
      await tasks.setPinned(id, pinned === true, clock.now());
      ctx.emit({ topic: 'tasks', taskId: id });
    },

    async addTaskReference(from: TaskId, to: TaskId, kind: Parameters<CoreApi['addTaskReference']>[2]) {
      const fromId = taskIdOf(from, 'from');
      await db.transaction(async () => {
        await tasks.get(fromId);
        await tasks.addReference(fromId, taskIdOf(to, 'to'), parseReferenceKind(kind));
      });
      ctx.emit({ topic: 'tasks', taskId: fromId });
    },

    async recordMessage(input: Parameters<CoreApi['recordMessage']>[0]) {
      const sessionId = sessionIdOf(input.sessionId);
      const taskId = input.taskId === undefined ? null : taskIdOf(input.taskId);
      const role = parseMessageRole(input.role);
      const content = requireText(input.content, 'Message content', limits.maxMessageChars);
      const createdAt = clock.now();
      const id = await db.transaction(async () => {
        await sessions.get(sessionId);
        if (taskId !== null) await taskInSession(taskId, sessionId);
        const messageId = await transcript.addMessage({ sessionId, taskId, role, content, createdAt });
        await sessions.touch(sessionId, createdAt);
        return messageId;
      });
      ctx.emit({ topic: 'messages', sessionId, ...(taskId === null ? {} : { taskId }) });
      return { id };
    },

    listMessages: (sessionId: SessionId, taskId?: TaskId) =>
      transcript.listMessages(sessionIdOf(sessionId), taskId === undefined ? undefined : taskIdOf(taskId)),

    async recordStep(input: Parameters<CoreApi['recordStep']>[0]) {
      const taskId = taskIdOf(input.taskId);
      const tool = requireText(input.tool, 'Step tool', limits.maxTitleChars);
      const status = parseStepStatus(input.status);
      const params = jsonToText(input.params, 'params', limits.maxStepJsonChars);
      const result = jsonToText(input.result, 'result', limits.maxStepJsonChars);
      // Searchable at once: the step's search document goes in with the step, in the same transaction.
      const body = stepSearchText(input.params, input.result);
      const id = await db.transaction(async () => {
        const task = await tasks.get(taskId);
        const createdAt = clock.now();
        const step = await transcript.addStep({ taskId, tool, params, result, status, createdAt });
        await history.indexSteps([
          stepDocument({ ...step, taskId, sessionId: task.sessionId, tool, status, createdAt }, body),
        ]);
        return step.id;
      });
      ctx.emit({ topic: 'steps', taskId });
      return { id };
    },

    listSteps(taskId: TaskId, options?: { readonly last?: number }) {
      const last = (options as { last?: unknown } | undefined)?.last;
      if (last !== undefined && (typeof last !== 'number' || !Number.isSafeInteger(last) || last < 1))
        throw new BrainError(
          'InvalidArgument',
          'listSteps: last must be a whole number of steps, 1 or more.',
        );
      return transcript.listSteps(taskIdOf(taskId), last);
    },

    async recordSummary(input: Parameters<CoreApi['recordSummary']>[0]) {
      const sessionId = sessionIdOf(input.sessionId);
      const taskId = input.taskId === undefined ? null : taskIdOf(input.taskId);
      const kind = requireText(input.kind, 'Summary kind', 100);
      const content = requireText(input.content, 'Summary content', limits.maxMessageChars);
      const id = await db.transaction(async () => {
        await sessions.get(sessionId);
        if (taskId !== null) await taskInSession(taskId, sessionId);
        return transcript.addSummary({ sessionId, taskId, kind, content, createdAt: clock.now() });
      });
      ctx.emit({ topic: 'summaries', sessionId });
      return { id };
    },

    listSummaries: (sessionId: SessionId) => transcript.listSummaries(sessionIdOf(sessionId)),

    integrityCheck: () => integrityCheck(db),
  } satisfies Omit<CoreApi, 'info' | 'subscribe'> & SessionsOverviewApi;
}
