import { is } from 'drizzle-orm'
import { getTableConfig, IndexedColumn, PgTable } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '../test/databases.ts'
import * as schema from './schema.ts'

// schema.ts describes the migrated database for typing; the migrations are the truth. This holds
// the two together on the database the run uses (PGlite, or PostgreSQL with TEST_DB=postgres in
// the server-pg project): every table of the migrated database (schema_migrations, which migrate.ts
// creates, too) is in schema.ts with the same columns, types, nullability, defaults and primary
// key; schema.ts has no table or column the database lacks; and every foreign key, unique
// constraint and index schema.ts declares exists. Tables only: views, functions and triggers are
// out of scope, and so are check constraints (schema.ts gives them as a varchar's enum or a doc).

let t: Awaited<ReturnType<typeof openTestDatabase>>
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(() => t?.close())

type Col = { table: string; column: string; type: string; not_null: boolean; has_default: boolean }

const tables = Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable))
const configs = tables.map((table) => getTableConfig(table))
const myTables = new Set(configs.map((c) => c.name))

/** Drizzle's SQL type as format_type() spells it: 'varchar(20)' is 'character varying(20)'. */
function pgType(sqlType: string): string {
  const array = /^(.*?)((?:\[\d*\])+)$/.exec(sqlType)
  if (array) return pgType(array[1]) + array[2].replace(/\d+/g, '')
  // 'timestamp (3) with time zone', 'numeric(10, 2)': format_type() has no spaces around the modifiers.
  const [, base, mods = '', rest] = /^(\w+)(?:\s*(\([^)]*\)))?(.*)$/.exec(sqlType)!
  const aliases: Record<string, string> = {
    bigserial: 'bigint',
    serial: 'integer',
    smallserial: 'smallint',
    varchar: 'character varying',
    char: 'character',
  }
  const zone = (base === 'timestamp' || base === 'time') && rest === '' ? ' without time zone' : ''
  return `${aliases[base] ?? base}${mods.replace(/\s+/g, '')}${rest}${zone}`
}

const describeColumn = (c: { type: string; not_null: boolean; has_default: boolean }) =>
  `${c.type}${c.not_null ? ' NOT NULL' : ''}${c.has_default ? ' DEFAULT' : ''}`

async function query<T>(sql: string) {
  return t.database.withConnection((conn) => conn.query<T>(sql))
}

/** Ordinary and partitioned tables of the current schema (relkind r, p); views are out of scope. */
const TABLES = `SELECT c.oid, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`

/** The names of a relation's attribute numbers, in order; 0 (an index expression) is '(expression)'. */
const names = (attnums: string, rel: string) =>
  `array(SELECT coalesce(a.attname, '(expression)') FROM unnest(${attnums}) WITH ORDINALITY u(n, o)
     LEFT JOIN pg_attribute a ON a.attrelid = ${rel} AND a.attnum = u.n ORDER BY u.o)::text[]`

