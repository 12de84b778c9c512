/**
 * The memory features: events, plans, compression and resume, history search, skills, the tool-call recorder and
 * the importers (given the checkpoint store). They share one event log; `files` gives them the project's `.agent`
 * folder when one is open. A tuple, so that `assemble` keeps each feature's type.
 */
import type { EngineContext } from './context';
import { createEventLog, createEventsFeature } from './events/feature';
import { createCompressionFeature } from './compression/feature';
import { createHistoryFeature } from './history/feature';
import { createPlanFeature } from './plan/feature';
import { createSkillsFeature } from './skills/feature';
import type { MemoryFilesProvider } from './memory-files';
import type { CheckpointStore } from './checkpoints/feature';
import { createToolCallDeps, createToolCallsFeature } from './tool-calls/feature';
import { createImportersFeature } from './importers/feature';
import type { ReadAhead } from './importers/read-ahead';
import { createFollowFeature, type FollowOptions } from './follow/feature';

export function createMemoryFeatures(
  ctx: EngineContext,
  files: MemoryFilesProvider,
  checkpoints: CheckpointStore,
  follow: FollowOptions = {},
  readAhead?: ReadAhead,
) {
  const log = createEventLog(ctx, files);
  const compression = createCompressionFeature(log, files);
  log.hooks.afterPublish = (sessionId) => compression.maybeCompress(sessionId);
  return [
    createEventsFeature(log),
    createPlanFeature(log, files),
    compression.feature,
    createHistoryFeature(log),
    createSkillsFeature(log, files),
    // The tool-call recorder writes events through the same log and checkpoints through the shared store.
    createToolCallsFeature(ctx, createToolCallDeps(ctx, log, checkpoints)),
    createImportersFeature(ctx, log, checkpoints, readAhead ? { readAhead } : {}),
    createFollowFeature(ctx, log, checkpoints, follow),
  ] as const;
}
