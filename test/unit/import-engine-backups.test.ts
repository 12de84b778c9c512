/**
 * Claude Code file-history backups as checkpoint bodies: an Edit whose result does not carry `originalFile` (older
 * CLIs) gets its before-body from the `file-history/<session>/<hash>@vN` backup the session's last snapshot named
 * for that path; without the folder the same change has no entry with bodies, only its patch (control).
 */
import { describe, expect, it } from 'vitest';
import type { BrainApi, SessionId } from '../../src/core/api';
import { generateClaudeCodeSession } from '../fixtures/transcripts/claude-code';
import { memoryBrain } from './engine-helpers';

const fixture = generateClaudeCodeSession();
const sid = fixture.truth.sessionId;
const lines = new TextDecoder().decode(fixture.main.bytes).split('\n');

type Rec = Record<string, unknown>;
const parse = (line: string): Rec | null => {
  try {
    return JSON.parse(line) as Rec;
  } catch {
    return null;
  }
};

/**
 * The first Edit result with an `originalFile` whose path the last snapshot before it backed up, and which no
 * earlier edit of the session changed (so no body of it is known to the recorder from before).
 */
function findEdit() {
  const backups = new Map<string, string>();
  const touched = new Set<string>();
  for (const [i, line] of lines.entries()) {
    const rec = parse(line);
    if (!rec) continue;
    if (rec['type'] === 'file-history-snapshot') {
      const tracked = (rec['snapshot'] as Rec)['trackedFileBackups'] as Record<string, Rec>;
      for (const [path, b] of Object.entries(tracked))
        if (typeof b['backupFileName'] === 'string') backups.set(path, b['backupFileName']);
      continue;
    }
    const result = rec['toolUseResult'] as Rec | undefined;
    if (
      rec['type'] === 'user' &&
      rec['isSidechain'] !== true &&
      typeof result?.['originalFile'] === 'string' &&
      typeof result['oldString'] === 'string' &&
      backups.has(result['filePath'] as string) &&
      !touched.has(result['filePath'] as string)
    ) {
      const path = result['filePath'] as string;
      return { index: i, rec, path, original: result['originalFile'], backup: backups.get(path)! };
    }
    if (typeof result?.['filePath'] === 'string') touched.add(result['filePath']);
  }
  throw new Error('The fixture has no such Edit');
}

const edit = findEdit();
const { originalFile: _dropped, ...withoutOriginal } = edit.rec['toolUseResult'] as Rec;
const stripped = lines.map((l, i) =>
  i === edit.index ? JSON.stringify({ ...edit.rec, toolUseResult: withoutOriginal }) : l,
);
const main = { name: fixture.main.name, data: new TextEncoder().encode(stripped.join('\n')) };

async function entriesFor(api: BrainApi, sessionId: SessionId, path: string) {
  const out = [];
  for (const t of await api.listTasks(sessionId))
    for (const e of await api.listCheckpoints(t.id)) if (e.path === path) out.push(e);
  return out;
}

describe('importTranscript with file-history backups', () => {
  const relative = edit.path.slice(fixture.truth.cwd.length + 1);

  it('uses the backup as the before-body of an Edit the transcript gives none', async () => {
    const { api } = await memoryBrain();
    const backup = {
      name: `file-history/${sid}/${edit.backup}`,
      data: new TextEncoder().encode(edit.original),
    };
    const s = (await api.importTranscript({ files: [main, backup] })).sessions[0]!;
    expect(s.added.backups).toBeGreaterThanOrEqual(1);
    const entries = await entriesFor(api, s.sessionId, relative);
    const bodies = await Promise.all(entries.map((e) => api.readCheckpoint(e.id)));
    expect(bodies.some((b) => b.before === edit.original)).toBe(true);
  });

  it('without the folder, that change has one entry with bodies fewer: it is kept as its patch (control)', async () => {
    const withFolder = await memoryBrain();
    const backup = {
      name: `file-history/${sid}/${edit.backup}`,
      data: new TextEncoder().encode(edit.original),
    };
    const a = (await withFolder.api.importTranscript({ files: [main, backup] })).sessions[0]!;
    const without = await memoryBrain();
    const b = (await without.api.importTranscript({ files: [main] })).sessions[0]!;
    expect(b.added.backups).toBe(0);
    const withEntries = await entriesFor(withFolder.api, a.sessionId, relative);
    const withoutEntries = await entriesFor(without.api, b.sessionId, relative);
    const withBodies = (entries: typeof withEntries) => entries.filter((e) => e.patch === null).length;
    expect(withBodies(withEntries)).toBe(withBodies(withoutEntries) + 1);
    // Without it the change is still there: kept as the result's structuredPatch (a patch entry).
    expect(withoutEntries.length).toBe(withEntries.length);
    expect(withoutEntries.filter((e) => e.patch !== null)).toHaveLength(1);
  });
});
