import { envelope } from '@aed/contracts'
import {
  addressQuery,
  districtChildrenQuery,
  districtOptionSchema,
  mapAddressSchema,
  suggestionQuery,
  suggestionSchema,
} from '@aed/contracts/map'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { ok } from '../../plugins/envelope.ts'
import * as service from './map.service.ts'

const tags = ['map']

/** Region tree, place suggestion and reverse geocoding, for every signed-in member. */
export async function mapRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/map/district/getchildren/',
    {
      schema: {
        tags,
        summary: 'Children of a province or city code; the provinces when `id` is omitted',
        querystring: districtChildrenQuery,
        response: { 200: envelope(z.array(districtOptionSchema)) },
      },
    },
    async (req) => ok(req, service.districtChildren(req.query.id)),
  )

  app.get(
    '/api/v1/map/suggestion',
    {
      schema: {
        tags,
        summary: 'Places matching a keyword (offline: regions by name)',
        querystring: suggestionQuery,
        response: { 200: envelope(z.array(suggestionSchema)) },
      },
    },
    async (req) => ok(req, await service.suggestion(ctx, req.log, req.query.keyword, req.query.region)),
  )

  app.get(
    '/api/v1/map/address',
    {
      schema: {
        tags,
        summary: 'The address at a point (GCJ-02); code 6 when the map in use cannot resolve points',
        querystring: addressQuery,
        response: { 200: envelope(mapAddressSchema) },
      },
    },
    async (req) => ok(req, await service.address(ctx, req.log, req.query.lat, req.query.lon)),
  )
}
