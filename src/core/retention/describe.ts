import { unreachable } from '../errors';
import type { RetentionReason } from './types';

/** A reason as a sentence a person reads (log records, CheckpointRemoved messages, the UI). */
export function describeReason(reason: RetentionReason): string {
  switch (reason.kind) {
    case 'current':
      return `current task of session ${reason.sessionId}`;
    case 'running':
      return 'running';
    case 'waiting_user':
      return 'waiting for the user';
    case 'pinned':
      return 'pinned';
    case 'referenced':
      return `${reason.refKind === 'child' ? 'child task' : 'referenced'} of task ${reason.by} (kept via ${reason.path.join(' → ')})`;
    case 'superseded':
      return 'superseded and not needed by any kept task';
    case 'done':
      return 'done and not needed by any kept task';
    case 'failed':
      return 'failed and not needed by any kept task';
    case 'orphan':
      return `its session was deleted (task was ${reason.state})`;
    case 'task-gone':
      return 'its task was deleted; only checkpoint entries were left';
    case 'already-cleaned':
      return `heavy data already removed at ${new Date(reason.at).toISOString()}`;
    case 'orphan-deferred':
      return `orphan left for a later pass (at most ${reason.limit} orphans a pass)`;
    default:
      return unreachable(reason);
  }
}
