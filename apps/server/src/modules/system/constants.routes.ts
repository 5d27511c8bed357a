import { constantsApi } from '@aed/contracts/constants'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './system.service.ts'

/** Common configuration and the data dictionary, for every signed-in member. */
export async function constantsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['system'])

  route(constantsApi.constants, {}, ({ req }) => service.constants(langOf(req)))

  route(constantsApi.dataDict, {}, ({ req }) => service.dataDict(ctx, langOf(req)))
}
