import { BrainError } from '../../core/errors';
import type { Row, SqlDriver, SqlParams } from './driver';
import { integrityCheck } from './health';
import { migrate, schemaVersion } from './migrate';
import { checkJsonColumns, checkSchema } from './schema-check';
import type { SqliteEngine } from './vfs/open';

/** Files that belong to an install (a whole-brain archive's `.agent` files), and the project they go into. */
export interface StagedFiles {
  readonly project: { readonly kind: 'demo' | 'opfs' | 'handle'; readonly name: string };
  readonly files: readonly { readonly path: string; readonly bytes: Uint8Array }[];
}

/** Raw access to the database file, used only while no connection has it open. */
export interface DatabaseFilePort {
  read(): Promise<Uint8Array>;
  /**
   * Replaces the file in one step that survives a kill at any instant (opfs.ts: `installOpfsDatabase`): after it,
   * or after a kill and `recover`, the file holds the old or the new bytes, whole. Refuses with `QuotaExceeded`
   * before writing anything when there is no room for the new bytes beside the old.
   */
  install(bytes: Uint8Array, files?: StagedFiles): Promise<void>;
  /** Finishes or discards an install a kill interrupted; run before the database is opened. */
  recover?(): Promise<unknown>;
  /** Staged files of a committed install not yet written into their project (a kill came in between). */
  pendingFiles?(): Promise<StagedFiles | null>;
  /** The staged files are in their project: the install is over. */
  finishInstall?(): Promise<void>;
}

export interface ImportedDatabase {
  readonly schemaVersion: number;
  readonly migrated: readonly number[];
  readonly bytes: number;
}

/** agent.db: one migrated connection behind a stable driver, and whole-file export/import. */
export interface Database {
  readonly name: string;
  readonly driver: SqlDriver;
  readonly schemaVersion: number;
  exportBytes(): Promise<Uint8Array>;
  /**
   * Validates `bytes`, then installs them in one kill-safe step (with `files` staged in the same commit, to be
   * written into their project by the caller, who then calls `finishInstall`). Refused → nothing changed.
   */
  importBytes(
    bytes: Uint8Array,
    options?: { readonly files?: StagedFiles },
  ): Promise<ImportedDatabase & { readonly undo: () => Promise<void> }>;
  /** What a kill left to write into a project after a committed install, and the call that ends it. */
  pendingFiles(): Promise<StagedFiles | null>;
  finishInstall(): Promise<void>;
  /** Runs every check `importBytes` runs, in memory, without installing anything. */
  validateImport(bytes: Uint8Array): Promise<ImportedDatabase>;
  close(): Promise<void>;
}

/**
 * A WAL database's log copied into its file and emptied (truncated to 0 bytes, unless `mode` is 'passive'); false
 * when the log was empty, or
 * the connection is not in WAL mode (then it costs nothing). PASSIVE first, which copies every frame here (one
 * connection: no reader holds a frame back), then TRUNCATE only when there was something, since truncating costs
 * an OPFS call even when the log is empty. A WAL checkpoint that could not copy everything is an error, not a false:
 * callers rely on the database file being whole afterwards.
 */
export async function checkpointWal(
  db: SqlDriver,
  mode: 'truncate' | 'passive' = 'truncate',
): Promise<boolean> {
  type Result = { busy: number; log: number; checkpointed: number };
  const passive = await db.get<Result>('PRAGMA wal_checkpoint(PASSIVE)');
  // Not in WAL mode: SQLite answers (0, -1, -1).
  if (!passive || passive.log <= 0) return false;
  // 'passive' (cleanup between two tasks): every frame copied, the log left at its size — SQLite writes it again
  // from its start at the next commit — so no truncation and its OPFS calls.
  if (mode === 'passive') {
    if (passive.busy !== 0 || passive.checkpointed !== passive.log)
      throw new BrainError(
        'Internal',
        `The write-ahead log could not be copied into the database (${JSON.stringify(passive)}).`,
      );
    return true;
  }
  const truncated = await db.get<Result>('PRAGMA wal_checkpoint(TRUNCATE)');
  if (!truncated || truncated.busy !== 0 || truncated.log !== 0) {
    throw new BrainError(
      'Internal',
      `The write-ahead log could not be emptied into the database (${JSON.stringify(truncated)}).`,
    );
  }
  return true;
}

