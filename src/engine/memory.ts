/**
 * The memory features (issue 6) assembled: events, plans, compression and resume, history search, skills. They
 * share one event log; `files` gives them the project's `.agent` folder when one is open.
 */
import type { EngineContext } from './context';
import { createEventLog, createEventsFeature } from './events/feature';
import { createCompressionFeature } from './compression/feature';
import { createHistoryFeature } from './history/feature';
import { createPlanFeature } from './plan/feature';
import { createSkillsFeature } from './skills/feature';
import { noMemoryFiles, type MemoryFilesProvider } from './memory-files';

export function createMemoryFeatures(
  ctx: EngineContext,
  files: MemoryFilesProvider = noMemoryFiles,
): object[] {
  const log = createEventLog(ctx, files);
  const compression = createCompressionFeature(log, files);
  log.hooks.afterPublish = (event) => compression.maybeCompress(event.sessionId);
  return [
    createEventsFeature(log),
    createPlanFeature(log, files),
    compression.feature,
    createHistoryFeature(log),
    createSkillsFeature(log, files),
  ];
}
