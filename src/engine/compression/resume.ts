/**
 * What a resume point adds to the active checkpoint: checks that need not run again, and the `.agent` folder's
 * state.
 */
import type { ResumeValidation } from '../../core/api/memory';
import type { CompressionFold } from '../../core/compression/fold';
import { changedSince } from '../../core/compression/fold-finish';
import { readSessionLog } from '../../core/compression/session-file';
import type { SessionEvent } from '../../core/events/model';
import type { SessionId } from '../../core/ids';
import { memoryPaths, type MemoryFiles } from '../memory-files';

/**
 * Every check (per name and plan step) whose latest run passed, with the files changed since that may affect it
 * (`changedSince`, fold-finish.ts): an empty list need not run again; otherwise the agent decides.
 */
export function validationsDone(fold: CompressionFold): ResumeValidation[] {
  return [...fold.checks.values()]
    .sort((a, b) => a.firstEventId - b.firstEventId)
    .map(({ latest }) => latest)
    .filter((run) => run.result === 'passed')
    .map(({ eventId, name, command, result, planStepId, at }) => ({
      eventId,
      name,
      command,
      result,
      planStepId,
      at,
      changedSince: changedSince(fold, eventId),
    }));
}

export async function readFolder(folder: MemoryFiles, sessionId: SessionId, active: readonly SessionEvent[]) {
  const candidates = [
    memoryPaths.summary,
    memoryPaths.plan,
    memoryPaths.progress,
    '.agent/MEMORY.md',
    '.agent/PROJECT_MEMORY.md',
  ];
  const present: string[] = [];
  for (const path of candidates) if ((await folder.read(path)) !== null) present.push(path);
  const log = readSessionLog((await folder.read(memoryPaths.session))?.text ?? null, sessionId);
  const inFile = new Set(log.events.map((e) => e.id));
  return {
    present,
    view: {
      sessionLines: log.events.length,
      tornLine: log.torn,
      malformedLines: log.malformedLines,
      missingFromFile: active.filter((e) => !inFile.has(e.id)).length,
    },
  };
}
