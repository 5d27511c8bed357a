import { operationLogApi } from '@aed/contracts/operation-log'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './operation-log.service.ts'

/** The system operation log of the member's subtree: filter, page, export to .xlsx. */
export async function operationLogRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['operation log'])

  route(operationLogApi.list, { permission: ['agency', 'READ_ONLY'] }, ({ auth, query }) =>
    service.listOrExport(ctx, auth, query),
  )
}
