import { type DeviceLocations, dashboardApi } from '@aed/contracts/dashboard'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { envelopeText } from '../../lib/raw-json.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './dashboard.service.ts'

/** The dashboard map's layers, popup and event highlight, within the member's subtree. */
export async function dashboardRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['dashboard'])
  const read = { permission: ['device', 'READ_ONLY'] } as const

  route(dashboardApi.deviceLocation, read, async ({ reply, auth, query }) => {
    const json = await service.deviceLocation(ctx, auth, query)
    // The database wrote the points as JSON (up to 100,000 of them): spliced into the envelope
    // rather than validated and serialised again; dashboard.test.ts checks the shape.
    reply.type('application/json; charset=utf-8').serializer(envelopeText)
    return json as unknown as DeviceLocations
  })
  route(dashboardApi.devicePopup, read, ({ req, auth, params }) =>
    service.devicePopup(ctx, auth, params.id, langOf(req)),
  )
  route(dashboardApi.rescueLocation, read, ({ auth, query }) => service.rescueLocation(ctx, auth, query))
  route(dashboardApi.eventFocus, read, ({ req, auth, query }) =>
    service.eventFocus(ctx, auth, query, langOf(req)),
  )
}
