/**
 * JSONL files in a folder without loading them whole: appends that repair a torn tail first and never rewrite
 * an earlier byte, a tail reader (the last N bytes, cut at a line boundary), and a streaming line reader.
 */
import { BrainError, isBrainError } from '../../core/errors';
import { parseAgentLog, type AgentLog } from '../../core/formats/agent-log';
import { recordToLine, type JsonlLine } from '../../core/formats/jsonl';
import { normaliseProjectPath } from '../../core/paths';
import type { AgentFolder, FileInfo, FileVersion } from './folder';
import { decodeText, encodeText } from './text';
import { versionToken } from './versions';

const LF = 10;
const CR = 13;

export interface AppendJsonlResult extends FileInfo {
  readonly version: FileVersion;
  /** How many records were appended. */
  readonly appended: number;
  /** The file ended mid-line (a cut-short write); a line ending was added before the new records. */
  readonly repairedTornLine: boolean;
}

/** The line ending a file uses, from its first line (LF when it has none yet). */
async function fileEol(folder: AgentFolder, path: string, size: number): Promise<'\n' | '\r\n'> {
  const { bytes } = await folder.readRange(path, 0, Math.min(size, 64 * 1024));
  const at = bytes.indexOf(LF);
  return at > 0 && bytes[at - 1] === CR ? '\r\n' : '\n';
}

/**
 * Appends one line per record. A file that ends mid-line gets a line ending first, so the fragment stays
 * verbatim on its own line (reported as malformed from then on) and the new records are whole. Without
 * `expectedVersion` a concurrent change is retried (appends commute); with it, it is a `Conflict`.
 */
export async function appendJsonlRecords(
  folder: AgentFolder,
  input: string,
  records: readonly unknown[],
  options: { readonly expectedVersion?: FileVersion | null; readonly attempts?: number } = {},
): Promise<AppendJsonlResult> {
  if (!Array.isArray(records) || records.length === 0)
    throw new BrainError('InvalidArgument', 'appendJsonl needs at least one record.');
  return appendJsonlLines(
    folder,
    input,
    records.map((record) => recordToLine(record)),
    options,
  );
}

/**
 * The same for lines already serialised (one JSON value each, without a line break inside; one trailing line
 * ending is dropped). They are written as given.
 */
export async function appendJsonlLines(
  folder: AgentFolder,
  input: string,
  rawLines: readonly string[],
  options: { readonly expectedVersion?: FileVersion | null; readonly attempts?: number } = {},
): Promise<AppendJsonlResult> {
  const path = normaliseProjectPath(input);
  if (!Array.isArray(rawLines) || rawLines.length === 0)
    throw new BrainError('InvalidArgument', 'Append at least one line.');
  const lines = rawLines.map((raw) => {
    const line = String(raw).replace(/\r?\n$/, '');
    if (/[\r\n]/.test(line))
      throw new BrainError('InvalidArgument', 'A JSONL line cannot contain a line break.');
    return line;
  });
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const info = await folder.stat(path);
    try {
      if (!info || info.size === 0) {
        const bytes = encodeText(lines.map((l) => l + '\n').join(''));
        const expected =
          options.expectedVersion !== undefined
            ? options.expectedVersion
            : info
              ? versionToken(0, info.lastModified, null)
              : null;
        const written = info
          ? await folder.append(path, bytes, { expectedVersion: expected })
          : await folder.write(path, bytes, { expectedVersion: expected });
        return {
          path,
          size: written.size,
          lastModified: written.lastModified,
          version: written.version,
          appended: lines.length,
          repairedTornLine: false,
        };
      }
      const { bytes: last } = await folder.readRange(path, info.size - 1, info.size);
      const torn = last[0] !== LF && last[0] !== CR;
      const eol = await fileEol(folder, path, info.size);
      const bytes = encodeText((torn ? eol : '') + lines.map((l) => l + eol).join(''));
      const expected = options.expectedVersion ?? versionToken(info.size, info.lastModified, null);
      const appended = await folder.append(path, bytes, { expectedVersion: expected });
      return { ...appended, appended: lines.length, repairedTornLine: torn };
    } catch (error) {
      if (!isBrainError(error, 'Conflict') || options.expectedVersion !== undefined || attempt >= attempts)
        throw error;
    }
  }
}

