/**
 * One tool call recorded inside the caller's transaction: classified (src/core/tool-calls), then its step (searchable
 * from the moment the batch commits: indexed just behind it, and before any search), its file changes with checkpoint entries where both bodies are known, a validation per check with a
 * known result, the agent's todo list and its stated intention — all linked to the step.
 */
import type { DerivedCheck, DerivedFileChange, RecordedToolCall } from '../../core/api/tool-calls';
import type { CheckpointFileInput } from '../../core/api/checkpoints';
import { BrainError } from '../../core/errors';
import { parseEventInput, type EventRecord, type SessionEvent } from '../../core/events/model';
import type { CheckpointEntryId, SessionId, StepId, TaskId } from '../../core/ids';
import { jsonToText } from '../../core/model';
import { classifyContextOf, advanceToolContext, type ToolContext } from '../../core/tool-calls/context';
import { dirsToKnow, pathsToKnow, planFileChanges, type Body } from '../../core/tool-calls/file-changes';
import { recordedPath } from '../../core/tool-calls/paths';
import { stepOf, todosOf, validationsOf } from '../../core/tool-calls/records';
import { classifyToolCall } from '../../core/tool-calls';
import type { EngineContext } from '../context';
import type { DeferredWrites } from '../events/log';
import type { HistoryDoc } from '../../storage/sqlite/repos/history-repo';
import { stepDocument } from '../history/step-index';
import { stepSearchText } from '../../core/events/step-text';
import { bodyKey, createBodyKnowledge, type BodyKnowledge } from './bodies';
import type { ParsedToolCall } from './input';
import type { ToolCallsDeps } from './feature';

/** What one batch shares: the caches of one transaction. */
export interface BatchState {
  readonly bodies: BodyKnowledge;
  readonly contexts: Map<SessionId, ToolContext>;
  readonly tasks: Map<TaskId, SessionId>;
  readonly links: Map<string, Promise<unknown>>;
  /** The steps this batch inserted, with their tasks (checked once, for the checkpoint store). */
  readonly steps: Map<StepId, TaskId>;
  /** The batch's first step: from it on, its steps wait for their search documents (history/pending-steps.ts). */
  firstStepId: StepId | null;
  /**
   * The search documents of the batch's steps when they are written with it (an import: its steps' text is in
   * hand here, and indexing them behind would read them all back), else null (marked, indexed behind).
   */
  readonly stepDocs: HistoryDoc[] | null;
  readonly deferred: DeferredWrites;
  readonly events: SessionEvent[];
  /** Bodies to remember once the transaction committed (an id of a rolled-back event may be given out again). */
  readonly remember: [key: string, eventId: number, body: Body][];
  readonly touched: { steps: Set<TaskId>; checkpoints: Set<TaskId> };
}

/** A new batch's state; `contexts` shared when the caller keeps the classifier's contexts across batches. */
export function newBatchState(
  deps: ToolCallsDeps,
  contexts: Map<SessionId, ToolContext> = new Map(),
  indexWithBatch = false,
): BatchState {
  return {
    bodies: createBodyKnowledge(deps.events, deps.checkpoints.repo, deps.bodyMemory),
    contexts,
    tasks: new Map(),
    links: new Map(),
    steps: new Map(),
    firstStepId: null,
    stepDocs: indexWithBatch ? [] : null,
    deferred: { docs: [], touch: new Map() },
    events: [],
    remember: [],
    touched: { steps: new Set(), checkpoints: new Set() },
  };
}

const affectsScripts = (c: { path: string; outside: boolean }) => !c.outside && !c.path.startsWith('.agent/');

