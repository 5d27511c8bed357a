import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { outbox } from '../../db/schema.ts'
import { beforeScrape, gauge, METRICS_CONTENT_TYPE, renderMetrics } from '../../lib/metrics.ts'
import { oldestUnapplied, outboxBacklog } from './system.repository.ts'

const byTopic = outbox.topic.enumValues.map((topic) => ({ topic }))

const inboxLag = gauge(
  'aed_inbox_lag_seconds',
  'Age of the oldest device message stored but not applied yet (0 when none waits)',
)
const outboxPending = gauge('aed_outbox_backlog', 'Outbox rows not done yet, per topic', {
  labels: ['topic'],
  preset: byTopic,
})
const outboxAge = gauge(
  'aed_outbox_oldest_age_seconds',
  'Age of the oldest outbox row not done yet, per topic (0 when none waits)',
  { labels: ['topic'], preset: byTopic },
)
const poolWaiting = gauge(
  'aed_db_pool_waiting',
  'Queries waiting for a PostgreSQL pool connection (main: requests and jobs; lanes: the outbox); 0 on PGlite',
  { labels: ['pool'], preset: [{ pool: 'main' }, { pool: 'lanes' }] },
)
const poolConnections = gauge('aed_db_pool_connections', 'PostgreSQL pool connections open (0 on PGlite)', {
  labels: ['pool'],
  preset: [{ pool: 'main' }, { pool: 'lanes' }],
})
const scrapeFailed = gauge(
  'aed_metrics_database_read_failed',
  '1 when the last scrape could not read the inbox and outbox figures from the database',
)

const ageOf = (now: Date, t: Date | string | null) =>
  t ? Math.max(0, (now.getTime() - new Date(t).getTime()) / 1000) : 0

/** The figures read at each scrape: the inbox's lag and the outbox's backlog (two indexed queries), the pools. */
async function readFigures(ctx: AppContext) {
  for (const p of ctx.database.pools()) {
    poolWaiting.set(ctx, { pool: p.pool }, p.waiting)
    poolConnections.set(ctx, { pool: p.pool }, p.total)
  }
  try {
    const [backlog, oldest] = await Promise.all([outboxBacklog(ctx.db), oldestUnapplied(ctx.db)])
    const now = ctx.clock.now()
    for (const t of byTopic) {
      const row = backlog.find((r) => r.topic === t.topic)
      outboxPending.set(ctx, t, row?.backlog ?? 0)
      outboxAge.set(ctx, t, ageOf(now, row?.oldest ?? null))
    }
    inboxLag.set(ctx, {}, ageOf(now, oldest))
    scrapeFailed.set(ctx, {}, 0)
  } catch (err) {
    ctx.log.warn({ err }, 'metrics: inbox and outbox figures not read')
    scrapeFailed.set(ctx, {}, 1)
  }
}

/**
 * GET /metrics: this instance's metrics (lib/metrics.ts, prom-client) for Prometheus, in its text
 * format. Outside every guarded prefix (/api/v1, /device-api, /open-api) and public, as a
 * scraper carries no token: keep it off the public network at the proxy. Not in the OpenAPI
 * document (it answers text, not the envelope). A registered route, so the console's fallback
 * (any other GET outside /api) never answers it.
 */
export async function metricsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const stop = beforeScrape(ctx, () => readFigures(ctx))
  app.addHook('onClose', async () => stop())
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
    reply
      .type(METRICS_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send(await renderMetrics(ctx)),
  )
}
