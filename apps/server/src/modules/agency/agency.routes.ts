import { agencyApi } from '@aed/contracts/agency'
import { dictLabel } from '@aed/contracts/constants'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './agency.service.ts'

const edit = ['agency', 'EDIT'] as const

/** Organisations: tree, list, create, modify, disable and enable, within the member's subtree. */
export async function agencyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['organisations'])

  route(agencyApi.tree, {}, ({ auth }) => service.agencyTree(ctx, auth))

  route(agencyApi.list, {}, ({ auth, query }) => service.listAgencies(ctx, auth, query))

  route(agencyApi.detail, {}, ({ auth, params }) => service.agencyDetail(ctx, auth, params.id))

  route(
    agencyApi.create,
    {
      permission: edit,
      oplog: {
        type: '新增机构',
        content: ({ body }) => `新增${dictLabel('agency_type', body.agency_type)}：${body.name}`,
      },
      done: 'ADD_OK',
    },
    ({ auth, body }) => service.createAgency(ctx, auth, body),
  )

  route(
    agencyApi.update,
    {
      permission: edit,
      oplog: {
        type: '修改机构',
        content: (_, data) => `修改机构信息：${data.name}`,
      },
      done: 'MODIFY_OK',
    },
    ({ auth, params, body }) => service.updateAgency(ctx, auth, params.id, body),
  )

  route(
    agencyApi.setState,
    {
      permission: edit,
      oplog: {
        type: '禁用/启用机构',
        content: (_, d) => (d.disabled ? `禁用机构及其下级机构：${d.name}` : `启用机构：${d.name}`),
      },
      done: (d) => (d.disabled ? 'DISABLE_OK' : 'ENABLE_OK'),
    },
    ({ auth, params, body }) => service.setAgencyDisabled(ctx, auth, params.id, body.disabled),
  )
}
