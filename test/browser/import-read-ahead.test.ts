/**
 * A large transcript read by the line reader in a real worker (src/worker/line-reader.worker.ts, started as the brain
 * worker starts it) is imported exactly as one read on the writer's thread: the engine on the page (wa-sqlite in
 * memory), once with the reader and once without, every row of every table the same (the steps' columns unpacked:
 * the reader packs them on native zlib, another valid stream of the same text). The reader really ran: its batches
 * are counted as they arrive, and some steps are packed otherwise than fflate packs them.
 */
import SQLiteESMFactory from '@journeyapps/wa-sqlite/dist/wa-sqlite.mjs';
import wasmUrl from '@journeyapps/wa-sqlite/dist/wa-sqlite.wasm?url';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock';
import { createBrainApi, type EngineDeps } from '../../src/engine/create-engine';
import { readAheadWith, READ_AHEAD_MIN_BYTES } from '../../src/engine/importers/read-ahead';
import { openDatabase } from '../../src/storage/sqlite/database';
import type { SqlDriver } from '../../src/storage/sqlite/driver';
import { unpackJson, type StoredJson } from '../../src/storage/sqlite/repos/step-json';
import { createSqliteEngine } from '../../src/storage/sqlite/vfs/open';
import { startLineReader } from '../../src/worker/read-ahead';
import { codexStream, type CodexStreamCounts } from '../fixtures/transcripts/codex-stream';
import { intercepted } from '../fixtures/reader-threads';

const sqlite = SQLiteESMFactory({ locateFile: () => wasmUrl }).then((m) => createSqliteEngine(m, null));
let counter = 0;

async function pageBrain(options: Partial<Omit<EngineDeps, 'database' | 'storage'>> = {}) {
  const engine = await sqlite;
  const name = `read-ahead-${++counter}.db`;
  const database = await openDatabase(engine, name, {
    read: async () => engine.memory.read(name) ?? new Uint8Array(),
    install: async (bytes) => engine.memory.put(name, bytes),
  });
  const api = createBrainApi({
    database,
    storage: 'memory',
    clock: fixedClock(),
    lifecycle: { enabled: false },
    ...options,
  });
  return { api, driver: database.driver };
}

async function rows(db: SqlDriver) {
  const tables = await db.all<{ name: string }>(
    // The worker packs steps on native zlib: their columns are compared unpacked, and the byte counters (stored
    // sizes) differ by what another stream of the same text weighs.
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('_migrations', 'size_samples', 'byte_counters') ORDER BY name",
  );
  const key = (row: unknown) =>
    JSON.stringify(row, (_, v: unknown) => (v instanceof Uint8Array ? Array.from(v).join(',') : v));
  const out: Record<string, string[]> = {};
  for (const { name } of tables)
    out[name] = (await db.all<Record<string, unknown>>(`SELECT * FROM "${name}"`))
      .map((row) =>
        name === 'steps'
          ? {
              ...row,
              params: unpackJson(row['params'] as StoredJson, row['id'] as number, 'params'),
              result: unpackJson(row['result'] as StoredJson, row['id'] as number, 'result'),
            }
          : row,
      )
      .map(key)
      .sort();
  return out;
}

describe('a transcript read by the line reader worker', () => {
  it('imports exactly as one read on the writer’s thread', async () => {
    const counts: CodexStreamCounts = { lines: 0, prompts: 0, calls: 0 };
    const lines: string[] = [];
    let size = 0;
    for (const line of codexStream(11, Number.MAX_SAFE_INTEGER, counts)) {
      if (size > READ_AHEAD_MIN_BYTES + 512 * 1024) break;
      lines.push(`${line}\n`);
      size += line.length + 1;
    }
    // A line that is not JSON and a torn last one: what the reader reports must come back too.
    lines.splice(100, 0, 'not json\n');
    lines.push('{"timestamp":"2026-11-01T05:00:00Z","type":"resp');
    const file = new File(lines, 'rollout-2026-11-01T00-00-00-0f6a2d9e.jsonl');

    let batches = 0;
    const withReader = await pageBrain({
      readAhead: readAheadWith(() => {
        const thread = startLineReader();
        if (thread === null) throw new Error('No line reader worker here.');
        return intercepted(thread, (m) => {
          if (m.type === 'batch') batches++;
          return m;
        });
      }),
    });
    const here = await pageBrain();
    const a = await withReader.api.importTranscript({ files: [{ name: file.name, data: file }] });
    const b = await here.api.importTranscript({ files: [{ name: file.name, data: file }] });
    expect(batches).toBeGreaterThan(4);
    expect(a).toEqual(b);
    expect(a.sessions[0]!.stats.malformed).toBe(1);
    expect(a.sessions[0]!.stats.tornLastLine).toBe(true);
    expect(a.sessions[0]!.added.toolCalls).toBeGreaterThan(1_000);
    expect(await rows(withReader.driver)).toEqual(await rows(here.driver));
    const packed = async (db: SqlDriver) =>
      (await db.all<{ result: StoredJson }>('SELECT result FROM steps ORDER BY id')).map((r) =>
        typeof r.result === 'string' ? r.result : Array.from(r.result).join(','),
      );
    const [x, y] = [await packed(withReader.driver), await packed(here.driver)];
    expect(x.filter((r, i) => r !== y[i]).length).toBeGreaterThan(0);
  });
});
