/**
 * importTranscript on the parsers' generated fixtures (test/fixtures/transcripts), counted in the brain against
 * the ground truth each generator wrote: prompts, tool calls, file changes, checks, threads, the compaction; a
 * re-import adds no row, a longer version only its new part, bad lines are named, an unknown file is refused
 * naming the known formats, a cancel leaves no row.
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId, TaskId } from '../../src/core/api';
import { isBrainError } from '../../src/core/errors';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { generateCodexSession } from '../fixtures/transcripts/codex';
import { memoryBrain } from './engine-helpers';

type Driver = Awaited<ReturnType<typeof memoryBrain>>['database']['driver'];

/** Rows of every table: what "adds nothing" means. */
async function rowCounts(db: Driver): Promise<Record<string, number>> {
  const tables = await db.all<{ name: string }>(
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) {
    const row = await db.get<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`);
    out[name] = row?.n ?? 0;
  }
  return out;
}

async function sessionFacts(api: BrainApi, sessionId: SessionId) {
  const events = await api.listEvents(sessionId);
  const tasks = await api.listTasks(sessionId);
  let steps = 0;
  for (const t of tasks) steps += (await api.listSteps(t.id)).length;
  const of = (kind: string) => events.filter((e) => e.kind === kind);
  return {
    events,
    tasks,
    steps,
    instructions: of('instruction').map((e) => (e as { text: string }).text),
    validations: of('validation'),
    changedPaths: new Set(of('file_change').map((e) => (e as { path: string }).path)),
    summaries: await api.listSummaries(sessionId),
  };
}

const claude = generateClaudeCodeSession();
const claudeFiles = [claude.main, claude.subagent].map((f) => ({ name: f.name, data: f.bytes }));
const relative = (path: string, cwd: string) =>
  path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;

describe('importTranscript: a Claude Code project folder', () => {
  it('records every prompt, tool call, file change, check and thread of the fixture', async () => {
    const { api } = await memoryBrain();
    const result = await api.importTranscript({ files: claudeFiles });
    expect(result.sessions).toHaveLength(1);
    const s = result.sessions[0]!;
    const { truth } = claude;
    expect(s.agent).toBe('claude-code');
    expect(s.sourceSessionId).toBe(truth.sessionId);
    expect(s.title).toBe(`Claude Code · ${truth.title}`);
    expect((await api.getSession(s.sessionId)).title).toBe(`Claude Code · ${truth.title}`);
    const facts = await sessionFacts(api, s.sessionId);
    const prompts = [
      ...truth.prompts,
      ...Object.values(truth.threadPrompts).flat(),
      ...truth.subagentPrompts,
    ];
    expect(facts.instructions.sort()).toEqual(prompts.sort());
    const calls = truth.toolCalls.length + truth.subagentToolCalls.length;
    expect(s.added.toolCalls).toBe(calls);
    expect(facts.steps).toBe(calls);
    // Checks: the main thread's, and the subagent's one vitest run.
    expect(facts.validations).toHaveLength(truth.checks.length + 1);
    expect(s.added.checks).toBe(truth.checks.length + 1);
    expect(facts.changedPaths).toEqual(new Set([...truth.filesChanged].map((p) => relative(p, truth.cwd))));
    // Threads: the inline sidechain and the subagent file, child tasks of the main one.
    const main = facts.tasks.find((t) => t.id === s.taskId)!;
    const children = facts.tasks.filter((t) => t.parentTaskId === s.taskId);
    expect(children).toHaveLength(truth.threads.length);
    expect(
      main.references
        .filter((r) => r.kind === 'child')
        .map((r) => r.to)
        .sort(),
    ).toEqual(children.map((t) => t.id as TaskId).sort());
    expect(facts.summaries.map((x) => x.content)).toEqual(truth.compactions.map((c) => c.summary));
    expect(s.added.others).toBeGreaterThanOrEqual(truth.others);
    const listed = await api.listImportedSessions();
    expect(listed.map((l) => [l.agent, l.sourceSessionId, l.sessionId])).toEqual([
      ['claude-code', truth.sessionId, s.sessionId],
    ]);
  });

  it('names the malformed line and the torn last line, and imports the rest', async () => {
    const { api } = await memoryBrain();
    const s = (await api.importTranscript({ files: claudeFiles })).sessions[0]!;
    expect(claude.truth.malformedLines.length).toBeGreaterThan(0);
    expect(s.problems.map((p) => p.line)).toEqual(claude.truth.malformedLines);
    expect(s.problems[0]?.message).toContain(`Line ${claude.truth.malformedLines[0]}`);
    expect(s.stats.tornLastLine).toBe(true);
  });

  it('adds no row when the same files are imported again (Blobs this time)', async () => {
    const { api, database } = await memoryBrain();
    await api.importTranscript({ files: claudeFiles });
    const before = await rowCounts(database.driver);
    const again = await api.importTranscript({
      files: claudeFiles.map((f) => ({ name: f.name, data: new Blob([f.data as Uint8Array<ArrayBuffer>]) })),
    });
    expect(await rowCounts(database.driver)).toEqual(before);
    expect(again.sessions[0]?.created).toBe(false);
    expect(again.sessions[0]?.added.toolCalls).toBe(0);
    expect(again.sessions[0]?.alreadyImported).toBeGreaterThan(100);
    // Control: the counts do see an import.
    await api.importTranscript({ files: [{ name: 'x.jsonl', data: generateCodexSession().main.bytes }] });
    expect((await rowCounts(database.driver))['steps']).toBeGreaterThan(before['steps']!);
  });

  it('adds only the new part of a longer version of the session', async () => {
    const text = new TextDecoder().decode(claude.main.bytes);
    const lines = text.split('\n');
    // The file as it was mid-session: cut before a person's prompt, so no call is left waiting for its result.
    const cut = lines.findIndex(
      (l, i) => i > lines.length / 2 && l.includes('"type":"user"') && !l.includes('tool_result'),
    );
    const prefix = new TextEncoder().encode(`${lines.slice(0, cut).join('\n')}\n`);
    const { api } = await memoryBrain();
    const first = (await api.importTranscript({ files: [{ name: claude.main.name, data: prefix }] }))
      .sessions[0]!;
    const second = (
      await api.importTranscript({ files: [{ name: claude.main.name, data: claude.main.bytes }] })
    ).sessions[0]!;
    expect(second.sessionId).toBe(first.sessionId);
    expect(first.added.toolCalls).toBeGreaterThan(10);
    expect(second.added.toolCalls).toBeGreaterThan(10);
    const fresh = await memoryBrain();
    const whole = (
      await fresh.api.importTranscript({ files: [{ name: claude.main.name, data: claude.main.bytes }] })
    ).sessions[0]!;
    expect(first.added.toolCalls + second.added.toolCalls).toBe(whole.added.toolCalls);
    expect(first.added.instructions + second.added.instructions).toBe(whole.added.instructions);
    const facts = await sessionFacts(api, first.sessionId);
    expect(facts.steps).toBe(whole.added.toolCalls);
  });
});

describe('importTranscript: other formats, refusals, cancel', () => {
  it('a Codex rollout: its prompts, tool calls and checks', async () => {
    const codex = generateCodexSession();
    const { api } = await memoryBrain();
    const s = (await api.importTranscript({ files: [{ name: codex.main.name, data: codex.main.bytes }] }))
      .sessions[0]!;
    expect(s.agent).toBe('codex');
    expect(s.sourceSessionId).toBe(codex.truth.sessionId);
    const facts = await sessionFacts(api, s.sessionId);
    expect(facts.instructions.sort()).toEqual([...codex.truth.prompts].sort());
    expect(facts.steps).toBe(codex.truth.toolCalls.length);
    expect(facts.validations).toHaveLength(codex.truth.checks.length);
    expect(s.problems.map((p) => p.line)).toEqual(codex.truth.malformedLines);
  });

  it('refuses a file no format claims, naming the known formats', async () => {
    const { api, database } = await memoryBrain();
    await api.listSessions(); // the engine's first call takes its size sample
    const before = await rowCounts(database.driver);
    const error = await api
      .importTranscript({
        files: [{ name: 'notes.txt', data: new TextEncoder().encode('just some notes\n') }],
      })
      .catch((e: unknown) => e);
    expect(isBrainError(error, 'UnknownFormat')).toBe(true);
    const message = (error as Error).message;
    for (const name of [
      'Claude Code session',
      'Codex CLI rollout',
      'Gemini CLI chat',
      'Cline',
      'OpenHands',
      'SWE-agent',
    ])
      expect(message).toContain(name);
    expect(message).toContain('notes.txt');
    expect(await rowCounts(database.driver)).toEqual(before);
  });

  it('refuses a transcript of which no line can be read, naming its first line', async () => {
    const { api } = await memoryBrain();
    const bad = new TextEncoder().encode('{"type":"user","uuid":\n<<garbage>>\n');
    const error = await api
      .importTranscript({ files: [{ name: '0b0e7f35-3f6e-4ad6-9f39-0d5d0f1c2a11.jsonl', data: bad }] })
      .catch((e: unknown) => e);
    expect(isBrainError(error, 'MalformedLine')).toBe(true);
    expect((error as Error).message).toMatch(/line 1\b/);
  });

  it('a cancel leaves no row, even after a whole session was written in the transaction', async () => {
    const codex = generateCodexSession();
    const files = [...claudeFiles, { name: codex.main.name, data: codex.main.bytes }];
    const { api, database } = await memoryBrain();
    await api.listSessions(); // the engine's first call takes its size sample
    const before = await rowCounts(database.driver);
    const seen: number[] = [];
    const error = await api
      .importTranscript({ files }, (p) => {
        seen.push(p.toolCalls);
        // The Codex file starts after the Claude Code session and its subagent were recorded.
        return p.file === codex.main.name ? 'cancel' : undefined;
      })
      .catch((e: unknown) => e);
    expect(isBrainError(error, 'Cancelled')).toBe(true);
    expect(Math.max(...seen)).toBeGreaterThan(90);
    expect(await rowCounts(database.driver)).toEqual(before);
    expect(await api.listSessions()).toEqual([]);
    // Control: the same import without a cancel leaves rows.
    await api.importTranscript({ files });
    expect((await rowCounts(database.driver))['steps']).toBeGreaterThan(before['steps']!);
  });
});
