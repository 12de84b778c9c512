import { BrainError } from '../../core/errors';
import type { SqlDriver } from './driver';
import { migrations as knownMigrations, type Migration } from './migrations/index';

export interface MigrationReport {
  readonly applied: readonly number[];
  readonly version: number;
}

/** The schema version a database reports, without changing it (0 for an empty file). */
export async function schemaVersion(driver: SqlDriver): Promise<{ version: number; unknown: number[] }> {
  const table = await driver.get(
    `SELECT 1 AS found FROM sqlite_schema WHERE type = 'table' AND name = '_migrations'`,
  );
  if (!table) return { version: 0, unknown: [] };
  const rows = await driver.all<{ id: number }>('SELECT id FROM _migrations ORDER BY id');
  const known = new Set(knownMigrations.map((m) => m.id));
  return {
    version: rows.reduce((max, row) => Math.max(max, row.id), 0),
    unknown: rows.map((row) => row.id).filter((id) => !known.has(id)),
  };
}

/**
 * Applies the migrations a database lacks, each in one transaction, and records them. A database that has
 * migrations this build does not know was written by a newer build: it is refused, never "repaired".
 */
export async function migrate(
  driver: SqlDriver,
  migrations: readonly Migration[] = knownMigrations,
): Promise<MigrationReport> {
  const empty = await driver.get<{ n: number }>('SELECT count(*) AS n FROM sqlite_schema');
  if (empty?.n === 0) {
    // auto_vacuum only takes effect before the first table is created.
    await driver.exec('PRAGMA auto_vacuum = INCREMENTAL');
  }
  await driver.exec(
    'CREATE TABLE IF NOT EXISTS _migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    (await driver.all<{ id: number }>('SELECT id FROM _migrations')).map((row) => row.id),
  );
  const known = new Set(migrations.map((m) => m.id));
  const unknown = [...applied].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new BrainError(
      'NewerSchema',
      `This agent.db was written by a newer agent-brain (schema migrations ${unknown.join(', ')} are unknown to this ` +
        'build). Update the app to open it; nothing was changed.',
      { unknown },
    );
  }
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    await driver.transaction(async () => {
      await driver.exec(migration.sql);
      await driver.run('INSERT INTO _migrations (id, name, applied_at) VALUES (?, ?, ?)', [
        migration.id,
        migration.name,
        Date.now(),
      ]);
      await driver.exec(`PRAGMA user_version = ${migration.id}`);
    });
    done.push(migration.id);
  }
  const version = migrations.reduce((max, m) => Math.max(max, m.id), 0);
  return { applied: done, version };
}