export interface JsonlTail {
  readonly info: FileInfo;
  /** Byte offset in the file where the returned text starts (at a line boundary). */
  readonly startByte: number;
  /** File line number of the first returned line, or null when not counted (then lines count from 1). */
  readonly firstLine: number | null;
  readonly lines: readonly JsonlLine[];
  readonly log: AgentLog;
}

/**
 * The last `maxBytes` of a JSONL file, from the first line boundary inside that window. `countLines` streams
 * the part before the window to give true file line numbers (cheap for SESSION.jsonl; linear in file size).
 */
export async function readJsonlTail(
  folder: AgentFolder,
  input: string,
  options: { readonly maxBytes?: number; readonly countLines?: boolean } = {},
): Promise<JsonlTail> {
  const path = normaliseProjectPath(input);
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  if (!Number.isInteger(maxBytes) || maxBytes < 1)
    throw new BrainError('InvalidArgument', 'maxBytes must be a positive whole number.');
  const info = await folder.stat(path);
  if (!info) throw new BrainError('NotFound', `"${path}" does not exist.`, { path });
  const windowStart = Math.max(0, info.size - maxBytes);
  const { bytes } = await folder.readRange(path, windowStart, info.size);
  let skip = 0;
  if (windowStart > 0) {
    const at = bytes.indexOf(LF);
    if (at < 0) {
      throw new BrainError(
        'TooLarge',
        `The last line of "${path}" is longer than ${maxBytes} bytes; read a larger tail.`,
        { path, maxBytes },
      );
    }
    skip = at + 1;
  }
  const startByte = windowStart + skip;
  const firstLine =
    options.countLines === false
      ? null
      : startByte === 0
        ? 1
        : 1 + (await countLineEnds(folder, path, startByte));
  const text = decodeText(bytes.subarray(skip), path);
  const log = parseAgentLog(text, { firstLine: firstLine ?? 1 });
  return { info, startByte, firstLine, lines: log.document.lines, log };
}

/** Number of LF bytes in the first `end` bytes of the file, streamed. */
export async function countLineEnds(folder: AgentFolder, path: string, end: number): Promise<number> {
  const { stream } = await folder.stream(path);
  const reader = stream.getReader();
  let seen = 0;
  let count = 0;
  try {
    while (seen < end) {
      const { value, done } = await reader.read();
      if (done) break;
      const chunk = value.subarray(0, Math.min(value.length, end - seen));
      for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, at + 1)) count++;
      seen += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return count;
}

/**
 * Every line of a JSONL file, streamed: memory stays bounded by the longest line. Yields `{ line, raw }`
 * (raw without its ending); JSON parsing is left to the caller. Throws `InvalidUtf8` at the first bad byte.
 */
export async function* streamLines(
  folder: AgentFolder,
  input: string,
): AsyncGenerator<{ line: number; raw: string }> {
  const path = normaliseProjectPath(input);
  const { stream } = await folder.stream(path);
  const reader = stream.getReader();
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let pending = '';
  let line = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      try {
        pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      } catch {
        throw new BrainError('InvalidUtf8', `"${path}" is not UTF-8 text after line ${line}.`, {
          path,
          line: line + 1,
        });
      }
      let from = 0;
      for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n', from)) {
        const raw = pending.slice(from, at);
        from = at + 1;
        yield { line: ++line, raw: raw.endsWith('\r') ? raw.slice(0, -1) : raw };
      }
      pending = pending.slice(from);
      if (done) break;
    }
    if (pending !== '') yield { line: ++line, raw: pending };
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
