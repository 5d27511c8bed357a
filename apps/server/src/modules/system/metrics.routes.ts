import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { METRICS_CONTENT_TYPE, renderMetrics } from '../../lib/metrics.ts'

/**
 * GET /metrics: this instance's counters and gauges (lib/metrics.ts) for Prometheus, in its text
 * format. Outside every guarded prefix (/api/v1, /device-api, /open-api) and public, as a
 * scraper carries no token: keep it off the public network at the proxy. Not in the OpenAPI
 * document (it answers text, not the envelope). A registered route, so the console's fallback
 * (any other GET outside /api) never answers it.
 */
export async function metricsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
    reply.type(METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(renderMetrics(ctx)),
  )
}