const SQLITE_HEADER = 'SQLite format 3\0';

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Cheap checks before SQLite sees the bytes: the magic string and a page size that divides the file. */
export function checkSqliteHeader(bytes: Uint8Array): void {
  const magic = new TextDecoder('latin1').decode(bytes.subarray(0, 16));
  if (bytes.byteLength < 512 || magic !== SQLITE_HEADER) {
    throw new BrainError(
      'NotSqlite',
      'This file is not an SQLite database (its header is missing); nothing was changed.',
    );
  }
  const raw = ((bytes[16] ?? 0) << 8) | (bytes[17] ?? 0);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0 || bytes.byteLength % pageSize !== 0) {
    throw new BrainError(
      'CorruptDatabase',
      'This SQLite file is truncated or damaged (its size does not match its page size); nothing was changed.',
    );
  }
}

/**
 * A whole database file marked as in rollback-journal mode (its read/write version bytes 18 and 19 set from 2, WAL,
 * to 1): what `PRAGMA journal_mode = DELETE` writes once the WAL is checkpointed and empty, which it must be for the
 * file alone to be the database. In place; returns `bytes`.
 */
export function asRollbackJournalFile(bytes: Uint8Array): Uint8Array {
  if (bytes.byteLength >= 100 && (bytes[18] === 2 || bytes[19] === 2)) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return bytes;
}

let scratchCounter = 0;

/**
 * Opens a copy of `bytes` in memory, checks it is a sound agent-brain database and migrates an older schema.
 * Returns the bytes to install. The current database is not touched.
 */
export async function prepareImport(
  engine: SqliteEngine,
  bytes: Uint8Array,
): Promise<{ bytes: Uint8Array; schemaVersion: number; migrated: readonly number[] }> {
  checkSqliteHeader(bytes);
  // A WAL-mode file (what desktop tools often write) has 2 in its read/write version bytes; the file itself is
  // complete as of its last checkpoint (a -wal file beside it was not given). Reading it in rollback-journal mode
  // is what `PRAGMA journal_mode = DELETE` would leave.
  asRollbackJournalFile(bytes);
  const name = `import-candidate-${++scratchCounter}.db`;
  engine.memory.put(name, bytes);
  try {
    const db = await engine.open(name, 'memory');
    try {
      // A file that is not ours yet: its schema may not call functions with side effects, and every cell's size
      // is checked as it is read (a crafted page cannot make SQLite read past it).
      await db.exec('PRAGMA trusted_schema = OFF; PRAGMA cell_size_check = ON');
      const problems = await integrityCheck(db);
      if (problems[0] !== 'ok') {
        throw new BrainError(
          'CorruptDatabase',
          `The database fails its integrity check: ${problems.slice(0, 3).join('; ')}. Nothing was changed.`,
        );
      }
      const { version, unknown } = await schemaVersion(db);
      if (version === 0) {
        const tables = await db.get<{ n: number }>(
          `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'`,
        );
        if ((tables?.n ?? 0) > 0) {
          throw new BrainError(
            'NotSqlite',
            'This is an SQLite file, but not an agent-brain database. Nothing was changed.',
          );
        }
      }
      if (unknown.length > 0) {
        throw new BrainError(
          'NewerSchema',
          `This database was written by a newer agent-brain (unknown migrations ${unknown.join(', ')}). Update the app to import it; nothing was changed.`,
        );
      }
      // Held to the schema before anything of ours runs on it (a planted trigger would fire in a migration),
      // and again after migrating; JSON columns parse.
      await checkSchema(engine, db, version, 'This database');
      const report = await migrate(db);
      await checkSchema(engine, db, report.version, 'This database');
      await checkJsonColumns(db, report.version, 'This database');
      await db.close();
      const prepared = engine.memory.read(name);
      if (!prepared) throw new BrainError('Internal', 'The validated import vanished from memory.');
      return { bytes: prepared, schemaVersion: report.version, migrated: report.applied };
    } catch (error) {
      await db.close();
      throw error;
    }
  } finally {
    engine.memory.remove(name);
  }
}

