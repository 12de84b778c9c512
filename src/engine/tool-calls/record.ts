/**
 * One tool call recorded inside the caller's transaction: classified (src/core/tool-calls), then its step (searchable
 * from the moment the batch commits: indexed just behind it, and before any search), its file changes with
 * checkpoint entries where both bodies are known, a validation per check with a known result, the agent's todo list
 * and its stated intention — all linked to the step. What to write is derived in core (records.ts); this file
 * writes it. A change whose bodies are not both known but whose diff the call showed is kept as a patch entry.
 */
import type { DerivedCheck, DerivedFileChange, RecordedToolCall } from '../../core/api/tool-calls';
import type { CheckpointFileInput } from '../../core/api/checkpoints';
import { BrainError } from '../../core/errors';
import { parseEventInput, type EventRecord, type SessionEvent } from '../../core/events/model';
import type { CheckpointEntryId, SessionId, StepId, TaskId } from '../../core/ids';
import { classifyContextOf, advanceToolContext, type ToolContext } from '../../core/tool-calls/context';
import {
  dirsToKnow,
  pathsToKnow,
  planFileChanges,
  type Body,
  type PlannedFileChange,
} from '../../core/tool-calls/file-changes';
import { recordedPath } from '../../core/tool-calls/paths';
import {
  bodiesOf,
  recordsInOrder,
  stepOf,
  toolCallRecords,
  type EventFields,
} from '../../core/tool-calls/records';
import { classifyToolCall, type ToolCallMeaning } from '../../core/tool-calls';
import type { EngineContext } from '../context';
import type { DeferredWrites } from '../events/log';
import type { HistoryDoc } from '../../storage/sqlite/repos/history-repo';
import { stepDocument } from '../history/step-index';
import { stepSearchText } from '../../core/events/step-text';
import { bodyKey, createBodyKnowledge, type BodyKnowledge } from './bodies';
import type { ParsedToolCall } from './input';
import { packedFor, stepTexts, type PackedStep } from './step-texts';
import type { ToolCallsDeps } from './feature';
import type { PatchFileInput } from '../checkpoints/feature';

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

