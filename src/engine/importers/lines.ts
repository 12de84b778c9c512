/**
 * A JSONL transcript as lines, streamed: chunks read (bytes.ts), split on `\n` as bytes (a `\r` before it
 * dropped), numbered from 1, and each line decoded alone — unless the sink takes it from its bytes (`skip`: a
 * record the parser never reads is never decoded either). Only the current chunk and the line being assembled are
 * held. `torn`: the file did not end with a newline (its last line may be cut short).
 *
 * A newline byte is never part of a multi-byte UTF-8 character, so decoding line by line gives the text a decode
 * of the whole file would: bytes that are not UTF-8 become U+FFFD, and a byte order mark is dropped at the start
 * of the file only.
 */
import { chunksOf, type Bytes } from './bytes';

export interface LineSink {
  /**
   * Called for every line not skipped; awaited (so the caller can write, report progress or cancel). `end`: bytes
   * into the data after the line's newline.
   */
  line(text: string, lineNo: number, end: number): Promise<void> | void;
  /** Offered every line's bytes first (no newline, no `\r`): true when it took the line so (never decoded). */
  skip?(bytes: Uint8Array, lineNo: number): boolean;
  /** Bytes read so far, after each chunk. */
  read?(bytesDone: number): Promise<void> | void;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

export interface ReadLinesOptions {
  /** The number of the first line read (a follower reads on from where it stopped); 1 by default. */
  readonly firstLine?: number;
  /**
   * A last line with no newline is left unread (a follower waits for its end) instead of emitted as torn;
   * `consumed` then says where the complete lines end.
   */
  readonly completeLinesOnly?: boolean;
  /**
   * With `completeLinesOnly`: a last line with no newline that this says is whole (a JSONL record that parses) is
   * read after all — a file whose writer ended without a final newline is not left waiting for ever.
   */
  readonly tailIsWhole?: (bytes: Uint8Array) => boolean;
  /**
   * Stop once a line ending at or past this many bytes into the data was read (a follower's turn is bounded); the
   * rest is left unread, and `consumed` says where the lines read end.
   */
  readonly stopAfter?: number;
}

export interface ReadLinesResult {
  /** Lines emitted (or skipped by the sink). */
  readonly lines: number;
  /** The data did not end with a newline (with `completeLinesOnly`, that last line was left unread). */
  readonly torn: boolean;
  /** Bytes up to and with the last line's newline (the whole data unless a torn tail was left). */
  readonly consumed: number;
  /** Where the last complete line starts (bytes into the data), or -1 when there was none. */
  readonly lastLineStart: number;
  /** Bytes of the data read (with `stopAfter`, what was read ahead too). */
  readonly read: number;
}

export async function readLines(
  data: Bytes,
  sink: LineSink,
  options: ReadLinesOptions = {},
): Promise<ReadLinesResult> {
  const firstLine = options.firstLine ?? 1;
  // ignoreBOM: every line is decoded on its own, and a BOM is the file's (dropped below), not a line's.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // The line being assembled, in pieces (views of their chunks): joined once, when its newline comes.
  const pending: Uint8Array[] = [];
  let lineNo = firstLine - 1;
  let done = 0;
  let consumed = 0;
  let lastLineStart = -1;
  const emit = async (bytes: Uint8Array, end: number) => {
    lineNo++;
    let start = 0;
    let stop = bytes.length;
    if (stop > 0 && bytes[stop - 1] === CR) stop--;
    if (lineNo === 1 && firstLine === 1 && BOM.every((b, i) => bytes[i] === b))
      start = Math.min(stop, BOM.length);
    const line = start === 0 && stop === bytes.length ? bytes : bytes.subarray(start, stop);
    if (sink.skip?.(line, lineNo) === true) return;
    await sink.line(decoder.decode(line), lineNo, end);
  };
  const joined = (last: Uint8Array) => {
    pending.push(last);
    const whole = new Uint8Array(pending.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const piece of pending) {
      whole.set(piece, at);
      at += piece.length;
    }
    pending.length = 0;
    return whole;
  };
  const stopAfter = options.stopAfter ?? Infinity;
  let stopped = false;
  for await (const chunk of chunksOf(data)) {
    done += chunk.byteLength;
    let start = 0;
    const chunkStart = done - chunk.byteLength;
    for (let nl = chunk.indexOf(LF); nl >= 0; nl = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, nl);
      lastLineStart = consumed;
      await emit(pending.length === 0 ? piece : joined(piece), chunkStart + nl + 1);
      start = nl + 1;
      consumed = chunkStart + start;
      if (consumed >= stopAfter) {
        stopped = true;
        break;
      }
    }
    if (stopped) break;
    if (start < chunk.length) pending.push(chunk.subarray(start));
    await sink.read?.(done);
  }
  if (stopped) return { lines: lineNo - (firstLine - 1), torn: false, consumed, lastLineStart, read: done };
  const torn = pending.length > 0;
  if (torn) {
    const tail = joined(new Uint8Array(0));
    if (options.completeLinesOnly !== true || options.tailIsWhole?.(tail) === true) {
      lastLineStart = consumed;
      await emit(tail, done);
      consumed = done;
    }
  }
  return { lines: lineNo - (firstLine - 1), torn, consumed, lastLineStart, read: done };
}
