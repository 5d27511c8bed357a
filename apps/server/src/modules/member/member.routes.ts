import { envelope, maskPhone, paged } from '@aed/contracts'
import { idParams } from '@aed/contracts/agency'
import {
  accountLookupSchema,
  memberAuthorityForm,
  memberForm,
  memberListQuery,
  memberSchema,
} from '@aed/contracts/member'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { presentMember } from './member.presenter.ts'
import * as repo from './member.repository.ts'
import * as service from './member.service.ts'

const tags = ['users']
const roleNames = ['超级管理员', '管理员', '普通用户']
const described = (_req: unknown, data: unknown) => {
  const m = data as { account: { name: string; phone: string }; agency_name: string; role_type: number }
  return `${m.account.name}（${maskPhone(m.account.phone)}，${m.agency_name}，${roleNames[m.role_type]}）`
}

/** Console users (members) and their permissions, within the member's subtree. */
export async function memberRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/member/',
    {
      config: { permission: ['member', 'READ_ONLY'] },
      schema: {
        tags,
        summary: 'Users of the subtree (phones and emails masked)',
        querystring: memberListQuery,
        response: { 200: envelope(paged(memberSchema)) },
      },
    },
    async (req) => {
      const auth = authOf(req)
      const { count, rows } = await repo.listPage(ctx.db, auth, req.query)
      return ok(req, { count, resource: rows.map((r) => presentMember(r, auth, { masked: true })) })
    },
  )

  app.get(
    '/api/v1/member/:id',
    {
      config: { permission: ['member', 'READ_ONLY'] },
      schema: { tags, summary: 'One user', params: idParams, response: { 200: envelope(memberSchema) } },
    },
    async (req) => ok(req, await service.memberDetail(ctx, authOf(req), req.params.id)),
  )

  app.get(
    '/api/v1/account/:phone',
    {
      config: { permission: ['member', 'EDIT'] },
      schema: {
        tags,
        summary: 'Look up a person by phone to prefill the user dialog',
        params: z.object({ phone: z.string() }),
        response: { 200: envelope(accountLookupSchema) },
      },
    },
    async (req) => ok(req, await service.lookupAccount(ctx, authOf(req), req.params.phone)),
  )

  app.post(
    '/api/v1/member',
    {
      config: { permission: ['member', 'EDIT'], oplog: { type: '新建用户', content: described } },
      schema: { tags, summary: 'Add a user', body: memberForm, response: { 200: envelope(memberSchema) } },
    },
    async (req) => ok(req, await service.createMember(ctx, authOf(req), req.body), 'ADD_OK'),
  )

  app.put(
    '/api/v1/member/:id',
    {
      config: { permission: ['member', 'EDIT'], oplog: { type: '更改用户信息', content: described } },
      schema: {
        tags,
        summary: 'Edit a user (phone locked)',
        params: idParams,
        body: memberForm,
        response: { 200: envelope(memberSchema) },
      },
    },
    async (req) =>
      ok(req, await service.updateMember(ctx, authOf(req), req.params.id, req.body), 'MODIFY_OK'),
  )

  app.put(
    '/api/v1/member/:id/authority/',
    {
      config: {
        permission: ['member', 'EDIT'],
        oplog: {
          type: '权限管理',
          content: (req, data) => {
            const p = (req.body as { permissions: Record<string, string | null> }).permissions
            const list = Object.entries(p)
              .filter(([, v]) => v)
              .map(([k, v]) => `${k}=${v}`)
            return `${described(req, data)} 权限：${list.join('，') || '无'}`
          },
        },
      },
      schema: {
        tags,
        summary: 'Set a user’s permissions and usage period (权限管理)',
        params: idParams,
        body: memberAuthorityForm,
        response: { 200: envelope(memberSchema) },
      },
    },
    async (req) =>
      ok(req, await service.setAuthority(ctx, authOf(req), req.params.id, req.body), 'MODIFY_OK'),
  )

  app.delete(
    '/api/v1/member/:id',
    {
      config: {
        permission: ['member', 'ALL'],
        oplog: {
          type: '删除用户',
          content: (_req, data) => {
            const d = data as { name: string; agency_name: string }
            return `删除用户：${d.name}（${d.agency_name}）`
          },
        },
      },
      schema: {
        tags,
        summary: 'Delete a user from an organisation',
        params: idParams,
        response: { 200: envelope(z.object({ id: z.number(), name: z.string(), agency_name: z.string() })) },
      },
    },
    async (req) => ok(req, await service.deleteMember(ctx, authOf(req), req.params.id), 'DELETE_OK'),
  )
}
