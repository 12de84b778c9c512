/**
 * One followed file read on from where the brain stopped: the appended complete lines pushed into the file's live
 * parser (kept between looks), its items written into their session in one transaction, and how far it was read
 * saved with them — the offset after the last complete line, a hash of that line's end, and the last point where
 * nothing waited for a later line (a fresh parser resumes there after a reload; items it reads again are skipped as
 * already imported). A file that shrank, or whose kept last line changed, is read again from its start. A document
 * format (one JSON per file) is read whole each time it changes; dedupe keeps that exact.
 */
import type { FollowedFile } from '../../core/api/follow';
import { classifyToolCall } from '../../core/tool-calls';
import type { SessionId } from '../../core/ids';
import type { AgentKind, LineParser, TranscriptItem, TranscriptMeta } from '../../core/importers/types';
import { detectFormat, transcriptFormats, type LineFormat } from '../../core/importers/registry';
import { sha256, sameBytes } from '../../storage/blobs/sha256';
import type { FollowedFileInfo } from '../../storage/followed-folder/handle';
import type { FollowedFileRow } from '../../storage/sqlite/repos/follow-repo';
import { headText } from '../importers/bytes';
import { readLines } from '../importers/lines';
import type { WaitingThought } from '../importers/thoughts';
import {
  createSessionWriter,
  newThoughts,
  openTarget,
  type SessionWriter,
  type Thoughts,
  type WriterDeps,
} from '../importers/session-writer';
import { importUnit, MAX_DOCUMENT_BYTES, saveUnit } from '../importers/unit';

/** What the hash of a file's last read line covers: its last bytes (a 5 MB tool result is not hashed whole). */
const TAIL_BYTES = 4096;

/** A followed file's parser between looks: the offset it has read to, and where a fresh one could resume. */
export interface LiveFile {
  readonly parser: LineParser;
  offset: number;
  /** Lines read (the number of the last one). */
  line: number;
  /** Items the parser gave so far (item keys number them, as a whole import does). */
  index: number;
  resume: { offset: number; line: number; index: number; thoughts: readonly WaitingThought[] };
  /** The last turn stopped at its bound with complete lines left to read. */
  more: boolean;
  /** The agent's text waiting for its next call, carried to the next look (written as a note once the file rests). */
  readonly thoughts: Thoughts;
}

export interface FileTurn {
  readonly row: FollowedFileRow;
  readonly bytesRead: number;
  readonly reread: boolean;
  readonly session: { readonly sessionId: SessionId; readonly agent: AgentKind } | null;
  readonly compactions: number;
  /** Complete lines are left past what this turn read. */
  readonly more: boolean;
}

export interface ReadFileDeps {
  /** A new writer's dependencies (a recorder of its own for each transaction). */
  readonly writerDeps: () => WriterDeps & { readonly replay: { finish(): Promise<void> } };
  readonly transaction: <T>(fn: () => Promise<T>) => Promise<T>;
}

/** The waiting text kept with a resume point (written by this module; anything else reads as none). */
function waitingFrom(json: string | null): WaitingThought[] {
  if (json === null) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as WaitingThought[]) : [];
  } catch {
    return [];
  }
}

const formatById = (id: string) => transcriptFormats.find((f) => f.id === id) ?? null;

async function tailHash(blob: Blob, lastLineStart: number, offset: number): Promise<Uint8Array | null> {
  if (offset <= 0) return null;
  const from = Math.max(lastLineStart, offset - TAIL_BYTES, 0);
  return sha256(new Uint8Array(await blob.slice(from, offset).arrayBuffer()));
}

/** The row of a file seen for the first time, or of one read again from its start. */
function freshRow(
  folderId: number,
  info: FollowedFileInfo,
  format: string,
  problem: string | null,
): FollowedFileRow {
  return {
    folderId,
    path: info.path,
    format,
    size: info.size,
    modified: info.modified,
    readOffset: 0,
    linesRead: 0,
    lastLineStart: 0,
    lastLineHash: null,
    resumeOffset: 0,
    resumeLine: 1,
    resumeIndex: 0,
    resumeThoughts: null,
    sessionId: null,
    problem,
  };
}