export async function recordOne(
  ctx: EngineContext,
  deps: ToolCallsDeps,
  batch: BatchState,
  p: ParsedToolCall,
  loadContext: (sessionId: SessionId) => Promise<ToolContext>,
): Promise<RecordedToolCall> {
  const { journal, tasks, checkpoints, log } = deps;
  let owner = batch.tasks.get(p.taskId);
  if (owner === undefined) {
    const taskSession = (await tasks.get(p.taskId)).sessionId;
    if (taskSession === null)
      throw new BrainError('InvalidArgument', `Task ${p.taskId} belongs to no session any more.`);
    owner = taskSession;
    batch.tasks.set(p.taskId, owner);
  }
  if (owner !== p.sessionId)
    throw new BrainError(
      'InvalidArgument',
      `Task ${p.taskId} belongs to session ${owner}, not ${p.sessionId}.`,
    );
  const context = await loadContext(p.sessionId);
  if (p.root !== null) context.root = p.root;
  const root = context.root;
  const meaning = classifyToolCall(p.call, classifyContextOf(context));
  const at = p.at ?? ctx.clock.now();

  const step = stepOf(p.call, meaning);
  const params = jsonToText(step.params, 'params', ctx.limits.maxStepJsonChars);
  const result = jsonToText(step.result, 'result', ctx.limits.maxStepJsonChars);
  const added = await journal.addStep({
    taskId: p.taskId,
    tool: step.tool,
    params,
    result,
    status: step.status,
    createdAt: at,
  });
  if (batch.stepDocs !== null) {
    const doc = {
      ...added,
      taskId: p.taskId,
      sessionId: p.sessionId,
      tool: step.tool,
      status: step.status,
      createdAt: at,
    };
    batch.stepDocs.push(stepDocument(doc, stepSearchText(step.params, step.result)));
  }
  // Else its search document is written just behind the batch (history/pending-steps.ts), from the stored step.
  else batch.firstStepId ??= added.id;
  batch.touched.steps.add(p.taskId);
  // The step was just inserted in this transaction: its events need not look it up again.
  batch.links.set(`st${added.id}`, Promise.resolve(p.taskId));
  batch.steps.set(added.id, p.taskId);

  const effects = meaning.failed ? [] : meaning.fileEffects;
  const captured = p.files;
  const paths = [...pathsToKnow(effects, root), ...captured.map((f) => recordedPath(f.path, root).path)];
  await batch.bodies.load(p.sessionId, paths);
  await batch.bodies.loadUnder(p.sessionId, dirsToKnow(effects, root));
  const planned = planFileChanges(
    effects,
    captured,
    {
      body: (path) => batch.bodies.body(p.sessionId, path),
      seen: (path) => batch.bodies.seen(p.sessionId, path),
      under: (dir) => batch.bodies.under(p.sessionId, dir),
    },
    root,
  );
  const withBodies = planned.changes.filter((c) => c.before !== undefined && c.after !== undefined);
  const entryInputs: CheckpointFileInput[] = withBodies.map((c) => ({
    taskId: p.taskId,
    stepId: added.id,
    path: c.path,
    before: c.before ?? null,
    after: c.after ?? null,
  }));
  const entryIds = entryInputs.length === 0 ? [] : await checkpoints.store(entryInputs, batch.steps);
  if (entryIds.length > 0) batch.touched.checkpoints.add(p.taskId);
  const entryOf = new Map<string, CheckpointEntryId>(
    withBodies.map((c, i) => [c.path, entryIds[i] as CheckpointEntryId]),
  );
  for (const c of planned.changes) batch.bodies.set(p.sessionId, c.path, c.after);

  const { sessionId, taskId, planStepId } = p;
  // Assigned onto the shared fields, not spread after them: in Node 20 `{ ...a, k }` costs microseconds.
  const eventOf = (fields: object) =>
    parseEventInput(Object.assign({ sessionId, taskId, stepId: added.id, planStepId }, fields));
  const records: EventRecord[] = [];
  const thoughtAt =
    p.thought === null ? -1 : records.push(eventOf({ kind: 'note', said: true, text: p.thought })) - 1;
  const fileAt = planned.changes.map(
    (c) =>
      records.push(
        eventOf({
          kind: 'file_change',
          path: c.path,
          change: c.change,
          outside: c.outside,
          checkpointEntryId: entryOf.get(c.path) ?? null,
          text: `${c.change === 'created' ? 'Created' : c.change === 'deleted' ? 'Deleted' : 'Changed'} by ${c.via}`,
        }),
      ) - 1,
  );
  const { validations, notes: checkNotes } = validationsOf(meaning);
  const checkAt = validations.map(
    (v) => records.push(eventOf({ kind: 'validation', name: v.run.id, result: v.result, text: v.text })) - 1,
  );
  const todo = meaning.plan && !meaning.failed ? todosOf(meaning.plan) : null;
  const todoAt =
    todo === null ? -1 : records.push(eventOf({ kind: 'note', text: todo.text, todos: todo.todos })) - 1;
  const stored = await log.insertAll(records, at, batch.links, batch.deferred);
  batch.events.push(...stored);
  planned.changes.forEach((c, i) => {
    const event = stored[fileAt[i] as number] as SessionEvent;
    if (c.after !== undefined && !entryOf.has(c.path))
      deps.bodyMemory.set(bodyKey(p.sessionId, c.path), event.id, c.after);
  });
  advanceToolContext(
    context,
    meaning.scripts.map((s) => s.id),
    planned.changes.filter(affectsScripts).length,
  );

  const idAt = (i: number) => (i < 0 ? null : (stored[i] as SessionEvent).id);
  const checks: DerivedCheck[] = meaning.checks.map((run) => {
    const i = validations.findIndex((v) => v.run === run);
    return {
      eventId: i < 0 ? null : idAt(checkAt[i] as number),
      id: run.id,
      kind: run.kind,
      status: run.result.status,
      counts: run.result.counts,
      failures: run.result.failures,
      summary: run.result.summary,
    };
  });
  const files: DerivedFileChange[] = planned.changes.map((c, i) => ({
    eventId: idAt(fileAt[i] as number) as DerivedFileChange['eventId'],
    path: c.path,
    change: c.change,
    outside: c.outside,
    checkpointEntryId: entryOf.get(c.path) ?? null,
    bodies:
      c.before !== undefined && c.after !== undefined
        ? 'both'
        : c.before !== undefined
          ? 'no-after'
          : c.after !== undefined
            ? 'no-before'
            : 'none',
    via: c.via,
  }));
  return {
    stepId: added.id,
    kind: meaning.kind,
    command: meaning.command,
    checks,
    files,
    todoEventId: idAt(todoAt),
    thoughtEventId: idAt(thoughtAt),
    notes: [...meaning.notes, ...planned.notes, ...checkNotes],
  };
}
