/**
 * A JSONL transcript as lines, streamed: chunks decoded (bytes.ts), split on `\n` (a `\r` before it dropped),
 * numbered from 1. Only the current chunk and the line being assembled are held. `torn`: the file did not end
 * with a newline (its last line may be cut short).
 */
import { chunksOf, type Bytes } from './bytes';

export interface LineSink {
  /** Called for every line; awaited (so the caller can write, report progress or cancel between lines). */
  line(text: string, lineNo: number): Promise<void> | void;
  /** Bytes read so far, after each chunk. */
  read?(bytesDone: number): Promise<void> | void;
}

export async function readLines(data: Bytes, sink: LineSink): Promise<{ lines: number; torn: boolean }> {
  const decoder = new TextDecoder('utf-8');
  let carry = '';
  let lineNo = 0;
  let done = 0;
  const emit = async (text: string) => {
    lineNo++;
    await sink.line(text.endsWith('\r') ? text.slice(0, -1) : text, lineNo);
  };
  for await (const chunk of chunksOf(data)) {
    done += chunk.byteLength;
    const text = carry + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      await emit(text.slice(start, nl));
      start = nl + 1;
    }
    carry = text.slice(start);
    await sink.read?.(done);
  }
  carry += decoder.decode();
  const torn = carry !== '';
  if (torn) await emit(carry);
  return { lines: lineNo, torn };
}
