/**
 * The memory methods of the client (events, plans, compression, resume, history, skills), listed explicitly so a
 * method added to MemoryApi but not here fails to compile.
 */
import type { BrainApi, MemoryApi } from '../worker/protocol';

export type Caller = <K extends keyof BrainApi>(
  name: K,
) => (...args: Parameters<BrainApi[K]>) => ReturnType<BrainApi[K]>;

export function memoryClient(call: Caller): MemoryApi {
  return {
    recordEvent: call('recordEvent'),
    recordEvents: call('recordEvents'),
    recordInstruction: call('recordInstruction'),
    recordDecision: call('recordDecision'),
    recordFileChange: call('recordFileChange'),
    recordValidation: call('recordValidation'),
    raiseBlocker: call('raiseBlocker'),
    resolveBlocker: call('resolveBlocker'),
    askQuestion: call('askQuestion'),
    answerQuestion: call('answerQuestion'),
    recordNote: call('recordNote'),
    listEvents: call('listEvents'),
    getEvent: call('getEvent'),
    createPlan: call('createPlan'),
    getPlan: call('getPlan'),
    addPlanSteps: call('addPlanSteps'),
    startPlanStep: call('startPlanStep'),
    completePlanStep: call('completePlanStep'),
    skipPlanStep: call('skipPlanStep'),
    appendProgress: call('appendProgress'),
    activeCheckpoint: call('activeCheckpoint'),
    compressContext: call('compressContext'),
    resumePoint: call('resumePoint'),
    searchHistory: call('searchHistory'),
    draftSkillFromTask: call('draftSkillFromTask'),
  };
}

/** Writes prose (e.g. with a model) from the active checkpoint. */
export type ProseWriter = (
  preview: Awaited<ReturnType<MemoryApi['activeCheckpoint']>>,
) => Promise<string> | string;

/**
 * The prose hook: previews the active checkpoint, lets `writer` (a playground's model) write prose on top of it,
 * then compresses with that prose. The structured part never depends on it: if events arrive in between, the
 * prose is kept but marked as written before them.
 */
export async function compressWithProse(
  brain: Pick<MemoryApi, 'activeCheckpoint' | 'compressContext'>,
  sessionId: Parameters<MemoryApi['compressContext']>[0],
  writer: ProseWriter,
  options: { readonly keepTail?: number } = {},
): ReturnType<MemoryApi['compressContext']> {
  const preview = await brain.activeCheckpoint(sessionId);
  const prose = await writer(preview);
  return brain.compressContext(sessionId, { ...options, prose, proseFor: preview.checkpoint.lastEventId });
}
