/**
 * An OpenHands conversation folder. V1 (`~/.openhands/conversations/<id>/`): `base_state.json` (the
 * `ConversationState`: `id`, `agent.llm.model`, `workspace.working_dir`) and `events/event-<idx>-<id>.json`, one
 * event per file (persistence_const.py: `event-{idx:05d}-{event_id}.json`). V0 (`sessions/<sid>/`):
 * `metadata.json` (`conversation_id`, `title`, `llm_model`) and `events/<id>.json` (v0.ts). Events are read in
 * index order; `line` is the index + 1. A file that is not a JSON object is a problem naming that file.
 */
import type { ParsedTranscript, TranscriptItem, TranscriptMeta } from '../types';
import { createEventWalk, eventItems, openActions } from './events';
import { createV0Walk, openV0Actions, runRoot, v0EventItems } from './v0';
import { createTally, isRecord, jsonError, strField, timeOf, withSourceIds } from '../tally';

export interface NamedText {
  readonly name: string;
  readonly text: string;
}

/** V1 `events/event-00012-<id>.json`; V0 `events/12.json`. */
const eventName = /(?:^|\/)(?:event-(\d{5,})-[0-9a-fA-F-]{8,}|events\/(\d+))\.json$/;

export function parseOpenHandsConversation(files: readonly NamedText[]): ParsedTranscript {
  const tally = createTally();
  const events = files
    .flatMap((f) => {
      const m = eventName.exec(f.name);
      return m ? [{ ...f, idx: Number(m[1] ?? m[2]) }] : [];
    })
    .sort((a, b) => a.idx - b.idx);
  const walk = createEventWalk();
  const v0 = createV0Walk();
  const items: TranscriptItem[] = [];
  let firstAt: number | null = null;
  for (const file of events) {
    tally.records++;
    const line = file.idx + 1;
    let event: unknown;
    try {
      event = JSON.parse(file.text);
    } catch (error) {
      tally.malformed++;
      tally.problem(line, `not valid JSON: ${jsonError(error)}`, file.name);
      continue;
    }
    if (!isRecord(event)) {
      tally.malformed++;
      tally.problem(line, 'not a JSON object', file.name);
      continue;
    }
    firstAt ??= timeOf(event['timestamp']);
    // V1 events name their `kind`; V0 ones are an `action` or an `observation`.
    const v0Event = !('kind' in event) && ('action' in event || 'observation' in event);
    items.push(...(v0Event ? v0EventItems(event, line, v0, tally) : eventItems(event, line, walk, tally)));
  }
  items.push(...openActions(walk), ...openV0Actions(v0));
  const baseFile = files.find((f) => /(?:^|\/)(?:base_state|metadata)\.json$/.test(f.name));
  let base: Record<string, unknown> = {};
  if (baseFile) {
    try {
      const parsed: unknown = JSON.parse(baseFile.text);
      if (isRecord(parsed)) base = parsed;
    } catch (error) {
      tally.problem(1, `not valid JSON: ${jsonError(error)}`, baseFile.name);
    }
  }
  const agent = isRecord(base['agent']) ? base['agent'] : {};
  const llm = isRecord(agent['llm']) ? agent['llm'] : {};
  const workspace = isRecord(base['workspace']) ? base['workspace'] : {};
  const tags = isRecord(base['tags']) ? base['tags'] : {};
  const meta: TranscriptMeta = {
    agent: 'openhands',
    sessionId: strField(base, 'id') ?? strField(base, 'conversation_id'),
    title: strField(base, 'title') ?? strField(tags, 'title') ?? firstInstruction(items),
    cwd: runRoot(strField(workspace, 'working_dir') ?? v0.cwd, items),
    startedAt: firstAt,
    model: strField(llm, 'model') ?? strField(base, 'llm_model'),
    version: null,
    parentSessionId: null,
  };
  return { meta, items: withSourceIds(items), stats: tally.stats(), problems: tally.problems };
}

function firstInstruction(items: readonly TranscriptItem[]): string | null {
  const first = items.find((i) => i.kind === 'instruction');
  return first?.kind === 'instruction' ? (first.text.split('\n')[0]?.slice(0, 200) ?? null) : null;
}
