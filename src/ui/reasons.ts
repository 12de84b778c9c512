import type { RetentionReason } from '../lib/index';
import { formatTime } from './format';

/**
 * A cleanup reason in words, naming tasks by title (the engine's own `reasonText` names them by id). Exhaustive:
 * a reason added to the engine fails to compile here until it has words.
 */
export function describeReason(reason: RetentionReason, titleOf: (id: number) => string): string {
  switch (reason.kind) {
    case 'current':
      return 'the current task of its session';
    case 'running':
      return 'running';
    case 'waiting_user':
      return 'waiting for you';
    case 'pinned':
      return 'pinned';
    case 'latest':
      return 'the latest task of its session: its rollback is offered until a newer task starts there';
    case 'referenced': {
      const via =
        reason.path.length > 2 ? ` (via ${reason.path.map((id) => `“${titleOf(id)}”`).join(' → ')})` : '';
      return `${reason.refKind === 'child' ? 'a child task of' : 'needed by'} “${titleOf(reason.by)}”${via}`;
    }
    case 'superseded':
      return reason.by === undefined
        ? 'marked superseded'
        : `superseded: a newer task of its session, “${titleOf(reason.by)}”, has started`;
    case 'done':
      return 'finished';
    case 'failed':
      return 'failed';
    case 'orphan':
      return 'its session is gone';
    case 'task-gone':
      return 'the task itself is gone; its checkpoints were left behind';
    case 'already-cleaned':
      return `already cleaned on ${formatTime(reason.at)}`;
    case 'orphan-deferred':
      return `an orphan past this pass's limit of ${reason.limit}; a later pass takes it`;
    default: {
      const never: never = reason;
      return String(never);
    }
  }
}
