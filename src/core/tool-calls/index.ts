/**
 * The tool-call classifier (see README.md): `classifyToolCall` and the pure helpers the engine builds on.
 */
export { classifyToolCall, stepOutcome } from './classify';
export { applyEdit, applyTextEdit, type ApplyResult } from './apply-edit';
export { bareToolName, handlerOf } from './tool-names';
export { exitCodeInOutput } from './output';
export { parseApplyPatch, type PatchOperation } from './effects/apply-patch';
export { parseSearchReplace, type SearchReplaceBlock } from './effects/search-replace';
export { splitUnifiedDiff, type FileDiff } from './effects/unified-diff';
export { maxFailures } from './types';
export type {
  CheckCertainty,
  CheckCounts,
  CheckKind,
  CheckResult,
  CheckRun,
  CheckStatus,
  ClassifyContext,
  ScriptRun,
  StepKind,
  ToolCall,
  ToolCallMeaning,
  ToolFamily,
} from './types';
export type {
  FileEffect,
  FileEffectKind,
  FileRead,
  PatchChunk,
  PlanItem,
  PlanItemState,
  PlanUpdate,
  SedSubstitution,
  TextEdit,
} from './effect-types';
