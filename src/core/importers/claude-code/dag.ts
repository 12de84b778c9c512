/**
 * The conversation graph: records deduplicated by `uuid`, placed in a thread (main, a sidechain, a subagent), and
 * rewinds found where a person's message has as `parentUuid` an earlier record of its thread that is not the
 * thread's tip (`/rewind`, edit-and-resend: the earlier branch stays in the file, abandoned). A parent never seen — a skipped
 * `progress` record, a compaction boundary's null parent — is not a rewind.
 */
import { asFields, contentText, str, type Fields } from './json';
import type { ParserState } from './state';

const titleChars = 120;

/**
 * Places a record with a `uuid`. Returns its thread (null = main), or `undefined` when it is a duplicate of a
 * record already read (then nothing else is done with it).
 */
export function placeRecord(
  s: ParserState,
  record: Fields,
  line: number,
  at: number | null,
): string | null | undefined {
  const uuid = str(record, 'uuid');
  if (uuid !== null && s.seen.has(uuid)) {
    s.duplicates++;
    return undefined;
  }
  const parent = str(record, 'parentUuid');
  const key = threadOf(s, record, uuid, parent, line, at);
  const thread = key === '' ? null : key;
  if (uuid === null) return thread;
  if (parent !== null && isPrompt(record) && s.seen.get(parent) === key && s.tips.get(key) !== parent) {
    s.out.push({
      kind: 'rewind',
      at,
      line,
      thread,
      sourceId: `rewind:${uuid}`,
      toSourceId: parent,
      inclusive: false,
    });
  }
  s.seen.set(uuid, key);
  s.tips.set(key, uuid);
  return thread;
}

/** The record's thread key ('' = main), announcing a new thread with a `thread` item. */
function threadOf(
  s: ParserState,
  record: Fields,
  uuid: string | null,
  parent: string | null,
  line: number,
  at: number | null,
): string {
  const option = s.options.thread;
  if (option !== undefined) {
    announce(s, option.id, option.title ?? firstPrompt(record), option.parentCallId ?? null, line, at);
    return option.id;
  }
  if (record['isSidechain'] !== true) return '';
  const agentId = str(record, 'agentId');
  const known = parent !== null ? s.seen.get(parent) : undefined;
  const key =
    agentId !== null
      ? `agent-${agentId}`
      : known !== undefined && known !== ''
        ? known
        : `sidechain-${uuid ?? line}`;
  if (!s.threads.has(key)) {
    const prompt = firstPrompt(record);
    const callId = s.taskPrompts.get(prompt.trim()) ?? null;
    announce(s, key, prompt, callId, line, at);
  }
  return key;
}

function announce(
  s: ParserState,
  id: string,
  title: string,
  parentCallId: string | null,
  line: number,
  at: number | null,
) {
  if (s.threads.has(id)) return;
  s.threads.add(id);
  const short = title.trim().split('\n')[0] ?? '';
  s.out.push({
    kind: 'thread',
    at,
    line,
    thread: null,
    sourceId: `thread:${id}`,
    id,
    title: short.length > titleChars ? `${short.slice(0, titleChars - 1)}…` : short || id,
    parentCallId,
  });
}

/**
 * Only a person's message starts a new branch (a rewind or an edited prompt): a tool result, an attachment or a
 * system line whose parent is not the tip is taken as the CLI's own bookkeeping, never as a rewind.
 */
function isPrompt(record: Fields): boolean {
  if (record['type'] !== 'user' || record['isMeta'] === true || record['isCompactSummary'] === true)
    return false;
  const content = asFields(record['message'])?.['content'];
  return !Array.isArray(content) || !content.some((b) => asFields(b)?.['type'] === 'tool_result');
}

function firstPrompt(record: Fields): string {
  if (record['type'] !== 'user') return '';
  return contentText(asFields(record['message'])?.['content']);
}
