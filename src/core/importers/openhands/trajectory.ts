/**
 * An OpenHands trajectory file: the run's V0 events as one JSON array — what the web app's "Download trajectory"
 * saves (`trajectory-<conversation id>.json`, the `trajectory` of GET /api/conversations/<id>/trajectory:
 * openhands/server/routes/trajectory.py, frontend/src/utils/download-trajectory.ts) and what the headless run writes
 * with `save_trajectory_path` (`<sid>.json`, `controller.get_trajectory()`: openhands/core/main.py), pinned
 * All-Hands-AI/OpenHands 156d0686 (2025-11). Each element is an event as `event_to_dict` writes it (v0.ts);
 * `line` is its 1-based index. The object the API returns, `{trajectory: […]}`, is read the same way.
 */
import type { ParsedTranscript, Sniff, TranscriptItem, TranscriptMeta } from '../types';
import { createTally, emptyMeta, isRecord, parseJsonCounted, timeOf, withSourceIds } from '../tally';
import { createV0Walk, openV0Actions, runRoot, v0EventItems } from './v0';

export function parseOpenHandsTrajectory(text: string, name = ''): ParsedTranscript {
  const tally = createTally();
  const items: TranscriptItem[] = [];
  const file = name.slice(name.lastIndexOf('/') + 1);
  let meta: TranscriptMeta = emptyMeta(
    'openhands',
    file.replace(/\.json$/i, '').replace(/^trajectory-/, '') || null,
  );
  const parsed = parseJsonCounted(text, tally);
  if (!parsed.ok) return { meta, items, stats: tally.stats(), problems: tally.problems };
  const doc = parsed.value;
  const events = Array.isArray(doc) ? doc : isRecord(doc) ? doc['trajectory'] : null;
  if (!Array.isArray(events)) {
    tally.malformed++;
    tally.problem(1, 'not an OpenHands trajectory: no array of events');
    return { meta, items, stats: tally.stats(), problems: tally.problems };
  }
  const walk = createV0Walk();
  let firstAt: number | null = null;
  events.forEach((event: unknown, index: number) => {
    tally.records++;
    const line = index + 1;
    if (!isRecord(event)) {
      tally.malformed++;
      tally.problem(line, 'event is not an object');
      return;
    }
    firstAt ??= timeOf(event['timestamp']);
    items.push(...v0EventItems(event, line, walk, tally));
  });
  items.push(...openV0Actions(walk));
  const first = items.find((i) => i.kind === 'instruction');
  meta = {
    ...meta,
    title: first?.kind === 'instruction' ? (first.text.split('\n')[0]?.slice(0, 200) ?? null) : null,
    cwd: runRoot(walk.cwd, items),
    startedAt: firstAt,
    model: modelOf(events),
  };
  return { meta, items: withSourceIds(items), stats: tally.stats(), problems: tally.problems };
}

/** The model a tool call's `tool_call_metadata.model_response` names, from the first that has one. */
function modelOf(events: readonly unknown[]): string | null {
  for (const e of events.slice(0, 200)) {
    const meta = isRecord(e) && isRecord(e['tool_call_metadata']) ? e['tool_call_metadata'] : null;
    const response = meta && isRecord(meta['model_response']) ? meta['model_response'] : null;
    if (response && typeof response['model'] === 'string') return response['model'];
  }
  return null;
}

/**
 * A JSON array (or `{"trajectory": [`) whose first event is a V0 event: `{"id": 0, "timestamp": …, "source":
 * "user" | "agent" | "environment", … "action" | "observation"}`.
 */
export const sniffOpenHandsTrajectory: Sniff = (_name, head) => {
  const flat = head.slice(0, 8192).replace(/\s+/g, '');
  const start =
    /^(?:\[|\{"trajectory":\[)\{"id":\d+,"timestamp":"[^"]*","source":"(?:agent|user|environment)"/;
  if (!start.test(flat)) return 0;
  return /"(?:action|observation)":"[a-z_]+"/.test(flat) ? 2 : 1;
};
