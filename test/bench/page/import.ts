/**
 * In-page half of the "import" section: a generated Claude-Code-shaped session (progress records, Bash calls with
 * ~1 KB results) and a Codex-shaped rollout of about `mb` MB each, built in the page as Blobs (lines generated one
 * by one, never one string), imported by `importTranscript` (the worker reads them in 4 MiB slices); MB/s, the
 * counts against what was generated, and a re-import that must add no row.
 */
import { openBrain } from '../../../src/lib/index';
import { claudeCodeStream, type StreamCounts } from '../../fixtures/transcripts/claude-code-stream';
import { codexStream, type CodexStreamCounts } from '../../fixtures/transcripts/codex-stream';
import { progress } from './progress';

export interface ImportBenchOptions {
  readonly dbName: string;
  readonly mb: number;
}

/** Lines of `stream` until about `bytes`, as a Blob built from 1 MiB parts. */
function blobOf(lines: Iterator<string>, bytes: number, phase: string): Blob {
  const parts: Blob[] = [];
  let chunk: string[] = [];
  let chunkBytes = 0;
  let total = 0;
  while (total < bytes) {
    const next = lines.next();
    if (next.done) break;
    chunk.push(next.value, '\n');
    chunkBytes += next.value.length + 1;
    if (chunkBytes >= 1 << 20) {
      parts.push(new Blob(chunk));
      total += chunkBytes;
      chunk = [];
      chunkBytes = 0;
      progress(phase, Math.min(total, bytes), bytes);
    }
  }
  parts.push(new Blob(chunk));
  return new Blob(parts);
}

export async function importBench(options: ImportBenchOptions) {
  const bytes = options.mb * 1024 * 1024;
  const brain = await openBrain({ dbName: options.dbName, startEmpty: true });
  try {
    await brain.setAutoCleanup({ enabled: false });
    const out = [];
    for (const agent of ['claude-code', 'codex'] as const) {
      const counts =
        agent === 'claude-code'
          ? ({ lines: 0, progress: 0, prompts: 0, calls: 0 } as StreamCounts)
          : ({ lines: 0, prompts: 0, calls: 0 } as CodexStreamCounts);
      const lines =
        agent === 'claude-code'
          ? claudeCodeStream(15, Number.MAX_SAFE_INTEGER, counts as StreamCounts)
          : codexStream(16, Number.MAX_SAFE_INTEGER, counts as CodexStreamCounts);
      const blob = blobOf(lines, bytes, `generating ${agent}`);
      const name =
        agent === 'claude-code'
          ? '0f6a2d9e-1c4b-4e8a-b7d3-9a5c2e8f1b40.jsonl'
          : 'rollout-2026-11-01T00-00-00-big.jsonl';
      const started = performance.now();
      const result = await brain.importTranscript({ files: [{ name, data: blob }] }, (p) =>
        progress(`importing ${agent} (MB)`, Math.round(p.bytesDone / 1e6), Math.round(p.bytesTotal / 1e6)),
      );
      const seconds = (performance.now() - started) / 1000;
      const s = result.sessions[0]!;
      const info = await brain.info();
      const again = await brain.importTranscript({ files: [{ name, data: blob }] });
      out.push({
        agent,
        bytes: blob.size,
        seconds,
        mbPerSecond: blob.size / 1e6 / seconds,
        lines: counts.lines,
        generated: { prompts: counts.prompts, calls: counts.calls },
        imported: { prompts: s.added.instructions, calls: s.added.toolCalls },
        reimportAdded: again.sessions[0]!.added.toolCalls + again.sessions[0]!.added.instructions,
        dbBytes: info.fileBytes,
      });
    }
    return out;
  } finally {
    await brain.close();
  }
}
