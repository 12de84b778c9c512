/**
 * OpenHands V1 files: an event file (`event-00012-<uuid>.json`, an object whose `kind` is one of the SDK's event
 * kinds and which has `source`) or the conversation's `base_state.json`.
 */
import type { Sniff } from '../types';

const kinds =
  /"kind":\s*"(?:MessageEvent|ActionEvent|ObservationEvent|SystemPromptEvent|Condensation|CondensationSummaryEvent|UserRejectObservation|AgentErrorEvent|PauseEvent|ConversationStateUpdateEvent)"/;

export const sniffOpenHandsFile: Sniff = (name, head) => {
  const text = head.slice(0, 16384);
  const eventFile = /(?:^|\/)event-\d{5,}-[0-9a-fA-F-]{8,}\.json$/.test(name);
  if (
    text.trimStart().startsWith('{') &&
    kinds.test(text) &&
    /"source":\s*"(?:agent|user|environment|hook)"/.test(text)
  )
    return 2;
  if (/(?:^|\/)base_state\.json$/.test(name) && text.includes('"agent"') && text.includes('"workspace"'))
    return 2;
  return eventFile ? 1 : 0;
};
