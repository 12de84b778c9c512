/**
 * OpenHands V1 files: an event file (`event-00012-<uuid>.json`, an object whose `kind` is one of the SDK's event
 * kinds and which has `source`) or the conversation's `base_state.json`; a V0 event (`events/12.json`: `{id,
 * timestamp, source, …, action | observation}`) or its `metadata.json`.
 */
import type { Sniff } from '../types';

const kinds =
  /"kind":\s*"(?:MessageEvent|ActionEvent|ObservationEvent|SystemPromptEvent|Condensation|CondensationSummaryEvent|UserRejectObservation|AgentErrorEvent|PauseEvent|ConversationStateUpdateEvent)"/;

export const sniffOpenHandsFile: Sniff = (name, head) => {
  const text = head.slice(0, 16384);
  const eventFile = /(?:^|\/)(?:event-\d{5,}-[0-9a-fA-F-]{8,}|events\/\d+)\.json$/.test(name);
  if (
    text.trimStart().startsWith('{') &&
    kinds.test(text) &&
    /"source":\s*"(?:agent|user|environment|hook)"/.test(text)
  )
    return 2;
  if (/(?:^|\/)base_state\.json$/.test(name) && text.includes('"agent"') && text.includes('"workspace"'))
    return 2;
  // V0: `{id, timestamp, source, message, action, args}` or `{…, cause, observation, content, extras}`.
  const flat = text.slice(0, 4096).replace(/\s+/g, '');
  const v0 = /^\{"id":\d+,"timestamp":"[^"]*","source":"(?:agent|user|environment)"/.test(flat);
  if (v0 && /"(?:action|observation)":"[a-z_]+"/.test(flat)) return 2;
  if (/(?:^|\/)metadata\.json$/.test(name) && flat.startsWith('{"conversation_id":')) return 2;
  return eventFile ? 1 : 0;
};
