/**
 * recordToolCall / recordToolCalls: a real agent's tool calls in, one call each (or a whole session in one
 * all-or-nothing transaction), with everything derived from them (record.ts). The per-session context the
 * classifier needs between calls (scripts run, the root) is saved in the same transaction; the steps' search
 * documents are written just behind it (history/pending-steps.ts: marked in it, indexed when the engine is idle
 * and before anything reads the index).
 */
import type { RecordedToolCall, RecordedToolCalls, ToolCallsApi } from '../../core/api/tool-calls';
import { BrainError } from '../../core/errors';
import type { SessionId } from '../../core/ids';
import { toolContextFromJson, toolContextToJson, type ToolContext } from '../../core/tool-calls/context';
import { createEventsRepo } from '../../storage/sqlite/repos/events-repo';
import { createHistoryRepo } from '../../storage/sqlite/repos/history-repo';
import { createTranscriptRepo } from '../../storage/sqlite/repos/transcript-repo';
import { createTasksRepo } from '../../storage/sqlite/repos/tasks-repo';
import { createToolContextRepo } from '../../storage/sqlite/repos/tool-context-repo';
import type { CheckpointStore } from '../checkpoints/feature';
import type { EngineContext } from '../context';
import type { EventLog } from '../events/log';
import { createIdleStepIndexing, createPendingSteps } from '../history/pending-steps';
import { createBodyMemory } from './bodies';
import { MAX_TOOL_CALLS, parseToolCallInput } from './input';
import { newBatchState, recordOne } from './record';

export function createToolCallDeps(ctx: EngineContext, log: EventLog, store: CheckpointStore) {
  const history = createHistoryRepo(ctx.db);
  const pendingSteps = createPendingSteps(ctx.db, history);
  return {
    log,
    checkpoints: store,
    transcript: createTranscriptRepo(ctx.db),
    history,
    pendingSteps,
    indexWhenIdle: createIdleStepIndexing(ctx, pendingSteps),
    tasks: createTasksRepo(ctx.db),
    events: createEventsRepo(ctx.db),
    contexts: createToolContextRepo(ctx.db),
    bodyMemory: createBodyMemory(),
  };
}

export type ToolCallsDeps = ReturnType<typeof createToolCallDeps>;

export function createToolCallsFeature(ctx: EngineContext, deps: ToolCallsDeps) {
  const { db, clock } = ctx;

  async function run(inputs: readonly unknown[]): Promise<RecordedToolCalls> {
    const parsed = inputs.map((input, i) => parseToolCallInput(input, inputs.length > 1 ? i : undefined));
    const batch = newBatchState(deps);
    const loadContext = async (sessionId: SessionId): Promise<ToolContext> => {
      let context = batch.contexts.get(sessionId);
      if (!context) {
        context = toolContextFromJson(await deps.contexts.get(sessionId));
        batch.contexts.set(sessionId, context);
      }
      return context;
    };
    const calls = await db.transaction(async () => {
      const out: RecordedToolCall[] = [];
      for (const [i, p] of parsed.entries()) {
        try {
          out.push(await recordOne(ctx, deps, batch, p, loadContext));
        } catch (error) {
          if (parsed.length > 1 && error instanceof BrainError)
            throw new BrainError(error.code, `Tool call ${i}: ${error.message}`, error.details);
          throw error;
        }
      }
      if (batch.firstStepId !== null) await deps.pendingSteps.mark(batch.firstStepId);
      await deps.log.flushDeferred(batch.deferred);
      for (const [sessionId, context] of batch.contexts)
        await deps.contexts.save(sessionId, toolContextToJson(context), clock.now());
      return out;
    });
    // The steps' search documents, when no call waits (every search catches up first in any case).
    if (batch.firstStepId !== null) deps.indexWhenIdle(calls.length);
    for (const [key, eventId, body] of batch.remember) deps.bodyMemory.set(key, eventId, body);
    for (const taskId of batch.touched.steps) ctx.emit({ topic: 'steps', taskId });
    for (const taskId of batch.touched.checkpoints) ctx.emit({ topic: 'checkpoints', taskId });
    const published = await deps.log.publishMany(batch.events);
    return { calls, ...(published.autoCompressed ? { autoCompressed: true as const } : {}) };
  }

  return {
    async recordToolCall(input) {
      return (await run([input])).calls[0] as RecordedToolCall;
    },
    async recordToolCalls(inputs) {
      if (!Array.isArray(inputs))
        throw new BrainError('InvalidArgument', 'recordToolCalls takes an array of tool calls.');
      if (inputs.length > MAX_TOOL_CALLS)
        throw new BrainError(
          'TooLarge',
          `recordToolCalls takes at most ${MAX_TOOL_CALLS} calls a batch; got ${inputs.length}.`,
        );
      return run(inputs);
    },
  } satisfies ToolCallsApi;
}