export async function openDatabase(
  engine: SqliteEngine,
  name: string,
  file: DatabaseFilePort,
): Promise<Database> {
  let current: SqlDriver | null = null;
  let version = 0;

  async function connect() {
    const driver = await engine.open(name);
    try {
      // The file on disk is held to the schema at every open too (a tool other than agent-brain may have
      // changed it): before migrating, against its own version, and after.
      const before = await schemaVersion(driver);
      if (before.version > 0 && before.unknown.length === 0)
        await checkSchema(engine, driver, before.version, `${name}`);
      version = (await migrate(driver)).version;
      await checkSchema(engine, driver, version, `${name}`);
      // In WAL mode a new database's pages, the migrations' and whatever a kill left in the log are copied into
      // the file now: a brand-new brain must not sit in the log beside an empty file (a kill then would leave a
      // file that reads as missing, open-opfs.ts: BrainMissing), and the first idle WAL checkpoint stays small.
      await checkpointWal(driver);
    } catch (error) {
      await driver.close();
      throw error;
    }
    current = driver;
  }

  function live(): SqlDriver {
    if (!current) throw new BrainError('Closed', 'The database is closed.');
    return current;
  }

  /**
   * Closes the connection (releasing the file), runs `fn`, and reconnects whatever happened. The WAL is emptied
   * into the file first (a clean close does it too, but silently): `fn` reads or replaces the database file as a
   * whole, so it must hold every committed transaction and the log nothing. A WAL checkpoint that fails (a full
   * quota) fails here, with the connection still open.
   */
  async function whileClosed<T>(fn: () => Promise<T>): Promise<T> {
    await checkpointWal(live());
    await live().close();
    current = null;
    try {
      return await fn();
    } finally {
      await connect();
    }
  }

  await file.recover?.();
  await connect();

  const driver: SqlDriver = {
    all: <T = Row>(sql: string, params?: SqlParams) => live().all<T>(sql, params),
    get: <T = Row>(sql: string, params?: SqlParams) => live().get<T>(sql, params),
    run: (sql, params) => live().run(sql, params),
    exec: (sql) => live().exec(sql),
    transaction: (fn) => live().transaction(fn),
    close: async () => {
      await current?.close();
      current = null;
    },
  };

  return {
    name,
    driver,
    get schemaVersion() {
      return version;
    },
    // The file of a WAL-mode database, checkpointed: complete, and marked as a rollback-journal file so that a
    // reader without WAL support (no shared memory: an in-memory or other wasm VFS) opens it too.
    exportBytes: () => whileClosed(async () => asRollbackJournalFile(await file.read())),

    async validateImport(bytes) {
      const candidate = await prepareImport(engine, bytes);
      return {
        schemaVersion: candidate.schemaVersion,
        migrated: candidate.migrated,
        bytes: candidate.bytes.byteLength,
      };
    },

    pendingFiles: async () => (await file.pendingFiles?.()) ?? null,
    finishInstall: async () => {
      await file.finishInstall?.();
    },

    async importBytes(bytes, options = {}) {
      const candidate = await prepareImport(engine, bytes);
      const prepared = candidate.bytes;
      let previous: Uint8Array | null = null;
      await whileClosed(async () => {
        previous = await file.read();
        await file.install(prepared, options.files);
        // The candidate passed its integrity check in memory; what is left to prove is that the file now holds
        // exactly those bytes. One read and a compare does that (a quick check would read it page by page).
        if (!sameBytes(await file.read(), prepared)) {
          await file.install(previous);
          await file.finishInstall?.();
          throw new BrainError(
            'CorruptDatabase',
            'The imported database did not read back as written, so the previous one was put back. Nothing was changed.',
          );
        }
      });
      const undo = async () => {
        const restore = previous as Uint8Array | null;
        if (restore) await whileClosed(() => file.install(restore));
        await file.finishInstall?.();
      };
      return { schemaVersion: version, migrated: candidate.migrated, bytes: prepared.byteLength, undo };
    },

    close: () => driver.close(),
  };
}