describe('schema.ts against the migrated database', () => {
  it('has every table and column of the database, with its type, nullability and default, and no other', async () => {
    const dbCols = await query<Col>(`
      SELECT t.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
        a.attnotnull AS not_null, a.atthasdef AS has_default
      FROM (${TABLES}) t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY t.relname, a.attnum`)
    const db = new Map(dbCols.map((c) => [`${c.table}.${c.column}`, c]))
    const dbTables = new Set(dbCols.map((c) => c.table))

    const mine = new Map<string, Col>()
    for (const cfg of configs) {
      const pk = new Set(cfg.primaryKeys.flatMap((k) => k.columns.map((c) => c.name)))
      for (const c of cfg.columns) {
        mine.set(`${cfg.name}.${c.name}`, {
          table: cfg.name,
          column: c.name,
          type: pgType(c.getSQLType()),
          not_null: c.notNull || c.primary || pk.has(c.name),
          has_default: c.hasDefault,
        })
      }
    }

    const problems: string[] = []
    for (const table of dbTables)
      if (!myTables.has(table)) problems.push(`table ${table}: in the database, missing from schema.ts`)
    for (const table of myTables)
      if (!dbTables.has(table)) problems.push(`table ${table}: in schema.ts, not in the database`)
    for (const [key, d] of db) {
      if (!myTables.has(d.table)) continue
      const m = mine.get(key)
      if (!m) problems.push(`${key}: in the database (${describeColumn(d)}), missing from schema.ts`)
      else if (describeColumn(m) !== describeColumn(d))
        problems.push(`${key}: database ${describeColumn(d)}, schema.ts ${describeColumn(m)}`)
    }
    for (const [key, m] of mine)
      if (dbTables.has(m.table) && !db.has(key))
        problems.push(`${key}: in schema.ts (${describeColumn(m)}), not in the database`)
    expect(problems, 'schema.ts and the migrated database disagree').toEqual([])
    expect(configs.length, 'a table exported twice from schema.ts').toBe(myTables.size)
  })

  it('has the primary key of every table', async () => {
    const rows = await query<{ table: string; columns: string[] }>(`
      SELECT t.relname AS table, ${names('k.conkey', 't.oid')} AS columns
      FROM (${TABLES}) t JOIN pg_constraint k ON k.conrelid = t.oid AND k.contype = 'p'`)
    // Tables schema.ts lacks are the first test's failure.
    const db = Object.fromEntries(
      rows.filter((r) => myTables.has(r.table)).map((r) => [r.table, r.columns.join(', ')]),
    )
    const mine = Object.fromEntries(
      configs.flatMap((cfg) => {
        const cols = [
          ...cfg.columns.filter((c) => c.primary).map((c) => c.name),
          ...cfg.primaryKeys.flatMap((k) => k.columns.map((c) => c.name)),
        ]
        return cols.length ? [[cfg.name, cols.join(', ')]] : []
      }),
    )
    expect(mine, 'primary keys by table').toEqual(db)
  })

  it('declares only foreign keys, unique constraints and indexes the database has', async () => {
    // Each as one line: what schema.ts declares must be among the database's. Index predicates,
    // operator classes, sort orders and INCLUDE columns are not compared, only that there is a
    // predicate (a partial index).
    const fks = await query<{ line: string }>(`
      SELECT 'foreign key ' || t.relname || '(' || array_to_string(${names('k.conkey', 't.oid')}, ', ') || ') -> '
        || f.relname || '(' || array_to_string(${names('k.confkey', 'f.oid')}, ', ') || ') on delete '
        || CASE k.confdeltype WHEN 'a' THEN 'no action' WHEN 'r' THEN 'restrict' WHEN 'c' THEN 'cascade'
             WHEN 'n' THEN 'set null' ELSE 'set default' END AS line
      FROM (${TABLES}) t JOIN pg_constraint k ON k.conrelid = t.oid AND k.contype = 'f'
      JOIN pg_class f ON f.oid = k.confrelid`)
    const uniques = await query<{ line: string }>(`
      SELECT 'unique ' || t.relname || '(' || array_to_string(${names('k.conkey', 't.oid')}, ', ') || ')' AS line
      FROM (${TABLES}) t JOIN pg_constraint k ON k.conrelid = t.oid AND k.contype = 'u'`)
    const indexes = await query<{ line: string }>(`
      SELECT CASE WHEN i.indisunique THEN 'unique index ' ELSE 'index ' END || c.relname || ' on ' || t.relname
        || '(' || array_to_string(${names('i.indkey[0:i.indnkeyatts - 1]', 't.oid')}, ', ') || ')'
        || CASE WHEN i.indpred IS NULL THEN '' ELSE ' where …' END AS line
      FROM (${TABLES}) t JOIN pg_index i ON i.indrelid = t.oid JOIN pg_class c ON c.oid = i.indexrelid`)
    const db = new Set([...fks, ...uniques, ...indexes].map((r) => r.line))

    const list = (cols: { name: string }[]) => cols.map((c) => c.name).join(', ')
    const declared: string[] = []
    for (const cfg of configs) {
      for (const fk of cfg.foreignKeys) {
        const r = fk.reference()
        const target = `${getTableConfig(r.foreignTable).name}(${list(r.foreignColumns)})`
        const onDelete = fk.onDelete ?? 'no action'
        declared.push(`foreign key ${cfg.name}(${list(r.columns)}) -> ${target} on delete ${onDelete}`)
      }
      for (const c of cfg.columns) if (c.isUnique) declared.push(`unique ${cfg.name}(${c.name})`)
      for (const u of cfg.uniqueConstraints) declared.push(`unique ${cfg.name}(${list(u.columns)})`)
      for (const { config: i } of cfg.indexes) {
        const cols = i.columns.map((c) => (is(c, IndexedColumn) ? c.name : '(expression)')).join(', ')
        declared.push(
          `${i.unique ? 'unique index' : 'index'} ${i.name} on ${cfg.name}(${cols})${i.where ? ' where …' : ''}`,
        )
      }
    }
    expect(declared.length).toBeGreaterThan(0)
    expect(
      declared.filter((d) => !db.has(d)),
      'declared in schema.ts, not so in the database',
    ).toEqual([])
  })
})
