/**
 * Tools that record what the model decided, what stops it, what it asks and how far it got: each one event in
 * agent.db (and a line in SESSION.jsonl when a project folder is open), the substance of the active checkpoint.
 */
import type { EventId, PlanStepId, SessionId, TaskId } from '../../worker/protocol';
import { id, object, text } from './schema';
import type { ToolSpec } from './spec';

const sessionId = id('The session this belongs to (from the resume point or the host).');
const taskId = id('The task this belongs to, if it is about one task.');
const cost = 'Cheap: one small write.';

const target = (input: Readonly<Record<string, unknown>>) => ({
  sessionId: input['sessionId'] as SessionId,
  ...(input['taskId'] === undefined ? {} : { taskId: input['taskId'] as TaskId }),
});

export const eventTools = [
  {
    name: 'record_decision',
    description:
      'Record a decision you made and why (a library chosen, an approach rejected, a convention to keep), so ' +
      'that you or the next agent keep to it after a restart or a context compression. Call it when you settle ' +
      'something a later step must not undo. Pass `supersedes` with the event id of an earlier decision this one ' +
      `replaces: that one then drops out of the checkpoint. ${cost} Returns the new decision's event id.`,
    schema: (bound) =>
      object(
        { sessionId, text: text('The decision, one or two sentences.') },
        {
          taskId,
          why: text('Why: the constraint or evidence behind it.'),
          supersedes: id('Event id of the earlier decision this one replaces.'),
        },
        bound,
      ),
    hints: {
      NotFound: 'Check `supersedes`: it must be the event id of an earlier decision in this session.',
    },
    async run(brain, input) {
      const recorded = await brain.recordDecision({
        ...target(input),
        text: input['text'] as string,
        ...(input['why'] === undefined ? {} : { why: input['why'] as string }),
        ...(input['supersedes'] === undefined ? {} : { supersedes: input['supersedes'] as EventId }),
      });
      const replaced =
        input['supersedes'] === undefined ? '' : `, replacing decision ${String(input['supersedes'])}`;
      return `Decision recorded as event ${recorded.id}${replaced}.`;
    },
  },
  {
    name: 'raise_blocker',
    description:
      'Record something that stops you from going on (a failing dependency, missing access, a question only the ' +
      'person can answer). While it is open, the resume point puts resolving it first. ' +
      `${cost} Returns the blocker's event id: pass it to resolve_blocker once it is cleared.`,
    schema: (bound) =>
      object({ sessionId, text: text('What blocks you, and what would unblock it.') }, { taskId }, bound),
    async run(brain, input) {
      const recorded = await brain.raiseBlocker({ ...target(input), text: input['text'] as string });
      return `Blocker raised as event ${recorded.id}. Call resolve_blocker with blockerId ${recorded.id} once it is cleared.`;
    },
  },
  {
    name: 'resolve_blocker',
    description:
      'Mark a blocker you raised earlier as cleared, with how, so the resume point stops putting it first. ' +
      `${cost} Returns the resolution's event id.`,
    schema: (bound) =>
      object(
        { sessionId, blockerId: id('The event id raise_blocker returned.') },
        { taskId, text: text('How it was resolved.') },
        bound,
      ),
    hints: {
      NotFound:
        'Use the event id raise_blocker returned (read_resume_point lists the open blockers with their ids).',
      Conflict:
        'That blocker is already resolved or is not a blocker: read_resume_point lists the open ones.',
    },
    async run(brain, input) {
      const recorded = await brain.resolveBlocker({
        ...target(input),
        blockerId: input['blockerId'] as EventId,
        ...(input['text'] === undefined ? {} : { text: input['text'] as string }),
      });
      return `Blocker ${String(input['blockerId'])} resolved (event ${recorded.id}).`;
    },
  },
  {
    name: 'ask_question',
    description:
      'Record a question for the person (a choice you should not make alone, a missing detail). It stays in the ' +
      `resume point until answered. ${cost} Returns the question's event id; ask the person in your reply too.`,
    schema: (bound) =>
      object({ sessionId, text: text('The question, answerable on its own.') }, { taskId }, bound),
    async run(brain, input) {
      const recorded = await brain.askQuestion({ ...target(input), text: input['text'] as string });
      return `Question recorded as event ${recorded.id}. When the person answers, call answer_question with questionId ${recorded.id}.`;
    },
  },
  {
    name: 'answer_question',
    description:
      "Record the person's answer to a question asked with ask_question, in their words, so it survives a " +
      `restart. ${cost} Returns the answer's event id.`,
    schema: (bound) =>
      object(
        { sessionId, questionId: id('The event id ask_question returned.'), text: text('The answer.') },
        { taskId },
        bound,
      ),
    hints: {
      NotFound: 'Use the event id ask_question returned (read_resume_point lists open questions with ids).',
    },
    async run(brain, input) {
      const recorded = await brain.answerQuestion({
        ...target(input),
        questionId: input['questionId'] as EventId,
        text: input['text'] as string,
      });
      return `Answer to question ${String(input['questionId'])} recorded as event ${recorded.id}.`;
    },
  },
  {
    name: 'note_progress',
    description:
      'Note what you just finished and what you will do next (appended to PROGRESS.md). Call it at natural ' +
      'stopping points, especially before a long operation: after a restart, `next` is where you pick up. ' +
      `${cost} Returns the event id.`,
    schema: (bound) =>
      object(
        { taskId: id('The task this progress is on.'), text: text('What is done now.') },
        {
          next: text('What you will do next, as an instruction to yourself.'),
          planStepId: id('The plan step this progress is on.'),
        },
        bound,
      ),
    async run(brain, input) {
      const recorded = await brain.appendProgress({
        taskId: input['taskId'] as TaskId,
        text: input['text'] as string,
        ...(input['next'] === undefined ? {} : { next: input['next'] as string }),
        ...(input['planStepId'] === undefined ? {} : { planStepId: input['planStepId'] as PlanStepId }),
      });
      return `Progress noted as event ${recorded.id}.`;
    },
  },
] as const satisfies readonly ToolSpec[];
