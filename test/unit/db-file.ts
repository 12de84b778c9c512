/**
 * A database file as SQLite itself measures it. wa-sqlite's build has no `dbstat` table, so the bytes the engine
 * wrote (an exported agent.db) are opened, as a copy in memory, with native SQLite (better-sqlite3, a dev
 * dependency with dbstat and FTS5 compiled in): bytes per table from its pages, the terms of the search index, the
 * file with its free pages dropped. Node only.
 */
import { createRequire } from 'node:module';

interface NativeStatement {
  all(...params: unknown[]): unknown[];
}

/** The part of a better-sqlite3 `Database` used here (the repository has no type package for it). */
interface NativeDatabase {
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  serialize(): Uint8Array;
  close(): unknown;
}

const NativeSqlite = createRequire(import.meta.url)('better-sqlite3') as new (
  bytes: Uint8Array,
) => NativeDatabase;

function withCopy<T>(file: Uint8Array, read: (db: NativeDatabase) => T): T {
  // better-sqlite3 deserialises a Buffer into an in-memory database of its own: the caller's bytes stay as they are.
  const db = new NativeSqlite(Buffer.from(file));
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * Bytes of every table, its indexes included (an FTS5 table's shadow tables each count as one: `history_fts_data`,
 * `history_fts_idx`, …), from dbstat: every page of its b-trees and their overflow chains. Free pages belong to
 * none. `file`: page size × page count of the file as written.
 *
 * `only`: SQL run on the copy first, to measure a part of a table (delete the rest: triggers keep an FTS5 index in
 * step). `mergedFts`: FTS5 tables whose index is then merged into one segment (`optimize`, on the copy). FTS5
 * removes a document's entries lazily — a delete adds tombstones, and background merges drop both as segments
 * meet — so at any moment its pages swing with the merge phase (between 0.14 and 0.92 MiB task after task in the
 * seed's shape, with no trend over 200 tasks) whatever the index holds; merged, they measure what it holds.
 */
export function bytesByTable(
  file: Uint8Array,
  options: { readonly only?: string; readonly mergedFts?: readonly string[] } = {},
): { tables: Map<string, number>; file: number } {
  return withCopy(file, (db) => {
    const [size] = db
      .prepare('SELECT page_size * page_count AS bytes FROM pragma_page_size, pragma_page_count')
      .all() as { bytes: number }[];
    if (options.only !== undefined) db.exec(options.only);
    for (const fts of options.mergedFts ?? []) db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
    const rows = db
      .prepare(
        `SELECT coalesce(s.tbl_name, d.name) AS name, sum(d.pgsize) AS bytes
         FROM dbstat d LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY 1 ORDER BY 1`,
      )
      .all() as { name: string; bytes: number }[];
    return { tables: new Map(rows.map((r) => [r.name, r.bytes])), file: size?.bytes ?? 0 };
  });
}

/** The terms of an FTS5 table's index that start with `prefix` (lower case, as the tokenizer stored them). */
export function indexTerms(file: Uint8Array, fts: string, prefix: string): string[] {
  return withCopy(file, (db) => {
    db.exec(`CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, ${fts}, row)`);
    const rows = db
      .prepare('SELECT term FROM temp.terms WHERE term >= ? AND term < ? ORDER BY term')
      .all(prefix, `${prefix}\u{10ffff}`) as { term: string }[];
    return rows.map((r) => r.term);
  });
}

/** The file rewritten without its free pages (VACUUM): every byte left belongs to a live row or index entry. */
export function liveBytes(file: Uint8Array): Uint8Array {
  return withCopy(file, (db) => {
    db.exec('VACUUM');
    return new Uint8Array(db.serialize());
  });
}

/** Whether `text` (as UTF-8) occurs anywhere in `bytes`. */
export function holdsText(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(text, 'utf8'));
}
