import { unreachable } from '../errors';
import type { CleanReason, RetentionReason } from './types';

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
    case 'latest':
      return `latest task of session ${reason.sessionId} (its rollback is offered until a newer task of that session starts)`;
    case 'referenced':
      return `${reason.refKind === 'child' ? 'child task' : 'referenced'} of task ${reason.by} (kept via ${reason.path.join(' → ')})`;
    case 'superseded':
      return reason.by === undefined
        ? 'marked superseded and not needed by any kept task'
        : `superseded: task ${reason.by}, a newer task of its session, has started; not needed by any kept task`;
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

/**
 * The short why stored on every checkpoint entry a cleanup removes (entries outlive cleanup as small tombstones, so
 * this is kept brief; the cleanup log holds the full reason). Read back in CheckpointRemoved messages.
 */
export function removalNote(reason: CleanReason): string {
  switch (reason.kind) {
    case 'superseded':
      return 'task superseded';
    case 'done':
      return 'task done';
    case 'failed':
      return 'task failed';
    case 'orphan':
      return 'session deleted';
    case 'task-gone':
      return 'task deleted';
    default:
      return unreachable(reason);
  }
}
