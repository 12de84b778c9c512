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
  // The line being assembled, in pieces: a chunk's text is never concatenated whole with what came before (a
  // copy of every chunk), and a line longer than a chunk is joined once, when its newline comes.
  const pending: string[] = [];
  let lineNo = 0;
  let done = 0;
  const emit = async (text: string) => {
    lineNo++;
    await sink.line(text.endsWith('\r') ? text.slice(0, -1) : text, lineNo);
  };
  for await (const chunk of chunksOf(data)) {
    done += chunk.byteLength;
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      if (pending.length === 0) await emit(piece);
      else {
        pending.push(piece);
        const whole = pending.join('');
        pending.length = 0;
        await emit(whole);
      }
      start = nl + 1;
    }
    if (start < text.length) pending.push(start === 0 ? text : text.slice(start));
    await sink.read?.(done);
  }
  const rest = decoder.decode();
  if (rest !== '') pending.push(rest);
  const torn = pending.length > 0;
  if (torn) await emit(pending.join(''));
  return { lines: lineNo, torn };
}
