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
  /** Called for every line not skipped; awaited (so the caller can write, report progress or cancel). */
  line(text: string, lineNo: number): Promise<void> | void;
  /** Offered every line's bytes first (no newline, no `\r`): true when it took the line so (never decoded). */
  skip?(bytes: Uint8Array, lineNo: number): boolean;
  /** Bytes read so far, after each chunk. */
  read?(bytesDone: number): Promise<void> | void;
}

const LF = 0x0a;
const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf];

export async function readLines(data: Bytes, sink: LineSink): Promise<{ lines: number; torn: boolean }> {
  // ignoreBOM: every line is decoded on its own, and a BOM is the file's (dropped below), not a line's.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // The line being assembled, in pieces (views of their chunks): joined once, when its newline comes.
  const pending: Uint8Array[] = [];
  let lineNo = 0;
  let done = 0;
  const emit = async (bytes: Uint8Array) => {
    lineNo++;
    let start = 0;
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (lineNo === 1 && BOM.every((b, i) => bytes[i] === b)) start = Math.min(end, BOM.length);
    const line = start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end);
    if (sink.skip?.(line, lineNo) === true) return;
    await sink.line(decoder.decode(line), lineNo);
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
  for await (const chunk of chunksOf(data)) {
    done += chunk.byteLength;
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl >= 0; nl = chunk.indexOf(LF, start)) {
      const piece = chunk.subarray(start, nl);
      await emit(pending.length === 0 ? piece : joined(piece));
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
    await sink.read?.(done);
  }
  const torn = pending.length > 0;
  if (torn) await emit(joined(new Uint8Array(0)));
  return { lines: lineNo, torn };
}
