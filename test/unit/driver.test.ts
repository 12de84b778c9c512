import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../src/core/utf8';
import { freshDb } from './helpers';

describe('the wa-sqlite driver', () => {
  it('binds and returns integers beyond 32 bits exactly, and blobs as copies', async () => {
    const db = await freshDb();
    await db.exec('CREATE TABLE t (n INTEGER, b BLOB, r REAL)');
    const big = 1_732_000_000_123;
    await db.run('INSERT INTO t VALUES (?, ?, ?)', [big, new Uint8Array([1, 2, 3]), 0.5]);
    await db.run('INSERT INTO t VALUES (?, ?, ?)', [2n ** 60n, null, null]);
    const rows = await db.all<{ n: number | bigint; b: Uint8Array | null; r: number | null }>(
      'SELECT * FROM t ORDER BY rowid',
    );
    expect(rows[0]).toEqual({ n: big, b: new Uint8Array([1, 2, 3]), r: 0.5 });
    expect(await db.get('SELECT typeof(n) AS t FROM t WHERE rowid = 1')).toEqual({ t: 'integer' });
    expect(rows[1]?.n).toBe(2n ** 60n);
    await db.close();
  });

  it('binds strings of every kind exactly as their UTF-8, short and long', async () => {
    const db = await freshDb();
    const texts = [
      '',
      'plain',
      'é€ and 😀 and 𝄞',
      `a lone high \uD800 and low \uDC00 surrogate, and one at the end \uD83D`,
      'x'.repeat(70_000) + '€😀', // past the short-string allocation
      '€'.repeat(90_000),
    ];
    for (const text of texts) {
      const bytes = new TextEncoder().encode(text);
      expect(utf8Length(text)).toBe(bytes.length);
      const row = await db.get<{ t: string; n: number; h: string }>(
        'SELECT ?1 AS t, length(CAST(?1 AS BLOB)) AS n, hex(CAST(?1 AS BLOB)) AS h',
        [text],
      );
      expect(row?.n).toBe(bytes.length);
      expect(row?.h).toBe(Buffer.from(bytes).toString('hex').toUpperCase());
      expect(row?.t === new TextDecoder().decode(bytes)).toBe(true);
    }
    await db.close();
  });

  it('nests transactions with savepoints: an inner failure rolls back only the inner part', async () => {
    const db = await freshDb();
    await db.exec('CREATE TABLE t (v TEXT)');
    await db.transaction(async () => {
      await db.run('INSERT INTO t VALUES (?)', ['outer']);
      await expect(
        db.transaction(async () => {
          await db.run('INSERT INTO t VALUES (?)', ['inner']);
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
    });
    expect(await db.all('SELECT v FROM t')).toEqual([{ v: 'outer' }]);
    await db.close();
  });

  it('rolls back when COMMIT itself fails, and the next transaction works', async () => {
    const db = await freshDb();
    await db.exec(`
      PRAGMA foreign_keys = ON;
      CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);`);
    await expect(
      db.transaction(async () => {
        await db.run('INSERT INTO child VALUES (42)'); // violates the deferred key: COMMIT fails
      }),
    ).rejects.toMatchObject({ code: 'InvalidArgument' });
    expect(await db.all('SELECT * FROM child')).toEqual([]);
    await db.transaction(async () => {
      await db.run('INSERT INTO parent VALUES (1)');
      await db.run('INSERT INTO child VALUES (1)');
    });
    expect(await db.all('SELECT p FROM child')).toEqual([{ p: 1 }]);
    await db.close();
  });

  it('refuses use after close with a typed error', async () => {
    const db = await freshDb();
    await db.close();
    await expect(db.all('SELECT 1')).rejects.toMatchObject({ code: 'Closed' });
  });
});
