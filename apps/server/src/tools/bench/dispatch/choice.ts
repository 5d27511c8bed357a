import { DISPATCH_DEFAULTS } from '@aed/contracts/dispatch'
import { type SQL, sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import type { AppContext } from '../../../context.ts'
import type { DbOrTx } from '../../../db/client.ts'
import { inDistanceOrder } from '../../../db/nearest.ts'
import { chinaTime } from '../../../db/opening-hours.ts'
import type { Scope } from '../../../db/scope.ts'
import { many } from '../../../db/sql.ts'
import { formatDate } from '../../../lib/time.ts'
import { readyAedsNear } from '../../../modules/device/device-nearby.repository.ts'
import { candidates } from '../../../modules/dispatch/dispatch.repository.ts'
import { planWave } from '../../../modules/dispatch/dispatch.rules.ts'
import { POSITION_FRESH_MS } from '../../../modules/dispatch/dispatch.service.ts'
import { printTable } from '../harness/report.ts'
import { cpuMsSince } from '../harness/sampling.ts'
import { ascending, mean, percentile } from '../harness/stats.ts'
import { jitter } from './setup.ts'
import type { Areas, Place } from './types.ts'

// 2. Target 1: the choice of a wave, timed in process on the loaded network: the candidates
// query, the ready AEDs near the call (readyAedsNear, the radius plus the AED detour, 50 at most)
// and the plan (planWave), as alertMore runs them for the first wave of 5, for calls at each
// area's places and each phase's radius (500 m, 1 km, 2 km). alertMore skips the AEDs when no one
// is near; here they are always asked, so the figure bounds the choice from above. On PGlite the
// process's CPU time a choice is the whole work, however busy the machine; on PostgreSQL the
// client's share.

/** The target: p95 of the whole choice, ms. */
export const CHOICE_TARGET_MS = 50

const S = DISPATCH_DEFAULTS

/** The three parts of one choice, ms, and what they found. */
type Timed = { people: number; aeds: number; plan: number; total: number; found: number; aedsFound: number }

/**
 * One choice at `p` within `radius`, as alertMore makes it in the dispatch's transaction (dispatch
 * 0: no alert excluded); the transaction's BEGIN and COMMIT are not timed.
 */
function choose(ctx: AppContext, scope: Scope, p: Place, radius: number): Promise<Timed> {
  return ctx.db.transaction((tx) => chooseIn(tx, ctx.clock.now(), scope, p, radius))
}

async function chooseIn(tx: DbOrTx, now: Date, scope: Scope, p: Place, radius: number): Promise<Timed> {
  const t0 = performance.now()
  const people = await candidates(tx, scope, p, radius, {
    dispatchId: 0,
    today: formatDate(now),
    freshSince: new Date(now.getTime() - POSITION_FRESH_MS),
    limit: S.dispatch_first_wave,
  })
  const t1 = performance.now()
  const aeds = await readyAedsNear(tx, scope, p, radius + S.dispatch_aed_detour_m, chinaTime(now), 50)
  const t2 = performance.now()
  planWave(p, people, aeds, S, S.dispatch_first_wave, { patient: 0, aed: 0 })
  const t3 = performance.now()
  return {
    people: t1 - t0,
    aeds: t2 - t1,
    plan: t3 - t2,
    total: t3 - t0,
    found: people.length,
    aedsFound: aeds.length,
  }
}

/**
 * Times `runs` choices per area and radius after `warmUp` untimed ones per case; prints the table
 * and, for each case over the target (every case with `explainAll`), the plans of one choice.
 * Answers the rows and whether every case met the target.
 */
export async function timeChoices(
  ctx: AppContext,
  scope: Scope,
  places: Areas,
  o: { runs: number; warmUp: number; explainAll: boolean; only: RegExp | null },
) {
  const labels: Record<keyof Areas, string> = {
    city: 'city (Hangzhou, by an AED)',
    sparse: "sparse (a responder's home away from the AEDs)",
    aedsOnly: 'AEDs, no responder (other cities)',
  }
  const cases = (Object.keys(labels) as (keyof Areas)[]).flatMap((area) =>
    S.dispatch_radii_m.map((radius, phase) => ({
      name: `${labels[area]}, phase ${phase} (${radius} m)`,
      area,
      radius,
      at: jitter(places[area], 300, 7 + phase),
    })),
  )
  const chosen = cases.filter((c) => !o.only || o.only.test(c.name))
  for (const c of chosen)
    for (let i = 0; i < o.warmUp; i++) await choose(ctx, scope, c.at[i % c.at.length], c.radius)
  const rows: string[][] = []
  const slow: typeof chosen = []
  let met = true
  const f = (x: number) => x.toFixed(1)
  for (const c of chosen) {
    const timed: Timed[] = []
    const cpu = process.cpuUsage()
    for (let i = 0; i < o.runs; i++) timed.push(await choose(ctx, scope, c.at[i % c.at.length], c.radius))
    const cpuMs = cpuMsSince(cpu) / o.runs
    const q = (k: keyof Timed, p: number) => percentile(ascending(timed.map((t) => t[k])), p)
    const p95 = q('total', 95)
    if (p95 > CHOICE_TARGET_MS) met = false
    if (p95 > CHOICE_TARGET_MS || o.explainAll) slow.push(c)
    rows.push([
      c.name,
      `${f(q('total', 50))} / ${f(p95)} / ${f(q('total', 100))}`,
      `${f(q('people', 50))} / ${f(q('people', 95))}`,
      `${f(q('aeds', 50))} / ${f(q('aeds', 95))}`,
      f(q('plan', 95)),
      f(cpuMs),
      `${mean(timed.map((t) => t.found)).toFixed(1)}; ${mean(timed.map((t) => t.aedsFound)).toFixed(1)}`,
      `≤ ${CHOICE_TARGET_MS}${p95 > CHOICE_TARGET_MS ? ' MISSED' : ''}`,
    ])
  }
  console.log(
    `\nTarget 1, the choice of a wave (${o.runs} calls a case, ${o.warmUp} untimed first): ms, p50 / p95 / max of the whole choice\n`,
  )
  printTable(
    [
      'case',
      'choice p50 / p95 / max',
      'candidates p50 / p95',
      'readyAedsNear p50 / p95',
      'plan p95',
      'CPU ms of this process a choice (mean)',
      'found: responders; AEDs (mean)',
      'target p95',
    ],
    rows,
  )
  if (slow.length) {
    const captured = captureInTransactions(ctx)
    for (const c of slow) {
      console.log(`\n### plans: ${c.name}`)
      await explainChoice(ctx, captured, () => choose(ctx, scope, c.at[0], c.radius))
    }
  }
  return { rows, met }
}

/**
 * Keeps the statements run in the transactions `ctx.db` opens (both queries of a choice run in
 * one: db/nearest.ts) while `capturing` is set.
 */
function captureInTransactions(ctx: AppContext) {
  const state = { capturing: false, statements: [] as SQL[] }
  const transaction = ctx.db.transaction.bind(ctx.db)
  ctx.db.transaction = ((fn: (tx: DbOrTx) => Promise<unknown>, config?: unknown) =>
    transaction((tx) => {
      const execute = tx.execute.bind(tx)
      tx.execute = ((query: SQL) => {
        if (state.capturing) state.statements.push(query)
        return Promise.resolve(execute(query))
      }) as typeof tx.execute
      return fn(tx)
    }, config as never)) as typeof ctx.db.transaction
  return state
}

/** Runs a choice once while capturing, then each of its queries again under EXPLAIN ANALYZE as it ran (db/nearest.ts). */
async function explainChoice(
  ctx: AppContext,
  captured: ReturnType<typeof captureInTransactions>,
  run: () => Promise<unknown>,
) {
  captured.statements = []
  captured.capturing = true
  try {
    await run()
  } finally {
    captured.capturing = false
  }
  const dialect = new PgDialect()
  for (const statement of captured.statements) {
    const q = dialect.sqlToQuery(statement)
    if (!/responders|installations/.test(q.sql)) continue
    const plan = await inDistanceOrder(ctx.db, (tx) =>
      many<{ 'QUERY PLAN': string }>(tx, sql`EXPLAIN (ANALYZE, BUFFERS) ${statement}`),
    )
    console.log(`\n${q.sql.replace(/\s+/g, ' ').trim()}\nparams ${JSON.stringify(q.params)}\n`)
    console.log(plan.map((p) => `  ${p['QUERY PLAN']}`).join('\n'))
  }
}
