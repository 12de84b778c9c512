/**
 * The records that are not messages: `system` (compaction boundaries, command output, API errors),
 * `file-history-snapshot` (checkpoint backups), `attachment`, the session's titles and settings, and record types
 * this parser does not know (counted, kept as searchable `other` items).
 */
import { asFields, leafText, num, str, timeOf, type Fields } from './json';
import { count, type ParserState } from './state';

interface Place {
  readonly line: number;
  readonly at: number | null;
  readonly thread: string | null;
  readonly uuid: string | null;
}

/** Known record types that carry nothing to import (titles are read into the meta first). */
export const metaTypes: ReadonlySet<string> = new Set([
  'summary',
  'custom-title',
  'ai-title',
  'agent-name',
  'last-prompt',
  'permission-mode',
  'queue-operation',
  'pr-link',
  'agent-setting',
  'bridge-session',
  'worktree-state',
]);

export function readMetaRecord(s: ParserState, type: string, record: Fields): void {
  if (type === 'summary') {
    const text = str(record, 'summary');
    if (text !== null) {
      s.meta.summaries.push({ text, leaf: str(record, 'leafUuid') });
      if (s.meta.summaries.length > 64) s.meta.summaries.shift();
    }
  } else if (type === 'custom-title') s.meta.customTitle = str(record, 'customTitle') ?? s.meta.customTitle;
  else if (type === 'ai-title') s.meta.aiTitle = str(record, 'aiTitle') ?? s.meta.aiTitle;
  count(s.skipped, type);
}

export function readSystem(s: ParserState, record: Fields, p: Place): void {
  const subtype = str(record, 'subtype') ?? 'system';
  if (subtype === 'compact_boundary') {
    flushCompaction(s, null, null);
    const metadata = asFields(record['compactMetadata']);
    s.compaction = {
      line: p.line,
      at: p.at,
      sourceId: p.uuid ?? `L${p.line}`,
      thread: p.thread,
      trigger: str(metadata, 'trigger'),
      before: num(metadata, 'preTokens'),
    };
    return;
  }
  if (subtype === 'turn_duration') {
    count(s.skipped, 'system:turn_duration');
    return;
  }
  const text =
    str(record, 'content') ?? leafText(record['compactMetadata'] ?? record['microcompactMetadata'] ?? '');
  s.out.push({
    kind: 'other',
    at: p.at,
    line: p.line,
    thread: p.thread,
    sourceId: p.uuid ?? `L${p.line}`,
    recordType: `system:${subtype}`,
    text,
  });
}

/**
 * The compaction waiting for its summary comes out: with `summary` (the `isCompactSummary` message at `p`), or
 * without one when anything else arrives first (`p` null).
 */
export function flushCompaction(s: ParserState, summary: string | null, p: Place | null): void {
  const c = s.compaction;
  if (c === null) {
    if (summary === null || p === null) return;
    s.out.push({
      kind: 'compaction',
      at: p.at,
      line: p.line,
      thread: p.thread,
      sourceId: p.uuid ?? `L${p.line}`,
      summary,
      trigger: null,
      before: null,
    });
    return;
  }
  s.compaction = null;
  s.out.push({
    kind: 'compaction',
    at: c.at,
    line: c.line,
    thread: c.thread,
    sourceId: c.sourceId,
    summary: summary !== null && summary.trim() !== '' ? summary : null,
    trigger: c.trigger,
    before: c.before,
  });
}

export function readSnapshot(s: ParserState, record: Fields, line: number, thread: string | null): void {
  const snapshot = asFields(record['snapshot']);
  const backups = asFields(snapshot?.['trackedFileBackups']);
  const fallbackAt = timeOf(snapshot?.['timestamp']);
  if (backups === null) return;
  for (const [path, raw] of Object.entries(backups)) {
    const info = asFields(raw);
    const backupFileName = str(info, 'backupFileName');
    const version = num(info, 'version');
    const key = backupFileName ?? `${path}@v${version ?? '?'}`;
    if (s.backups.has(key)) continue;
    s.backups.add(key);
    s.out.push({
      kind: 'file_backup',
      at: timeOf(info?.['backupTime']) ?? fallbackAt,
      line,
      thread,
      sourceId: `backup:${key}`,
      path,
      backupFileName,
      version,
    });
  }
}

export function readAttachment(s: ParserState, record: Fields, p: Place): void {
  const attachment = asFields(record['attachment']);
  const type = str(attachment, 'type') ?? 'attachment';
  const sourceId = p.uuid ?? `L${p.line}`;
  const prompt = str(attachment, 'prompt');
  if (type === 'queued_command' && prompt !== null && prompt.trim() !== '') {
    s.out.push({ kind: 'instruction', at: p.at, line: p.line, thread: p.thread, sourceId, text: prompt });
    return;
  }
  const text = leafText(attachment, 2000);
  s.out.push({
    kind: 'other',
    at: p.at,
    line: p.line,
    thread: p.thread,
    sourceId,
    recordType: `attachment:${type}`,
    text,
  });
}

export function readUnknown(s: ParserState, type: string, record: Fields, p: Place): void {
  count(s.unknown, type);
  const text = leafText(record);
  s.out.push({
    kind: 'other',
    at: p.at,
    line: p.line,
    thread: p.thread,
    sourceId: p.uuid ?? `L${p.line}`,
    recordType: type,
    text,
  });
}
