/**
 * The recorder's internals for a caller that records tool calls inside its own transaction (an import that
 * writes a whole session at once): a batch is opened, calls are recorded one by one (`record`), and `flush`
 * writes what the batch put off (the steps' and events' search documents, session times, the classifier's context)
 * — each inside the caller's transaction. The steps are indexed with their batch, not behind it as
 * recordToolCalls does (history/pending-steps.ts): an import has every step's text in hand, and indexing behind
 * would read all its steps back (the 500 MB import bench: 0.35× the native anchor instead of ≥ 0.5×, both timed
 * until the session is searchable). The caller publishes (emits) after its commit; the events are not kept in
 * memory.
 */
import type { RecordToolCallInput, RecordedToolCall } from '../../core/api/tool-calls';
import type { SessionId, TaskId } from '../../core/ids';
import { toolContextFromJson, toolContextToJson, type ToolContext } from '../../core/tool-calls/context';
import type { EngineContext } from '../context';
import type { ToolCallsDeps } from './feature';
import { parseToolCallInput } from './input';
import { newBatchState, recordOne } from './record';
import type { PackedStep } from './step-texts';

export function createToolCallReplay(ctx: EngineContext, deps: ToolCallsDeps) {
  const contexts = new Map<SessionId, ToolContext>();
  const newBatch = () => newBatchState(deps, contexts, true);
  let batch = newBatch();
  const touched = { steps: new Set<TaskId>(), checkpoints: new Set<TaskId>() };
  const loadContext = async (sessionId: SessionId): Promise<ToolContext> => {
    let context = contexts.get(sessionId);
    if (!context) {
      context = toolContextFromJson(await deps.contexts.get(sessionId));
      contexts.set(sessionId, context);
    }
    return context;
  };

  return {
    /**
     * Records one call (validated as recordToolCall would) inside the caller's transaction; `ahead`: its step
     * packed on the import's reader thread (step-texts.ts).
     */
    record(input: RecordToolCallInput, ahead: PackedStep | null = null): Promise<RecordedToolCall> {
      return recordOne(ctx, deps, batch, parseToolCallInput(input), loadContext, ahead);
    },
    /** Writes the batch's deferred rows and starts a new one (bounded memory over a long import). */
    async flush(): Promise<void> {
      if (batch.stepDocs !== null && batch.stepDocs.length > 0) await deps.history.indexSteps(batch.stepDocs);
      await deps.log.flushDeferred(batch.deferred);
      for (const taskId of batch.touched.steps) touched.steps.add(taskId);
      for (const taskId of batch.touched.checkpoints) touched.checkpoints.add(taskId);
      batch = newBatch();
    },
    /** At the end, still inside the transaction: the classifier's context of every session touched. */
    async finish(): Promise<void> {
      await this.flush();
      for (const [sessionId, context] of contexts) {
        await deps.contexts.save(sessionId, toolContextToJson(context), ctx.clock.now());
      }
    },
    /** After the commit: who to tell. */
    touched,
  };
}

export type ToolCallReplay = ReturnType<typeof createToolCallReplay>;
