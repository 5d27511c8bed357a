import { coverageApi } from '@aed/contracts/coverage'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './coverage.service.ts'

/** 覆盖分析: the coverage of the scope's calls by ready AEDs and responders, and its export. */
export async function coverageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['coverage'])
  route(coverageApi.summary, { permission: ['aid_event', 'READ_ONLY'] }, ({ req, auth, query }) =>
    service.coverage(ctx, auth, query, langOf(req)),
  )
}