/** Whether the file needs a look: new, grown, rewritten, or touched since its row was saved. */
export function changed(info: FollowedFileInfo, row: FollowedFileRow | undefined): boolean {
  return row === undefined || row.size !== info.size || row.modified !== info.modified;
}

/**
 * Reads what is new in one file: its lines up to `budget` bytes (the line crossing it read whole). Returns the
 * file's new row (already saved, in the same transaction as its items) and what the turn did.
 */
export async function readFollowedFile(
  deps: ReadFileDeps & { readonly saveRow: (row: FollowedFileRow) => Promise<void> },
  folderId: number,
  info: FollowedFileInfo,
  blob: Blob,
  row: FollowedFileRow | undefined,
  lives: Map<string, LiveFile>,
  budget: number,
): Promise<FileTurn> {
  const size = blob.size;
  const seen = { ...info, size };
  // Sniffed once it has a first line; a file no format claims is looked at again when it grows.
  let formatId = row?.format ?? '';
  if (formatId === '') {
    const head = await headText(blob);
    if (!head.includes('\n') && size < 64 * 1024) {
      const waiting = freshRow(folderId, seen, '', null);
      await deps.saveRow(waiting);
      return { row: waiting, bytesRead: 0, reread: false, session: null, compactions: 0, more: false };
    }
    const format = detectFormat(info.path, head);
    formatId = format?.id ?? '';
    if (format === null) {
      const unknown = freshRow(folderId, seen, '', 'not a transcript of a known format');
      await deps.saveRow(unknown);
      return { row: unknown, bytesRead: 0, reread: false, session: null, compactions: 0, more: false };
    }
  }
  const format = formatById(formatId);
  if (format === null || format.shape === 'folder') {
    const skipped = freshRow(
      folderId,
      seen,
      formatId,
      'a task folder is read whole: open it with "Open history files…" once the agent is done',
    );
    await deps.saveRow(skipped);
    return { row: skipped, bytesRead: 0, reread: false, session: null, compactions: 0, more: false };
  }
  if (format.shape === 'document') return readDocument(deps, folderId, seen, blob, format.id, row);
  return readLinesFile(deps, folderId, seen, blob, format, row, lives, budget);
}

async function readDocument(
  deps: ReadFileDeps & { readonly saveRow: (row: FollowedFileRow) => Promise<void> },
  folderId: number,
  info: FollowedFileInfo,
  blob: Blob,
  formatId: string,
  row: FollowedFileRow | undefined,
): Promise<FileTurn> {
  if (info.size > MAX_DOCUMENT_BYTES) {
    const tooLarge = freshRow(
      folderId,
      info,
      formatId,
      `larger than ${MAX_DOCUMENT_BYTES} bytes, read whole`,
    );
    await deps.saveRow(tooLarge);
    return { row: tooLarge, bytesRead: 0, reread: false, session: null, compactions: 0, more: false };
  }
  const format = formatById(formatId);
  if (format === null || format.shape !== 'document') throw new Error(`Not a document format: ${formatId}`);
  return deps.transaction(async () => {
    const wd = deps.writerDeps();
    const quiet = { bytes: async () => undefined, tick: async () => undefined };
    const result = await importUnit(wd, { format, file: { name: info.path, data: blob } }, quiet);
    await wd.replay.finish();
    const next: FollowedFileRow = {
      ...freshRow(folderId, info, formatId, result.kind === 'refused' ? result.reason : null),
      readOffset: info.size,
      sessionId: result.kind === 'imported' ? result.session.sessionId : (row?.sessionId ?? null),
    };
    await deps.saveRow(next);
    return {
      row: next,
      bytesRead: info.size,
      reread: row !== undefined && row.readOffset > 0,
      session:
        result.kind === 'imported'
          ? { sessionId: result.session.sessionId, agent: result.session.agent }
          : null,
      compactions: result.kind === 'imported' ? result.session.added.compactions : 0,
      more: false,
    };
  });
}

