import { deviceStatsApi } from '@aed/contracts/device-stats'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './device-stats.service.ts'

/** The dashboard's and the device page's statistics, within the member's subtree. */
export async function deviceStatsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['devices'])
  const read = { permission: ['device', 'READ_ONLY'] } as const

  route(deviceStatsApi.stateDistribution, read, ({ auth, query }) =>
    service.stateDistribution(ctx, auth, query),
  )
  route(deviceStatsApi.mainStateDistribution, read, ({ req, auth, query }) =>
    service.mainStateDistribution(ctx, auth, query, langOf(req)),
  )
  route(deviceStatsApi.regionalDistribution, read, ({ req, auth, query }) =>
    service.regionalDistribution(ctx, auth, query, langOf(req)),
  )
  route(deviceStatsApi.maintenanceMonthly, read, ({ auth, query }) =>
    service.maintenanceMonthly(ctx, auth, query),
  )
  route(deviceStatsApi.keyMaintenance, read, ({ req, auth, query }) =>
    service.keyMaintenance(ctx, auth, query, langOf(req)),
  )
}
