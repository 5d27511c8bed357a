import { type AppService, appServiceApi } from '@aed/contracts/app-service'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './app-service.service.ts'

const describe = (d: AppService) =>
  `${d.agency_name}：${d.service_list.join('、')}（${d.state ? '启用' : '停用'}）`

/** Per-organisation service configuration; only system super administrators. */
export async function appServiceRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['service configuration'])

  route(appServiceApi.list, { systemSuper: true }, ({ req, auth, query }) =>
    service.list(ctx, auth, query, langOf(req)),
  )

  route(appServiceApi.detail, { systemSuper: true }, ({ req, auth, params }) =>
    service.detail(ctx, auth, params.id, langOf(req)),
  )

  route(
    appServiceApi.create,
    {
      systemSuper: true,
      oplog: { type: '新增服务配置', content: (_, data) => describe(data) },
      done: 'ADD_OK',
    },
    ({ req, auth, body }) => service.create(ctx, auth, body, langOf(req)),
  )

  route(
    appServiceApi.update,
    {
      systemSuper: true,
      oplog: {
        type: '修改服务配置',
        content: ({ body }, data) => `${describe(data)}${body.regenerate ? '，已重新生成密钥' : ''}`,
      },
      done: 'MODIFY_OK',
    },
    ({ req, auth, params, body }) => service.update(ctx, auth, params.id, body, langOf(req)),
  )
}
