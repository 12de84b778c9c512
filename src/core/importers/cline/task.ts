/**
 * A Cline or Roo task folder (`tasks/<taskId>/`, cline/cline: src/core/storage/disk.ts) → one transcript:
 * `api_conversation_history.json` is the backbone (prompts, text, tool calls and results, in its order),
 * `ui_messages.json` adds times, truncations and unknown kinds, `task_metadata.json` the files in context
 * (`files_in_context`, context-tracking/ContextTrackerTypes.ts), the model and the version. The folder name
 * is the task id (a ms epoch); `line` is the 1-based index of the message in its file.
 */
import type { ParsedTranscript, TranscriptFileInContext, TranscriptItem, TranscriptMeta } from '../types';
import { walkApiHistory } from './api-history';
import { createTally, isRecord, jsonError, strField, withSourceIds, type Tally } from '../tally';
import { readUiMessages, type UiReading } from './ui-messages';

export interface ClineTaskFiles {
  readonly apiConversationHistory?: string | undefined;
  readonly uiMessages?: string | undefined;
  readonly taskMetadata?: string | undefined;
  readonly [name: string]: string | undefined;
}

export interface ClineTaskOptions {
  /** The folder's name (`1732000000000`): the session id, and the start when no message has a time. */
  readonly taskId?: string;
  /** Which extension wrote it, when the caller knows; else Roo when its marks are seen, else Cline. */
  readonly agent?: 'cline' | 'roo';
}

export function parseClineTask(files: ClineTaskFiles, options: ClineTaskOptions = {}): ParsedTranscript {
  const tally = createTally();
  let roo = options.agent === 'roo';
  const api = readJson(files.apiConversationHistory, 'api_conversation_history.json', tally);
  let messages: unknown[] = [];
  if (Array.isArray(api)) messages = api;
  else if (isRecord(api) && api['version'] === 2 && Array.isArray(api['messages'])) {
    messages = api['messages'];
    roo = true;
  } else if (api !== undefined) {
    tally.malformed++;
    tally.problem(
      1,
      'neither a message array nor a {version: 2, messages} history',
      'api_conversation_history.json',
    );
  }
  const uiDoc = readJson(files.uiMessages, 'ui_messages.json', tally);
  const ui: UiReading = readUiMessages(Array.isArray(uiDoc) ? uiDoc : [], tally);
  const taskStart =
    options.taskId !== undefined && /^\d{10,}$/.test(options.taskId) ? Number(options.taskId) : null;
  const walk = walkApiHistory(messages, {
    tally,
    atOf(index, own, role) {
      if (typeof own === 'number') return own;
      if (index === 0) return ui.firstTs ?? taskStart;
      // A ui message records the last api message of its moment: Cline says `api_req_started` and then appends
      // the request's user message, and streams the reply's says before it appends the assistant message. So
      // message i's time is among the says of i-1: a request's user message is sent at the last of them (its
      // `api_req_started`), a reply starts at the first. The says of i itself come after it, with the next one.
      const said = role === 'user' ? ui.lastTsByHistoryIndex : ui.tsByHistoryIndex;
      return said.get(index - 1) ?? ui.tsByHistoryIndex.get(index) ?? null;
    },
  });
  if (!roo)
    roo = messages.some(
      (m) =>
        isRecord(m) &&
        ('condenseId' in m || 'condenseParent' in m || 'isSummary' in m || 'isTruncationMarker' in m),
    );
  const items = withSourceIds(merge(walk.byIndex, ui.placed));
  const metadata = readJson(files.taskMetadata, 'task_metadata.json', tally);
  const meta: TranscriptMeta = {
    agent: options.agent ?? (roo ? 'roo' : 'cline'),
    sessionId: options.taskId ?? null,
    title: ui.title ?? firstPrompt(items),
    cwd: walk.cwd,
    startedAt: ui.firstTs ?? taskStart,
    model: isRecord(metadata) ? lastOf(metadata['model_usage'], 'model_id') : null,
    version: isRecord(metadata) ? lastOf(metadata['environment_history'], 'cline_version') : null,
    parentSessionId: null,
    ...(isRecord(metadata) && Array.isArray(metadata['files_in_context'])
      ? { filesInContext: filesInContext(metadata['files_in_context']) }
      : {}),
  };
  return { meta, items, stats: tally.stats(), problems: tally.problems };
}

function readJson(text: string | undefined, file: string, tally: Tally): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    tally.malformed++;
    tally.problem(1, `not valid JSON: ${jsonError(error)}`, file);
    return undefined;
  }
}

function merge(byIndex: TranscriptItem[][], placed: UiReading['placed']): TranscriptItem[] {
  const before = new Map<number, TranscriptItem[]>();
  for (const { pos, item } of placed) {
    const at = Math.min(Math.max(pos, 0), byIndex.length);
    before.set(at, [...(before.get(at) ?? []), item]);
  }
  const items: TranscriptItem[] = [];
  for (let k = 0; k <= byIndex.length; k++) {
    items.push(...(before.get(k) ?? []));
    items.push(...(byIndex[k] ?? []));
  }
  return items;
}

function firstPrompt(items: readonly TranscriptItem[]): string | null {
  const first = items.find((i) => i.kind === 'instruction');
  return first?.kind === 'instruction' ? (first.text.split('\n')[0]?.slice(0, 200) ?? null) : null;
}

function lastOf(list: unknown, key: string): string | null {
  if (!Array.isArray(list)) return null;
  const last: unknown = list.at(-1);
  return isRecord(last) ? strField(last, key) : null;
}

function filesInContext(list: unknown[]): TranscriptFileInContext[] {
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return list.flatMap((entry) =>
    isRecord(entry) && typeof entry['path'] === 'string'
      ? [
          {
            path: entry['path'],
            state: strField(entry, 'record_state'),
            source: strField(entry, 'record_source'),
            readAt: num(entry['cline_read_date']),
            editedAt: num(entry['cline_edit_date']),
            userEditedAt: num(entry['user_edit_date']),
          },
        ]
      : [],
  );
}
