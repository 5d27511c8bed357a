import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { AppContext } from '../../../context.ts'
import { many } from '../../../db/sql.ts'

// The plans of a slow request: the statements it sent, kept while capturing, each run again under
// EXPLAIN ANALYZE.

/** Keeps the statements `ctx.db.execute` runs while `capturing` is set. */
export function captureStatements(ctx: AppContext) {
  const state = { capturing: false, statements: [] as SQL[] }
  const execute = ctx.db.execute.bind(ctx.db)
  ctx.db.execute = ((query: SQL) => {
    if (state.capturing) state.statements.push(query)
    // Settled into a Promise once: a Drizzle query is a thenable that would run again per then().
    return Promise.resolve(execute(query))
  }) as unknown as typeof ctx.db.execute
  return state
}

/**
 * Runs `request` once while capturing, then prints each statement it sent whose text matches
 * `tables` with its parameters and its EXPLAIN (ANALYZE, BUFFERS).
 */
export async function explainRequest(
  ctx: AppContext,
  captured: ReturnType<typeof captureStatements>,
  request: () => Promise<unknown>,
  tables: RegExp,
) {
  captured.statements = []
  captured.capturing = true
  try {
    await request()
  } finally {
    captured.capturing = false
  }
  const dialect = new PgDialect()
  for (const statement of captured.statements) {
    const q = dialect.sqlToQuery(statement)
    if (!tables.test(q.sql)) continue
    const plan = await many<{ 'QUERY PLAN': string }>(ctx.db, sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`)
    console.log(`\n${q.sql.replace(/\s+/g, ' ').trim()}\nparams ${JSON.stringify(q.params)}\n`)
    console.log(plan.map((p) => `  ${p['QUERY PLAN']}`).join('\n'))
  }
}
