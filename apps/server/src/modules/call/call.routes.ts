import { maskPhone } from '@aed/contracts'
import { callApi } from '@aed/contracts/call'
import { OPEN_API_SERVICE_OF, openApi } from '@aed/contracts/open-api'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { integratorOf } from '../../plugins/auth/integrator.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './call.service.ts'
import { fromWgs84 } from './call-coords.ts'

/** The route guards of the emergency page: reading needs aid_event; recording and closing a call device EDIT. */
const READ = { permission: ['aid_event', 'READ_ONLY'] } as const
const WRITE = { permission: ['device', 'EDIT'] } as const

/** The integrators' side (open API): signed, scoped to the configuration's organisation, not in /api/docs. */
async function openCallRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/open-api')) r.schema = { ...r.schema, hide: true }
  })
  const route = routes(app, ['open api'])
  route(
    openApi.callIntake,
    { openApiService: OPEN_API_SERVICE_OF.callIntake, oplog: false },
    ({ req, body }) => service.receiveCall(ctx, integratorOf(req), fromWgs84(body)),
  )
  route(
    openApi.callClose,
    { openApiService: OPEN_API_SERVICE_OF.callClose, oplog: false },
    ({ req, params, body }) => service.closeOwnCall(ctx, integratorOf(req), params.external_id, body),
  )
}

/** Emergency calls (呼救事件): the page's call tab, 登记呼救, closing, the dashboard's layer; and the open API's intake. */
export async function callRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  await app.register(openCallRoutes, { ctx })
  const route = routes(app, ['calls'])

  route(callApi.list, READ, ({ auth, query }) => service.listCalls(ctx, auth, query))

  route(
    callApi.create,
    {
      ...WRITE,
      oplog: {
        type: '登记呼救',
        content: ({ body }, d) => `登记呼救#${d.id}：${body.location}（${maskPhone(body.phone) ?? ''}）`,
      },
      done: 'CALL_ADD_OK',
    },
    ({ auth, body }) => service.recordCall(ctx, auth, body),
  )

  route(callApi.detail, READ, ({ req, auth, params }) =>
    service.callDetail(ctx, auth, params.id, langOf(req)),
  )

  route(
    callApi.close,
    {
      ...WRITE,
      oplog: { type: '结束呼救', content: (_, d) => `结束呼救#${d.id}：${d.location}（${d.outcome ?? ''}）` },
      done: 'CALL_CLOSE_OK',
    },
    ({ auth, params, body }) => service.closeCall(ctx, auth, params.id, body),
  )

  route(callApi.location, READ, ({ auth, query }) => service.callLocations(ctx, auth, query.address_code))
}
