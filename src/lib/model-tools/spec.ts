/** What one tool is made of: its name, the description the model reads, its input schema, and what it runs. */
import type { BrainApi } from '../../worker/protocol';
import type { ObjectSchema } from './schema';

/** The engine calls the tools use: a `Brain` from `openBrain()` has them all (so does the engine in Node). */
export type BrainToolHost = Pick<
  BrainApi,
  | 'recordDecision'
  | 'raiseBlocker'
  | 'resolveBlocker'
  | 'askQuestion'
  | 'answerQuestion'
  | 'createPlan'
  | 'getPlan'
  | 'startPlanStep'
  | 'completePlanStep'
  | 'skipPlanStep'
  | 'appendProgress'
  | 'searchHistory'
  | 'resumePoint'
  | 'readAgentFile'
  | 'writeAgentFile'
  | 'draftSkillFromTask'
>;

/** Ids the host may fix for every call (`brainTools(brain, { sessionId })`): left out of the schemas, filled in. */
export interface BoundIds {
  readonly sessionId?: number;
  readonly taskId?: number;
}

export type ToolInput = Readonly<Record<string, unknown>>;

export interface ToolSpec<Name extends string = string> {
  readonly name: Name;
  readonly description: string;
  /** The input schema with the bound ids left out. */
  readonly schema: (bound: ReadonlySet<string>) => ObjectSchema;
  /** Runs a validated input; resolves to the compact text the model reads. */
  readonly run: (brain: BrainToolHost, input: ToolInput) => Promise<string>;
  /** What to tell the model when the engine refuses with this code (besides the engine's own message). */
  readonly hints?: Readonly<Record<string, string>>;
}
