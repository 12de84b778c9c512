/**
 * History stored compactly, once (migration 15): a step's params and result packed with zlib when that is smaller
 * and read back exactly; a damaged packed column refused with `CorruptDatabase`, never read as empty; the search
 * index a contentless FTS5 table (no second copy of a step's text), its hits' snippets as FTS5 makes them; an
 * older brain's index converted by the migration.
 */
import { describe, expect, it } from 'vitest';
import type { StepId } from '../../src/core/api';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { memoryBrain, olderBrain } from './engine-helpers';

/** A command's output: distinct words on every line, a BOM, non-ASCII text and an astral character. */
const output = (n: number, tag: string) =>
  '\uFEFF' + Array.from({ length: n }, (_, i) => `line ${i} ${tag}word${i}x compiled café 𝄞 ok`).join('\n');

async function brainWithSteps() {
  const brain = await memoryBrain();
  const { id: sessionId } = await brain.api.startSession();
  const { id: taskId } = await brain.api.startTask({ sessionId, title: 't' });
  const long = await brain.api.recordStep({
    taskId,
    tool: 'bash',
    params: { command: 'make all' },
    result: { output: output(3_000, 'long'), exitCode: 0 },
    status: 'ok',
  });
  const short = await brain.api.recordStep({
    taskId,
    tool: 'bash',
    params: { command: 'ls' },
    result: { output: 'a.ts\nshortword' },
    status: 'ok',
  });
  return { ...brain, taskId, long: long.id, short: short.id };
}

const stored = (db: SqlDriver, id: StepId) =>
  db.get<{ params: string; result: string; kind: string; bytes: number }>(
    'SELECT typeof(params) AS params, typeof(result) AS kind, octet_length(result) AS bytes, result FROM steps WHERE id = ?',
    [id],
  );

describe('steps stored packed', () => {
  it('reads back exactly what was recorded; a long result is stored packed and smaller, a short one as text', async () => {
    const { api, database, taskId, long, short } = await brainWithSteps();
    const [a, b] = await api.listSteps(taskId);
    expect(a?.result).toEqual({ output: output(3_000, 'long'), exitCode: 0 });
    expect(a?.params).toEqual({ command: 'make all' });
    expect(b?.result).toEqual({ output: 'a.ts\nshortword' });
    const packed = await stored(database.driver, long);
    expect(packed?.kind).toBe('blob');
    expect(packed?.bytes).toBeLessThan(JSON.stringify(a?.result).length / 4);
    // Short JSON stays text: never bigger than before.
    expect((await stored(database.driver, short))?.kind).toBe('text');
    expect((await stored(database.driver, long))?.params).toBe('text');
  });

  it('refuses a damaged packed result with CorruptDatabase naming the step, never reads it as empty', async () => {
    const { api, database, taskId, long } = await brainWithSteps();
    // Control: it reads before the damage.
    expect((await api.listSteps(taskId))[0]?.result).not.toBeNull();
    // `||` makes text: cast back, so the column stays a BLOB with exactly these bytes.
    const damages = [
      // a byte of the zlib stream changed
      `UPDATE steps SET result = CAST(substr(result, 1, 40) || x'00' || substr(result, 42) AS BLOB) WHERE id = ?`,
      // cut short
      `UPDATE steps SET result = substr(result, 1, octet_length(result) - 9) WHERE id = ?`,
      // the declared size changed
      `UPDATE steps SET result = CAST(x'0100100000' || substr(result, 6) AS BLOB) WHERE id = ?`,
    ];
    for (const damage of damages) {
      const { api: fresh, database: db, taskId: t, long: id } = await brainWithSteps();
      await db.driver.run(damage, [id]);
      expect(await db.driver.get('SELECT typeof(result) AS t FROM steps WHERE id = ?', [id])).toEqual({
        t: 'blob',
      });
      await expect(fresh.listSteps(t)).rejects.toMatchObject({
        code: 'CorruptDatabase',
        details: { stepId: id, part: 'result' },
      });
    }
    expect(long).toBeGreaterThan(0);
    expect(database).toBeDefined();
  });
});

describe('the search index keeps no second copy of a step', () => {
  it('stores step documents without text and still finds head, tail and every line, with snippets', async () => {
    const { api, database, long, short } = await brainWithSteps();
    const docs = await database.driver.all<{ body: string }>(
      `SELECT body FROM history_docs WHERE source = 'step'`,
    );
    expect(docs.map((d) => d.body)).toEqual(['', '']);
    const events = await database.driver.all<{ title: string; body: string }>(
      `SELECT title, body FROM history_docs WHERE source = 'event'`,
    );
    expect(events.every((e) => e.title === '' && e.body === '')).toBe(true);
    const hit = async (word: string) => (await api.searchHistory(word, { kinds: ['step'] })).hits;
    expect((await hit('longword0x')).map((h) => h.stepId)).toEqual([long]);
    expect((await hit('longword2999x')).map((h) => h.stepId)).toEqual([long]);
    expect((await hit('shortword')).map((h) => h.stepId)).toEqual([short]);
    expect((await hit('longword2999x'))[0]?.snippet).toContain('[longword2999x]');
    expect((await hit('shortword'))[0]?.snippet).toContain('[shortword]');
    // Control: a word recorded nowhere.
    expect(await hit('neverrecordedword')).toEqual([]);
    const table = await database.driver.get<{ sql: string }>(
      `SELECT sql FROM sqlite_schema WHERE name = 'history_fts'`,
    );
    expect(table?.sql).toContain("content = ''");
  });
});

describe('migration 15 on an older brain', () => {
  it('rebuilds the index contentless, drops the step documents’ copies, and search finds what it found', async () => {
    const result = JSON.stringify({ output: 'collected 3 items\noldstepword passed' });
    const { api, database } = await olderBrain('compact-old.db', 14, async (old) => {
      await old.exec(`
      INSERT INTO sessions (id, title, created_at, updated_at) VALUES (1, 's', 0, 0);
      INSERT INTO tasks (id, session_id, title, state, created_at, updated_at) VALUES (1, 1, 't', 'running', 0, 0);
      INSERT INTO steps (id, task_id, seq, tool, params, result, status, created_at)
        VALUES (1, 1, 1, 'bash', '{"command":"pytest"}', '${result}', 'ok', 0);
      INSERT INTO history_docs (source, source_id, session_id, task_id, step_id, kind, title, body, created_at)
        VALUES ('step', 1, 1, 1, 1, 'step', 'Step 1: bash (ok)', 'pytest' || char(10) || 'collected 3 items' || char(10) || 'oldstepword passed', 0),
               ('event', 7, 1, 1, NULL, 'decision', 'Decision', 'oldeventword chosen', 0);
    `);
    });
    expect(await database.driver.all(`SELECT source, body FROM history_docs ORDER BY source`)).toEqual([
      { source: 'event', body: 'oldeventword chosen' },
      { source: 'step', body: '' },
    ]);
    const step = (await api.searchHistory('oldstepword')).hits;
    expect(step.map((h) => h.stepId)).toEqual([1]);
    expect(step[0]?.snippet).toContain('[oldstepword]');
    expect((await api.searchHistory('oldeventword')).hits.map((h) => h.kind)).toEqual(['decision']);
    // The old step reads as it was stored (text), and a new one is packed.
    expect((await api.listSteps(1 as never))[0]?.result).toEqual(JSON.parse(result));
  });
});
