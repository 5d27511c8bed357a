import { maskPhone } from '@aed/contracts'
import { dictLabel } from '@aed/contracts/constants'
import { type Member, memberApi } from '@aed/contracts/member'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './member.service.ts'

/** The route guards of this file's area. */
const READ = { permission: ['member', 'READ_ONLY'] } as const
const EDIT = { permission: ['member', 'EDIT'] } as const
const ALL = { permission: ['member', 'ALL'] } as const

const described = (_input: unknown, m: Member) =>
  `${m.account.name}（${maskPhone(m.account.phone)}，${m.agency_name}，${dictLabel('role_type', m.role_type)}）`

/** Console users (members) and their permissions, within the member's subtree. */
export async function memberRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['users'])

  route(memberApi.list, READ, ({ auth, query }) => service.listMembers(ctx, auth, query))

  route(memberApi.detail, READ, ({ auth, params }) => service.memberDetail(ctx, auth, params.id))

  // The user dialog and the responder dialog both prefill from it.
  route(
    memberApi.lookupAccount,
    { anyPermission: [EDIT.permission, ['aid_man', 'EDIT']] },
    ({ auth, params }) => service.lookupAccount(ctx, auth, params.phone),
  )

  route(
    memberApi.create,
    { ...EDIT, oplog: { type: '新建用户', content: described }, done: 'ADD_OK' },
    ({ auth, body }) => service.createMember(ctx, auth, body),
  )

  route(
    memberApi.update,
    { ...EDIT, oplog: { type: '更改用户信息', content: described }, done: 'MODIFY_OK' },
    ({ auth, params, body }) => service.updateMember(ctx, auth, params.id, body),
  )

  route(
    memberApi.setAuthority,
    {
      ...EDIT,
      oplog: {
        type: '权限管理',
        content: (input, data) => {
          const list = Object.entries(input.body.permissions)
            .filter(([, v]) => v)
            .map(([k, v]) => `${k}=${v}`)
          return `${described(input, data)} 权限：${list.join('，') || '无'}`
        },
      },
      done: 'MODIFY_OK',
    },
    ({ auth, params, body }) => service.setAuthority(ctx, auth, params.id, body),
  )

  route(
    memberApi.remove,
    {
      ...ALL,
      oplog: {
        type: '删除用户',
        content: (_, d) => `删除用户：${d.name}（${d.agency_name}）`,
      },
      done: 'DELETE_OK',
    },
    ({ auth, params }) => service.deleteMember(ctx, auth, params.id),
  )
}
