/**
 * `progress` records skipped from their bytes, never decoded (issue 15: the worker's memory is mostly decoded
 * text): the parser reads a session through `readLines` with `skipBytes` to the same items, stats and problems as
 * when every line is pushed as text; only the other lines are decoded; and the byte scan is as strict as the text
 * scan on the awkward shapes — a nested `"type":"progress"`, multi-byte text before the key, an escaped value.
 */
import { describe, expect, it, vi } from 'vitest';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import { cheapSkipType, cheapSkipTypeOfBytes } from '../../src/core/importers/claude-code/scan';
import type { TranscriptItem } from '../../src/core/importers/types';
import { readLines } from '../../src/engine/importers/lines';
import { claudeCodeStream, type StreamCounts } from '../fixtures/transcripts/claude-code-stream';

const encoder = new TextEncoder();

function session(lines: number): { text: string; counts: StreamCounts; lines: string[] } {
  const counts: StreamCounts = { lines: 0, progress: 0, prompts: 0, calls: 0 };
  const all = [...claudeCodeStream(4, lines, counts)];
  return { text: all.join('\n'), counts, lines: all };
}

async function viaBytes(text: string) {
  const parser = createClaudeCodeParser();
  const items: TranscriptItem[] = [];
  const { torn } = await readLines(encoder.encode(text), {
    skip: (bytes, lineNo) => parser.skipBytes?.(bytes, lineNo) ?? false,
    line: (line, lineNo) => void items.push(...parser.push(line, lineNo)),
  });
  items.push(...parser.finish({ torn }));
  return { items, stats: parser.stats(), problems: parser.problems() };
}

function viaText(lines: readonly string[], torn: boolean) {
  const parser = createClaudeCodeParser();
  const items = lines.flatMap((line, i) => parser.push(line, i + 1));
  items.push(...parser.finish({ torn }));
  return { items, stats: parser.stats(), problems: parser.problems() };
}

describe('Claude Code progress records skipped from their bytes', () => {
  it('reads a session to what a text parse gives, decoding only the lines it does not skip', async () => {
    const { text, counts, lines } = session(3_000);
    expect(counts.progress).toBeGreaterThan(lines.length * 0.8);
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    let bytes: Awaited<ReturnType<typeof viaBytes>>;
    try {
      bytes = await viaBytes(text);
      expect(decode).toHaveBeenCalledTimes(lines.length - counts.progress);
    } finally {
      decode.mockRestore();
    }
    const reference = viaText(lines, false);
    expect(bytes.stats.skipped['progress']).toBe(counts.progress);
    expect(bytes.stats).toEqual(reference.stats);
    expect(bytes.items).toEqual(reference.items);
    expect(bytes.items.filter((i) => i.kind === 'instruction')).toHaveLength(counts.prompts);
  });

  it('tells a torn progress line at the end from a whole one, as the text parse does', async () => {
    const { lines } = session(400);
    const lastProgress = lines.slice(0, -1).findLastIndex((l) => l.includes('"type":"progress"'));
    const cut = [...lines.slice(0, lastProgress), (lines[lastProgress] as string).slice(0, -40)];
    const bytes = await viaBytes(cut.join('\n'));
    const reference = viaText(cut, true);
    expect(bytes.stats.tornLastLine).toBe(true);
    expect(bytes.stats).toEqual(reference.stats);
    expect(bytes.problems).toEqual([]);
    // Not at the end, the same cut line is a progress record skipped unread, by either path; nothing is torn.
    const within = [...cut, lines[lastProgress + 1] as string];
    const inside = await viaBytes(within.join('\n'));
    expect(inside.stats).toEqual(viaText(within, false).stats);
    expect(inside.stats.tornLastLine).toBe(false);
    expect(inside.stats.skipped['progress']).toBe((bytes.stats.skipped['progress'] ?? 0) + 1);
  });

  const shapes: [string, string, string | null][] = [
    [
      'a progress record',
      '{"parentUuid":"p","type":"progress","data":{"type":"bash_progress"},"uuid":"u"}',
      'progress',
    ],
    ['spaced as JSON.stringify(…, 2) would', '{ "type": "progress", "data": {} }', 'progress'],
    [
      'multi-byte text before the key',
      '{"cwd":"/home/José/项目 😀","type":"progress","data":{}}',
      'progress',
    ],
    [
      'escaped quotes before the key',
      '{"note":"a \\"type\\":\\"progress\\" b\\\\","type":"progress"}',
      'progress',
    ],
    ['a nested progress type', '{"type":"user","toolUseResult":{"type":"progress"}}', null],
    ['a nested one before the top-level key', '{"data":{"type":"progress"},"type":"assistant"}', null],
    ['a progress type inside an array', '{"content":[{"type":"progress"}],"type":"user"}', null],
    ['an escaped value', '{"type":"pro\\u0067ress","data":{}}', null],
    ['a value that only starts so', '{"type":"progress_extra"}', null],
    ['not an object', '["type","progress"]', null],
    ['a torn key', '{"type', null],
  ];
  for (const [what, line, expected] of shapes)
    it(`scans bytes as it scans text: ${what}`, () => {
      expect(cheapSkipTypeOfBytes(encoder.encode(line))).toBe(expected);
      expect(cheapSkipType(line)).toBe(expected);
    });
});
