/** What a resume point adds to the checkpoint: checks that need not run again, and the `.agent` folder's state. */
import type { ResumeValidation } from '../../core/api/memory';
import { readSessionLog } from '../../core/compression/session-file';
import type { SessionEvent } from '../../core/events/model';
import type { SessionId } from '../../core/ids';
import { memoryPaths, type MemoryFiles } from '../memory-files';

/** Passed runs (latest per check and plan step) with no file change after them: they need not run again. */
export function validationsDone(all: readonly SessionEvent[]): ResumeValidation[] {
  const lastChange = all.reduce((max, e) => (e.kind === 'file_change' && e.id > max ? e.id : max), 0);
  const latest = new Map<string, ResumeValidation>();
  for (const e of [...all].sort((a, b) => a.id - b.id)) {
    if (e.kind !== 'validation') continue;
    latest.set(`${e.planStepId ?? ''}\u0000${e.name}`, {
      eventId: e.id,
      name: e.name,
      result: e.result,
      planStepId: e.planStepId,
      at: e.createdAt,
    });
  }
  return [...latest.values()].filter((v) => v.result === 'passed' && v.eventId > lastChange);
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