/** The session a task belongs to, which must be the call's (cached for the batch). */
async function checkOwner(deps: ToolCallsDeps, batch: BatchState, p: ParsedToolCall) {
  let owner = batch.tasks.get(p.taskId);
  if (owner === undefined) {
    const taskSession = (await deps.tasks.get(p.taskId)).sessionId;
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
}

/** The step row, and its search document (with the batch, or marked to be indexed just behind it). */
async function addStep(
  ctx: EngineContext,
  deps: ToolCallsDeps,
  batch: BatchState,
  p: ParsedToolCall,
  step: ReturnType<typeof stepOf>,
  at: number,
  ahead: PackedStep | null,
): Promise<StepId> {
  const { params, result } = stepTexts(step, ctx.limits.maxStepJsonChars);
  const row = { taskId: p.taskId, tool: step.tool, params, result, status: step.status, createdAt: at };
  const paramsPacked = packedFor(ahead?.params, params);
  const resultPacked = packedFor(ahead?.result, result);
  const added = await deps.transcript.addStep(row, {
    ...(paramsPacked ? { params: paramsPacked } : {}),
    ...(resultPacked ? { result: resultPacked } : {}),
  });
  if (batch.stepDocs !== null) {
    const doc = { ...added, ...row, sessionId: p.sessionId };
    batch.stepDocs.push(stepDocument(doc, stepSearchText(step.params, step.result)));
  }
  // Else its search document is written just behind the batch (history/pending-steps.ts), from the stored step.
  else batch.firstStepId ??= added.id;
  batch.touched.steps.add(p.taskId);
  // The step was just inserted in this transaction: its events need not look it up again.
  batch.links.set(`st${added.id}`, Promise.resolve(p.taskId));
  batch.steps.set(added.id, p.taskId);
  return added.id;
}

/** The call's file changes, with the bodies the session knows and the call carries or the caller captured. */
async function planChanges(
  batch: BatchState,
  p: ParsedToolCall,
  meaning: ToolCallMeaning,
  root: string | null,
) {
  const effects = meaning.failed ? [] : meaning.fileEffects;
  const paths = [...pathsToKnow(effects, root), ...p.files.map((f) => recordedPath(f.path, root).path)];
  await batch.bodies.load(p.sessionId, paths);
  await batch.bodies.loadUnder(p.sessionId, dirsToKnow(effects, root));
  return planFileChanges(
    effects,
    p.files,
    {
      body: (path) => batch.bodies.body(p.sessionId, path),
      seen: (path) => batch.bodies.seen(p.sessionId, path),
      hasEntry: (path) => batch.bodies.hasEntry(p.sessionId, path),
      under: (dir) => batch.bodies.under(p.sessionId, dir),
    },
    root,
  );
}

/**
 * Checkpoint entries, by path: with both bodies where they are known, else with the change's diff when the call
 * showed one that can be kept (a patch entry); `notes` say why a diff could not be.
 */
async function storeEntries(
  deps: ToolCallsDeps,
  batch: BatchState,
  p: ParsedToolCall,
  stepId: StepId,
  changes: readonly PlannedFileChange[],
): Promise<{ entryOf: Map<string, CheckpointEntryId>; notes: string[] }> {
  const notes: string[] = [];
  const kept: PlannedFileChange[] = [];
  const inputs: (CheckpointFileInput | PatchFileInput)[] = [];
  for (const c of changes) {
    const common = { taskId: p.taskId, stepId, path: c.path };
    if (bodiesOf(c) === 'both') inputs.push({ ...common, before: c.before ?? null, after: c.after ?? null });
    else if (c.diff !== undefined) {
      const unusable = deps.checkpoints.patchProblem(c.diff);
      if (unusable !== null) {
        notes.push(`${c.path}: its diff is not kept (${unusable}).`);
        continue;
      }
      inputs.push({ ...common, patch: c.diff });
    } else continue;
    kept.push(c);
  }
  if (inputs.length === 0) return { entryOf: new Map(), notes };
  const ids = await deps.checkpoints.store(inputs, batch.steps, true);
  batch.touched.checkpoints.add(p.taskId);
  return { entryOf: new Map(kept.map((c, i) => [c.path, ids[i] as CheckpointEntryId])), notes };
}

/**
 * One call: classified once (with the session's root and scripts), its step, file changes and checkpoint entries,
 * and the events core/tool-calls/records.ts derives from them, written in the batch's transaction.
 */
export async function recordOne(
  ctx: EngineContext,
  deps: ToolCallsDeps,
  batch: BatchState,
  p: ParsedToolCall,
  loadContext: (sessionId: SessionId) => Promise<ToolContext>,
  /** Its step packed ahead on another thread (an import's reader), taken only for the very texts stored. */
  ahead: PackedStep | null = null,
): Promise<RecordedToolCall> {
  await checkOwner(deps, batch, p);
  const context = await loadContext(p.sessionId);
  if (p.root !== null) context.root = p.root;
  const meaning = classifyToolCall(p.call, classifyContextOf(context));
  const at = p.at ?? ctx.clock.now();
  const stepId = await addStep(ctx, deps, batch, p, stepOf(p.call, meaning), at, ahead);
  const planned = await planChanges(batch, p, meaning, context.root);
  const { entryOf, notes: entryNotes } = await storeEntries(deps, batch, p, stepId, planned.changes);
  for (const c of planned.changes) batch.bodies.set(p.sessionId, c.path, c.after, entryOf.has(c.path));

  const derived = toolCallRecords(meaning, planned.changes, entryOf, p.thought);
  const drafts = recordsInOrder(derived);
  const { sessionId, taskId, planStepId } = p;
  // Assigned onto the shared fields, not spread after them: in Node 20 `{ ...a, k }` costs microseconds.
  const records: EventRecord[] = drafts.map((fields) =>
    parseEventInput(Object.assign({ sessionId, taskId, stepId, planStepId }, fields)),
  );
  const stored = await deps.log.insertAll(records, at, batch.links, batch.deferred);
  batch.events.push(...stored);
  const eventOf = new Map<EventFields, SessionEvent>(drafts.map((d, i) => [d, stored[i] as SessionEvent]));
  const idOf = (d: EventFields | null) => (d === null ? null : (eventOf.get(d)?.id ?? null));
  for (const f of derived.files)
    if (f.change.after !== undefined && !entryOf.has(f.change.path))
      deps.bodyMemory.set(bodyKey(p.sessionId, f.change.path), idOf(f.event) as number, f.change.after);
  advanceToolContext(
    context,
    meaning.scripts.map((s) => s.id),
    planned.changes.filter(affectsScripts).length,
    meaning.changesSetAside,
  );

  const checks: DerivedCheck[] = derived.checks.map(({ run, event }) => ({
    eventId: idOf(event),
    id: run.id,
    kind: run.kind,
    status: run.result.status,
    counts: run.result.counts,
    failures: run.result.failures,
    summary: run.result.summary,
  }));
  const files: DerivedFileChange[] = derived.files.map(({ change: c, event }) => ({
    eventId: idOf(event) as DerivedFileChange['eventId'],
    path: c.path,
    change: c.change,
    outside: c.outside,
    checkpointEntryId: entryOf.get(c.path) ?? null,
    bodies: bodiesOf(c),
    via: c.via,
  }));
  return {
    stepId,
    kind: meaning.kind,
    command: meaning.command,
    checks,
    files,
    todoEventId: idOf(derived.todo),
    thoughtEventId: idOf(derived.thought),
    notes: [...meaning.notes, ...planned.notes, ...entryNotes, ...derived.notes],
  };
}
