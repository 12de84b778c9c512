/**
 * The patches a transcript carries reach the recorder's planned file changes, one path through the classifier:
 * Codex's `patch_apply_end` `unified_diff` and Claude Code's `structuredPatch` ride on the importer's file bodies
 * (`TranscriptFileBody.diff`) into `ToolCallFile.diff` (engine/importers/tool-call-input.ts) and out as
 * `PlannedFileChange.diff`; a Codex `*** Add File` is a created file with its whole body (both sides known: it
 * opens as a diff). Fixtures: the generated Codex rollout and Claude Code session (test/fixtures/transcripts).
 */
import { describe, expect, it } from 'vitest';
import { asSessionId, asTaskId } from '../../src/core/ids';
import { createClaudeCodeParser } from '../../src/core/importers/claude-code';
import { createCodexParser } from '../../src/core/importers/codex';
import type { LineParser, TranscriptItem } from '../../src/core/importers/types';
import { classifyToolCall } from '../../src/core/tool-calls';
import { planFileChanges, type SessionFiles } from '../../src/core/tool-calls/file-changes';
import { bodiesOf } from '../../src/core/tool-calls/records';
import { createBackupLookup, toolCallInput } from '../../src/engine/importers/tool-call-input';
import { decodeLines, generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateCodexSession } from '../fixtures/transcripts/codex';

type Call = Extract<TranscriptItem, { kind: 'tool_call' }>;
const noSession: SessionFiles = {
  body: () => undefined,
  seen: () => false,
  hasEntry: () => false,
  under: () => [],
};

function calls(bytes: Uint8Array, parser: LineParser): Call[] {
  const { lines, torn } = decodeLines(bytes);
  const items: TranscriptItem[] = [];
  lines.forEach((line, i) => items.push(...parser.push(line, i + 1)));
  items.push(...parser.finish({ torn }));
  return items.filter((i): i is Call => i.kind === 'tool_call');
}

/** The call as the recorder gets it from an import, and the file changes it plans (a session that knows nothing). */
async function planned(item: Call, cwd: string) {
  const input = await toolCallInput(item, {
    sessionId: asSessionId(1),
    taskId: asTaskId(1),
    thought: null,
    at: 0,
    meta: {
      agent: 'codex',
      sessionId: null,
      title: null,
      cwd,
      startedAt: null,
      model: null,
      version: null,
      parentSessionId: null,
    },
    sourceSession: 's',
    backups: createBackupLookup(new Map()),
    counts: { backups: 0 },
  });
  const files = input.files ?? [];
  const { changes } = planFileChanges(
    classifyToolCall(input.call, { root: cwd }).fileEffects,
    files,
    noSession,
    cwd,
  );
  return { files, changes };
}

describe('Codex: apply_patch with patch_apply_end', () => {
  const fixture = generateCodexSession();
  const all = calls(fixture.main.bytes, createCodexParser());
  const cwd = fixture.truth.cwd;

  it('carries an Update’s unified_diff to the planned change', async () => {
    const update = all.find((c) =>
      (c.files ?? []).some((f) => f.diff !== undefined && f.movedTo === undefined),
    );
    expect(update).toBeDefined();
    const { files, changes } = await planned(update as Call, cwd);
    const diff = files.find((f) => f.diff !== undefined)?.diff;
    expect(diff).toMatch(/^@@ /);
    expect(changes.find((c) => c.diff !== undefined)?.diff).toBe(diff);
  });

  it('records an Add File as created with its whole body (both sides: it opens as a diff)', async () => {
    const add = all.find((c) =>
      (c.files ?? []).some((f) => f.before === null && typeof f.after === 'string'),
    );
    expect(add).toBeDefined();
    const { changes } = await planned(add as Call, cwd);
    expect(changes[0]).toMatchObject({ change: 'created', before: null });
    expect(bodiesOf(changes[0]!)).toBe('both');
    // Control: the same call without the transcript's file bodies still has the patch's own `+` lines.
    const bare = { ...(add as Call) };
    delete (bare as { files?: unknown }).files;
    const alone = await planned(bare, cwd);
    expect(alone.changes[0]).toMatchObject({ change: 'created' });
    expect(typeof alone.changes[0]?.after).toBe('string');
  });
});

describe('Claude Code: Edit with structuredPatch', () => {
  const fixture = generateClaudeCodeSession();
  const all = calls(fixture.main.bytes, createClaudeCodeParser());
  const cwd = fixture.truth.cwd;

  it('carries the structuredPatch to the planned change, beside the replayed bodies', async () => {
    const edit = all.find((c) => c.call.tool === 'Edit' && (c.files ?? []).some((f) => f.diff !== undefined));
    expect(edit).toBeDefined();
    const { files, changes } = await planned(edit as Call, cwd);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.diff).toBe(files[0]?.diff);
    expect(changes[0]?.diff).toMatch(/^--- .*\n\+\+\+ .*\n@@ -\d+,\d+ \+\d+,\d+ @@/);
    // Control: the same Edit with the patch left out of its result plans no diff.
    const noPatch = { ...(edit as Call), files: (edit as Call).files?.map(({ diff: _d, ...f }) => f) };
    expect((await planned(noPatch, cwd)).changes.map((c) => c.diff)).toEqual([undefined]);
  });
});
