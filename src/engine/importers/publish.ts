/** After an import's (or a followed file's) commit: the change notices, and the compression a session's size calls for. */
import type { SessionId, TaskId } from '../../core/ids';
import type { EngineContext } from '../context';
import type { EventLog } from '../events/log';

export interface Touched {
  readonly steps: ReadonlySet<TaskId>;
  readonly checkpoints: ReadonlySet<TaskId>;
}

export async function publishImported(
  ctx: EngineContext,
  log: EventLog,
  sessions: readonly SessionId[],
  touched: Touched,
): Promise<void> {
  for (const sessionId of sessions) {
    ctx.emit({ topic: 'sessions', sessionId });
    ctx.emit({ topic: 'tasks', sessionId });
    ctx.emit({ topic: 'events', sessionId });
    ctx.emit({ topic: 'summaries', sessionId });
    ctx.emit({ topic: 'messages', sessionId });
  }
  for (const taskId of touched.steps) ctx.emit({ topic: 'steps', taskId });
  for (const taskId of touched.checkpoints) ctx.emit({ topic: 'checkpoints', taskId });
  for (const sessionId of sessions) await log.hooks.afterPublish?.(sessionId).catch(() => false);
}