async function readLinesFile(
  deps: ReadFileDeps & { readonly saveRow: (row: FollowedFileRow) => Promise<void> },
  folderId: number,
  info: FollowedFileInfo,
  blob: Blob,
  format: LineFormat,
  row: FollowedFileRow | undefined,
  lives: Map<string, LiveFile>,
  budget: number,
): Promise<FileTurn> {
  const size = info.size;
  let reread = false;
  if (row !== undefined && row.readOffset > 0) {
    if (size < row.readOffset) reread = true;
    else {
      const hash = await tailHash(blob, row.lastLineStart, row.readOffset);
      reread = row.lastLineHash === null || hash === null || !sameBytes(hash, row.lastLineHash);
    }
  }
  let live = reread ? undefined : lives.get(info.path);
  if (live !== undefined && live.offset !== (row?.readOffset ?? 0)) live = undefined;
  if (live === undefined) {
    const parser = format.createParser();
    // A fresh parser resumes where nothing waited for a later line; a format with no such point reads from the start.
    const from =
      !reread && row !== undefined && parser.settled !== undefined
        ? {
            offset: row.resumeOffset,
            line: row.resumeLine,
            index: row.resumeIndex,
            thoughts: waitingFrom(row.resumeThoughts),
          }
        : { offset: 0, line: 1, index: 0, thoughts: [] };
    live = {
      parser,
      offset: from.offset,
      line: from.line - 1,
      index: from.index,
      resume: { ...from },
      more: false,
      thoughts: newThoughts(from.thoughts),
    };
    lives.set(info.path, live);
  }
  const start = live.offset;
  // A row saved while the file's format was not known yet (no line yet) starts afresh with its format.
  const base: FollowedFileRow =
    reread || row === undefined || row.format !== format.id ? freshRow(folderId, info, format.id, null) : row;
  if (start >= size) {
    const same = { ...base, size, modified: info.modified };
    await deps.saveRow(same);
    return { row: same, bytesRead: 0, reread, session: null, compactions: 0, more: false };
  }

  const l = live;
  // A failed turn leaves nothing in the brain: the live parser, which read on, is dropped with it (the next look
  // resumes from the saved row).
  return deps
    .transaction(async () => {
      const wd = deps.writerDeps();
      let writer: SessionWriter | null = null;
      let target: Awaited<ReturnType<typeof openTarget>> | null = null;
      const meta = (): TranscriptMeta => l.parser.meta();
      const feed = async (items: readonly TranscriptItem[]) => {
        for (const item of items) {
          if (writer === null) {
            // A parser resumed mid-file may not have met the session's id yet: the file's session is known.
            const m = meta();
            const known =
              m.sessionId === null && base.sessionId !== null
                ? await wd.imports.bySession(base.sessionId as SessionId)
                : null;
            const first =
              known !== null && known.agent === m.agent ? { ...m, sessionId: known.sourceSession } : m;
            target = await openTarget(
              wd,
              first.agent,
              first,
              info.path,
              item.at ?? m.startedAt ?? wd.ctx.clock.now(),
            );
            writer = createSessionWriter(wd, target, meta, l.thoughts);
          }
          await writer.add(item, l.index++);
        }
      };
      // Lines up to `budget` bytes (the line that crosses it read whole); the torn tail is left for the next look.
      const read = await readWindow(l, blob.slice(start, size), budget, feed);
      const offset = start + read.consumed;
      l.offset = offset;
      l.more = read.stopped && offset < size;
      let sessionId = base.sessionId;
      let compactions = 0;
      const w = writer as SessionWriter | null;
      const t = target as Awaited<ReturnType<typeof openTarget>> | null;
      if (w !== null && t !== null) {
        // A torn tail left for the next look (not a budget stop): the file is being written, its run goes on.
        await w.finish({ keepThoughts: true, noteEnd: false, torn: !read.stopped && offset < size });
        await saveUnit(
          wd,
          w,
          t,
          meta(),
          { format: format.id, name: info.path, bytes: offset, lastLine: l.line },
          { retitleNamed: true },
        );
        sessionId = t.sessionId;
        compactions = w.counts.compactions;
      }
      await wd.replay.finish();
      const lastLineStart = read.lastLineStart >= 0 ? start + read.lastLineStart : base.lastLineStart;
      const next: FollowedFileRow = {
        ...base,
        size,
        modified: info.modified,
        readOffset: offset,
        linesRead: l.line,
        lastLineStart,
        lastLineHash: await tailHash(blob, lastLineStart, offset),
        resumeOffset: l.resume.offset,
        resumeLine: l.resume.line,
        resumeIndex: l.resume.index,
        resumeThoughts: l.resume.thoughts.length === 0 ? null : JSON.stringify(l.resume.thoughts),
        sessionId,
        problem: null,
      };
      await deps.saveRow(next);
      return {
        row: next,
        bytesRead: read.read,
        reread,
        session:
          sessionId !== null && t !== null
            ? { sessionId: sessionId as SessionId, agent: meta().agent }
            : null,
        compactions,
        more: l.more,
      };
    })
    .catch((error: unknown) => {
      lives.delete(info.path);
      throw error;
    });
}

