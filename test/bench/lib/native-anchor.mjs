/**
 * The native anchor: the reference design (each before/after body deflated when that saves space, else kept
 * plain; one row per body) on native Node zlib and a native SQLite (better-sqlite3), replayed with the same
 * batches as the engine: one transaction per package version.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import Database from 'better-sqlite3';

const MiB = 1024 * 1024;

export function nativeAnchor(corpusDir, manifest) {
  const bin = readFileSync(join(corpusDir, 'bodies.bin'));
  const bodyOf = (index) => {
    const body = manifest.bodies[index];
    return { bytes: bin.subarray(body.offset, body.offset + body.length), text: body.text };
  };
  const dir = mkdtempSync(join(tmpdir(), 'agent-brain-bench-native-'));
  try {
    const db = new Database(join(dir, 'native.db'));
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = FULL');
    db.exec(
      `CREATE TABLE bodies (id INTEGER PRIMARY KEY, path TEXT NOT NULL, compressed INTEGER NOT NULL, is_text INTEGER NOT NULL, raw_size INTEGER NOT NULL, bytes BLOB NOT NULL)`,
    );
    const insert = db.prepare(
      'INSERT INTO bodies (path, compressed, is_text, raw_size, bytes) VALUES (?, ?, ?, ?, ?)',
    );
    // Text goes in as the agent has it (a string), as it does through the engine.
    const batches = manifest.batches.map((batch) =>
      batch.changes.flatMap((change) =>
        [change.before, change.after]
          .filter((index) => index !== null)
          .map((index) => {
            const { bytes, text } = bodyOf(index);
            return { path: change.path, text, value: text ? bytes.toString('utf8') : Buffer.from(bytes) };
          }),
      ),
    );
    let rawBytes = 0;
    let storedBytes = 0;
    const writeBatch = db.transaction((sides) => {
      for (const side of sides) {
        const raw = side.text ? Buffer.from(side.value, 'utf8') : side.value;
        const deflated = deflateSync(raw, { level: 6 });
        const compressed = deflated.length < raw.length;
        const stored = compressed ? deflated : raw;
        insert.run(side.path, compressed ? 1 : 0, side.text ? 1 : 0, raw.length, stored);
        rawBytes += raw.length;
        storedBytes += stored.length;
      }
    });
    let started = performance.now();
    for (const sides of batches) writeBatch(sides);
    const writeSeconds = (performance.now() - started) / 1000;

    const select = db.prepare('SELECT compressed, is_text, bytes FROM bodies WHERE id = ?');
    const count = db.prepare('SELECT count(*) AS n FROM bodies').get().n;
    let readBytes = 0;
    started = performance.now();
    for (let id = 1; id <= count; id++) {
      const row = select.get(id);
      const raw = row.compressed ? inflateSync(row.bytes) : row.bytes;
      const value = row.is_text ? raw.toString('utf8') : raw;
      readBytes += row.is_text ? raw.length : value.length;
    }
    const readSeconds = (performance.now() - started) / 1000;
    if (readBytes !== rawBytes) throw new Error(`native read ${readBytes} of ${rawBytes} bytes`);
    db.close();
    const fileBytes = statSync(join(dir, 'native.db')).size;
    return {
      rawBytes,
      storedBytes,
      fileBytes,
      writeSeconds,
      readSeconds,
      writeMiBs: rawBytes / MiB / writeSeconds,
      readMiBs: rawBytes / MiB / readSeconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
