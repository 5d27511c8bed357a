import { type ServiceConfig, serviceConfigApi } from '@aed/contracts/service-config'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './service-config.service.ts'

const describe = (d: ServiceConfig) =>
  `${d.agency_name}：${d.service_list.join('、')}（${d.state ? '启用' : '停用'}）`

/** Per-organisation service configuration; only system super administrators. */
export async function serviceConfigRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['service configuration'])

  route(serviceConfigApi.list, { systemSuper: true }, ({ req, auth, query }) =>
    service.list(ctx, auth, query, langOf(req)),
  )

  route(serviceConfigApi.detail, { systemSuper: true }, ({ req, auth, params }) =>
    service.detail(ctx, auth, params.id, langOf(req)),
  )

  route(
    serviceConfigApi.create,
    {
      systemSuper: true,
      oplog: { type: '新增服务配置', content: (_, data) => describe(data) },
      done: 'ADD_OK',
    },
    ({ req, auth, body }) => service.create(ctx, auth, body, langOf(req)),
  )

  route(
    serviceConfigApi.update,
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
