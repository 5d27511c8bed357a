import { mapApi } from '@aed/contracts/map'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './map.service.ts'

/** Region tree, place suggestion and reverse geocoding, for every signed-in member. */
export async function mapRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['map'])

  route(mapApi.districtChildren, {}, ({ query }) => service.districtChildren(query.id))

  route(mapApi.suggestion, {}, ({ req, query }) =>
    service.suggestion(ctx, req.log, query.keyword, query.region),
  )

  route(mapApi.address, {}, ({ req, query }) => service.address(ctx, req.log, query.lat, query.lon))
}