/**
 * A file that did not change since the last look, with the agent's text still waiting for a call: the agent said
 * it and stopped, so it is written as the agent's note (as a whole import writes it at the file's end).
 */
export async function settleRestingFile(
  deps: ReadFileDeps,
  live: LiveFile,
  sessionId: SessionId | null,
  sourceName: string,
): Promise<boolean> {
  if (live.thoughts.threads().length === 0 || sessionId === null) return false;
  const meta = live.parser.meta();
  await deps.transaction(async () => {
    const wd = deps.writerDeps();
    const target = await openTarget(wd, meta.agent, meta, sourceName, meta.startedAt ?? wd.ctx.clock.now());
    await createSessionWriter(wd, target, () => meta, live.thoughts).finish({ noteEnd: false });
    await wd.replay.finish();
  });
  return true;
}

/**
 * A last line with no newline is whole when it is a JSON object: a record cut short never parses, so one that does
 * was written whole (a writer that ended without a final newline). Any other tail waits for its end.
 */
function wholeRecord(bytes: Uint8Array): boolean {
  if (bytes.length === 0 || bytes.length > 64 * 1024 * 1024) return false;
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0x0d || bytes[end - 1] === 0x09)) end--;
  if (bytes[end - 1] !== 0x7d) return false; // '}'
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(0, end)));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Pushes a window's complete lines into the live parser; the torn tail is left for the next look. */
async function readWindow(
  live: LiveFile,
  window: Blob,
  budget: number,
  feed: (items: readonly TranscriptItem[]) => Promise<void>,
): Promise<{ consumed: number; lastLineStart: number; read: number; stopped: boolean }> {
  const from = live.offset;
  let line = live.line;
  const parser = live.parser;
  const result = await readLines(
    window,
    {
      line: async (text, lineNo, end) => {
        await feed(parser.push(text, lineNo));
        line = lineNo;
        // No call waits for its result: a fresh parser can start at the next line (with the text still waiting).
        if (parser.settled?.() === true)
          live.resume = {
            offset: from + end,
            line: lineNo + 1,
            index: live.index,
            thoughts: live.thoughts.waiting(),
          };
      },
      ...(parser.skipBytes
        ? {
            skip: (bytes: Uint8Array, lineNo: number) => {
              const took = parser.skipBytes?.(bytes, lineNo) === true;
              if (took) line = lineNo;
              return took;
            },
          }
        : {}),
    },
    { firstLine: live.line + 1, completeLinesOnly: true, stopAfter: budget, tailIsWhole: wholeRecord },
  );
  live.line = line;
  return {
    consumed: result.consumed,
    lastLineStart: result.lastLineStart,
    read: result.read,
    stopped: result.consumed >= budget,
  };
}

/** A followed file as the API shows it; `live`: its parser in this tab, with the calls still waiting. */
export function fileView(row: FollowedFileRow, live?: LiveFile): FollowedFile {
  return {
    path: row.path,
    format: row.format,
    offset: row.readOffset,
    size: row.size,
    modified: row.modified,
    sessionId: row.sessionId as SessionId | null,
    problem: row.problem,
    waiting: (live?.parser.waitingCalls?.() ?? []).map((call) => ({
      tool: call.tool,
      what: classifyToolCall({ tool: call.tool, input: call.input }).command,
      since: call.at,
    })),
  };
}
