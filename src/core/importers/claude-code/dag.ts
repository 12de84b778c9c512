/**
 * The conversation graph: records deduplicated by `uuid`, placed in a thread (main, a sidechain, a subagent), and
 * rewinds found where a person's message has as `parentUuid` an earlier record of its thread that is not the
 * thread's tip (`/rewind`, edit-and-resend: the earlier branch stays in the file, abandoned). A parent never seen — a skipped
 * `progress` record, a compaction boundary's null parent — is not a rewind.
 *
 * Of records with the same uuid the first valid one is read (forks and resumes repeat a prefix: a repeat is only
 * counted); a malformed one (a `user` or `assistant` record with no message object, or content neither text nor
 * blocks) is placed in the graph but not read, and reported as a problem: once a valid one with its uuid is read
 * in its place, when it repeats a valid one, or at the end.
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
  const flaw = uuid === null ? null : flawOf(record);
  if (uuid !== null && s.seen.has(uuid)) {
    const earlier = s.broken.get(uuid);
    if (earlier !== undefined && flaw === null) {
      // The record placed under this uuid was malformed: this valid one is read in its place.
      s.broken.delete(uuid);
      s.problems.push({
        line: earlier.line,
        message: `Line ${earlier.line}: a record ${earlier.flaw} (uuid ${uuid}); line ${line} has a valid one with that uuid, read instead.`,
      });
      const key = s.seen.get(uuid) as string;
      return key === '' ? null : key;
    }
    s.duplicates++;
    if (flaw !== null && earlier === undefined)
      s.problems.push({
        line,
        message: `Line ${line}: a record ${flaw} repeats uuid ${uuid}, whose valid record was read: skipped.`,
      });
    return undefined;
  }
  const parent = str(record, 'parentUuid');
  const key = threadOf(s, record, uuid, parent, line, at);
  const thread = key === '' ? null : key;
  if (uuid === null) return thread;
  if (flaw !== null) {
    // Placed (its children follow it), not read: a valid record with its uuid may come later.
    s.broken.set(uuid, { line, flaw });
    s.seen.set(uuid, key);
    s.tips.set(key, uuid);
    return undefined;
  }
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

/** At the end: the malformed records no valid one replaced, each a problem (they were not read). */
export function reportBroken(s: ParserState): void {
  for (const [uuid, { line, flaw }] of s.broken)
    s.problems.push({ line, message: `Line ${line}: a record ${flaw} (uuid ${uuid}): not read.` });
  s.broken.clear();
}

/** What is wrong with a `user` or `assistant` record that cannot be read, or null. */
function flawOf(record: Fields): string | null {
  const type = record['type'];
  if (type !== 'user' && type !== 'assistant') return null;
  const message = asFields(record['message']);
  if (message === null) return `of type ${type} with no message object`;
  const content = message['content'];
  if (typeof content !== 'string' && !Array.isArray(content))
    return `of type ${type} whose content is neither text nor blocks`;
  return null;
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
