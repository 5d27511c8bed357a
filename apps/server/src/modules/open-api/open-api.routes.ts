import { OPEN_API_SERVICE_OF, openApi } from '@aed/contracts/open-api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { integratorOf } from '../../plugins/auth/integrator.ts'
import { routes } from '../../plugins/route.ts'
import { OPEN_API_DOCS_PATH, openApiDocument } from './open-api.docs.ts'
import * as service from './open-api.service.ts'

/**
 * The open API's reads (issue 23): signed by the integrator guard, each scoped to the subtree of
 * the service configuration's organisation. Kept out of /api/docs (the console's API): they have
 * their own document at /open-api/docs.
 */
export async function openApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // Only this plugin's routes: the hook is encapsulated with them.
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/open-api')) r.schema = { ...r.schema, hide: true }
  })
  const route = routes(app, ['open api'])
  const scopeOf = (req: FastifyRequest) => ({ index_link: integratorOf(req).index_link })
  const origin = (req: FastifyRequest) => service.filesOrigin(ctx.config, `${req.protocol}://${req.host}`)
  const config = (name: keyof typeof openApi) => ({
    openApiService: OPEN_API_SERVICE_OF[name],
    oplog: false as const,
  })

  route(openApi.nearby, config('nearby'), ({ req, query }) =>
    service.nearby(ctx.db, scopeOf(req), query, ctx.clock.now(), origin(req)),
  )
  route(openApi.status, config('status'), ({ req, query }) =>
    service.aedStatuses(ctx.db, scopeOf(req), query, origin(req)),
  )
  route(openApi.aed, config('aed'), ({ req, params, query }) =>
    service.aedDetail(ctx.db, scopeOf(req), params.sn, query.coord, origin(req)),
  )
  route(openApi.events, config('events'), ({ req, query }) =>
    service.events(ctx.db, scopeOf(req), query, langOf(req)),
  )
  route(openApi.classroom, config('classroom'), ({ req, query }) =>
    service.classroom(ctx.db, scopeOf(req), query),
  )

  // Built once: it depends on the endpoint table only.
  let doc: Record<string, unknown> | null = null
  app.get(OPEN_API_DOCS_PATH, { config: { public: true, oplog: false } }, async (_req, reply) => {
    doc ??= openApiDocument()
    return reply.type('application/json; charset=utf-8').send(doc)
  })
}
