/**
 * A database is held to the schema: its `sqlite_schema` must be exactly what the migrations up to its version
 * create — the same tables (with their columns, types and constraints, as SQL text), indexes, triggers and
 * views, nothing missing, nothing extra, nothing different. A planted trigger or view would run inside the
 * engine's own statements; a missing table or column would fail later as a raw SQLite error. Both are refused
 * here, before the database is used, with the object named.
 */
import { BrainError } from '../../core/errors';
import type { SqlDriver } from './driver';
import { migrate } from './migrate';
import { migrations } from './migrations/index';
import type { SqliteEngine } from './vfs/open';

export interface SchemaObject {
  readonly type: string;
  readonly name: string;
  readonly table: string;
  /** The statement that created it, whitespace normalised; null for SQLite's automatic indexes. */
  readonly sql: string | null;
}

/** SQLite's own objects (sequences, statistics, automatic indexes) follow from the tables: not compared. */
const internal = /^sqlite_/;

function normalise(sql: string | null): string | null {
  if (sql === null) return null;
  return sql
    .replace(/--[^\n]*\n/g, '\n')
    .replace(/\s+/g, ' ')
    .replace(/\s*([(),])\s*/g, '$1')
    .trim();
}

export async function readSchema(db: SqlDriver): Promise<SchemaObject[]> {
  const rows = await db.all<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    'SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name',
  );
  return rows
    .filter((row) => !internal.test(row.name))
    .map((row) => ({ type: row.type, name: row.name, table: row.tbl_name, sql: normalise(row.sql) }));
}

const describe = (o: SchemaObject) =>
  o.type === 'table' || o.type === 'view' ? `${o.type} ${o.name}` : `${o.type} ${o.name} on ${o.table}`;

/** The differences in words, e.g. "unexpected trigger adv_wipe on events", "missing table events". */
export function compareSchema(expected: readonly SchemaObject[], actual: readonly SchemaObject[]): string[] {
  const byName = (list: readonly SchemaObject[]) => new Map(list.map((o) => [o.name, o]));
  const want = byName(expected);
  const have = byName(actual);
  const problems: string[] = [];
  for (const [name, o] of want) {
    const found = have.get(name);
    if (!found) problems.push(`missing ${describe(o)}`);
    else if (found.type !== o.type)
      problems.push(`${name} is a ${found.type} where the schema has a ${o.type}`);
    else if (found.table !== o.table || found.sql !== o.sql)
      problems.push(
        `${describe(o)} differs from the schema (${o.type === 'table' ? 'columns, types or constraints' : 'definition'})`,
      );
  }
  for (const [name, o] of have) if (!want.has(name)) problems.push(`unexpected ${describe(o)}`);
  // Tables and views first: a missing table also misses its indexes, and the table is the news.
  const rank = (p: string) => (/\b(table|view) \w+( |$)/.test(p.split(' on ')[0] ?? p) ? 0 : 1);
  return problems.sort((a, b) => rank(a) - rank(b));
}

const referenceCache = new WeakMap<SqliteEngine, Map<number, Promise<SchemaObject[]>>>();
let referenceCounter = 0;

/** What the migrations up to `version` create, built once per engine and version in a scratch memory database. */
export function expectedSchema(engine: SqliteEngine, version: number): Promise<SchemaObject[]> {
  let cache = referenceCache.get(engine);
  if (!cache) referenceCache.set(engine, (cache = new Map()));
  let built = cache.get(version);
  if (!built) {
    built = (async () => {
      const name = `schema-reference-${++referenceCounter}.db`;
      const db = await engine.open(name, 'memory');
      try {
        await migrate(
          db,
          migrations.filter((m) => m.id <= version),
        );
        return await readSchema(db);
      } finally {
        await db.close();
        engine.memory.remove(name);
      }
    })();
    built.catch(() => cache.delete(version));
    cache.set(version, built);
  }
  return built;
}

/** Throws `SchemaMismatch` naming what differs when `db` is not exactly the schema of `version`. */
export async function checkSchema(
  engine: SqliteEngine,
  db: SqlDriver,
  version: number,
  what = 'This database',
): Promise<void> {
  const problems = compareSchema(await expectedSchema(engine, version), await readSchema(db));
  if (problems.length === 0) return;
  const shown = problems.slice(0, 5).join('; ');
  const more = problems.length > 5 ? ` (and ${problems.length - 5} more)` : '';
  throw new BrainError(
    'SchemaMismatch',
    `${what} does not have agent-brain's schema (version ${version}): ${shown}${more}. It was not used; nothing was changed.`,
    { problems },
  );
}

/**
 * Columns that hold JSON text, by the migration that created them. `packed`: the column may hold its JSON packed
 * (a BLOB, migration 15: repos/step-json.ts), checked when read — a damaged one is refused then, naming the row.
 */
const jsonColumns: readonly { table: string; column: string; key: string; since: number; packed?: true }[] = [
  { table: 'steps', column: 'params', key: 'id', since: 1, packed: true },
  { table: 'steps', column: 'result', key: 'id', since: 1, packed: true },
  { table: 'cleanup_log', column: 'reason', key: 'id', since: 3 },
  { table: 'events', column: 'data', key: 'id', since: 4 },
  { table: 'compressions', column: 'checkpoint', key: 'id', since: 4 },
  { table: 'compressions', column: 'budget', key: 'id', since: 4, packed: true },
];

/** Throws `CorruptDatabase` naming the first rows whose JSON columns do not parse. */
export async function checkJsonColumns(
  db: SqlDriver,
  version: number,
  what = 'This database',
): Promise<void> {
  const bad: string[] = [];
  for (const { table, column, key, since, packed } of jsonColumns) {
    if (since > version) continue;
    const text = packed ? `typeof(${column}) <> 'blob' AND ` : '';
    const rows = await db.all<{ id: number }>(
      `SELECT ${key} AS id FROM ${table} WHERE ${text}json_valid(${column}) = 0 ORDER BY ${key} LIMIT 3`,
    );
    for (const row of rows) bad.push(`${table} ${row.id} (${column})`);
  }
  if (bad.length === 0) return;
  throw new BrainError(
    'CorruptDatabase',
    `${what} has rows whose data is not valid JSON: ${bad.slice(0, 5).join(', ')}. It was not used; nothing was changed.`,
    { rows: bad },
  );
}
