/**
 * The memory methods of the client (events, plans, compression, resume, history, skills), listed explicitly so a
 * method added to MemoryApi but not here fails to compile.
 */
import type { BrainApi, MemoryApi } from '../worker/protocol';

export type Caller = <K extends keyof BrainApi>(name: K) => (...args: Parameters<BrainApi[K]>) => ReturnType<BrainApi[K]>;

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
