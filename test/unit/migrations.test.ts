import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../src/storage/sqlite/migrate';
import { migrations } from '../../src/storage/sqlite/migrations/index';
import { freshDb } from './helpers';

describe('migrations', () => {
  it('migrates an empty database to a sound schema with incremental auto-vacuum', async () => {
    const db = await freshDb();
    const report = await migrate(db);
    expect(report.applied).toEqual(migrations.map((m) => m.id));
    expect(await db.all('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(await db.all('PRAGMA foreign_key_check')).toEqual([]);
    expect(await db.get('PRAGMA auto_vacuum')).toEqual({ auto_vacuum: 2 });
    expect(await db.get('PRAGMA foreign_keys')).toEqual({ foreign_keys: 1 });
    expect((await schemaVersion(db)).version).toBe(migrations.at(-1)?.id);
    await db.close();
  });

  it('is idempotent: a second run applies nothing', async () => {
    const db = await freshDb();
    await migrate(db);
    expect((await migrate(db)).applied).toEqual([]);
    await db.close();
  });

  it('refuses a database written by a newer build and changes nothing', async () => {
    const db = await freshDb();
    await migrate(db);
    await db.run('INSERT INTO _migrations (id, name, applied_at) VALUES (999, ?, 0)', ['from-the-future']);
    const before = await db.all('SELECT * FROM _migrations ORDER BY id');
    await expect(migrate(db)).rejects.toMatchObject({ code: 'NewerSchema' });
    expect(await db.all('SELECT * FROM _migrations ORDER BY id')).toEqual(before);
    await db.close();
  });

  it('rolls a failing migration back whole', async () => {
    const db = await freshDb();
    const broken = [
      ...migrations,
      { id: 500, name: 'broken', sql: 'CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow();
    expect(await db.get(`SELECT name FROM sqlite_schema WHERE name = 'half'`)).toBeUndefined();
    expect(await db.get('SELECT id FROM _migrations WHERE id = 500')).toBeUndefined();
    await db.close();
  });
});
