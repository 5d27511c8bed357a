import { envelope, paged } from '@aed/contracts'
import {
  agencyForm,
  agencyListQuery,
  agencyNodeSchema,
  agencySchema,
  agencyStateBody,
  idParams,
} from '@aed/contracts/agency'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { buildTree, presentAgency } from './agency.presenter.ts'
import * as repo from './agency.repository.ts'
import * as service from './agency.service.ts'

const tags = ['organisations']
const typeNames = ['系统机构', '总代理', '普通机构']
const edit = ['agency', 'EDIT'] as const

/** Organisations: tree, list, create, modify, disable and enable, within the member's subtree. */
export async function agencyRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/agency/hierarchy/',
    {
      schema: {
        tags,
        summary: 'The organisation tree of the member’s subtree',
        response: { 200: envelope(z.object({ resource: z.array(agencyNodeSchema) })) },
      },
    },
    async (req) => ok(req, { resource: buildTree(await repo.listScope(ctx.db, authOf(req))) }),
  )

  app.get(
    '/api/v1/agency/',
    {
      schema: {
        tags,
        summary: 'Organisations of the member’s subtree (phones masked)',
        querystring: agencyListQuery,
        response: { 200: envelope(paged(agencySchema)) },
      },
    },
    async (req) => {
      const auth = authOf(req)
      const { count, rows } = await repo.listPage(ctx.db, auth, req.query)
      return ok(req, { count, resource: rows.map((r) => presentAgency(r, auth, { masked: true })) })
    },
  )

  app.get(
    '/api/v1/agency/:id',
    {
      schema: {
        tags,
        summary: 'One organisation',
        params: idParams,
        response: { 200: envelope(agencySchema) },
      },
    },
    async (req) => ok(req, await service.agencyDetail(ctx, authOf(req), req.params.id)),
  )

  app.post(
    '/api/v1/agency/',
    {
      config: {
        permission: edit,
        oplog: {
          type: '新增机构',
          content: (req) => {
            const b = req.body as { name: string; agency_type: number }
            return `新增${typeNames[b.agency_type]}：${b.name}`
          },
        },
      },
      schema: {
        tags,
        summary: 'Create an organisation',
        body: agencyForm,
        response: { 200: envelope(agencySchema) },
      },
    },
    async (req) => ok(req, await service.createAgency(ctx, authOf(req), req.body), 'ADD_OK'),
  )

  app.put(
    '/api/v1/agency/:id',
    {
      config: {
        permission: edit,
        oplog: {
          type: '修改机构',
          content: (_req, data) => `修改机构信息：${(data as { name: string }).name}`,
        },
      },
      schema: {
        tags,
        summary: 'Modify an organisation',
        params: idParams,
        body: agencyForm,
        response: { 200: envelope(agencySchema) },
      },
    },
    async (req) =>
      ok(req, await service.updateAgency(ctx, authOf(req), req.params.id, req.body), 'MODIFY_OK'),
  )

  app.put(
    '/api/v1/agency/:id/state/',
    {
      config: {
        permission: edit,
        oplog: {
          type: '禁用/启用机构',
          content: (_req, data) => {
            const d = data as { name: string; disabled: boolean }
            return d.disabled ? `禁用机构及其下级机构：${d.name}` : `启用机构：${d.name}`
          },
        },
      },
      schema: {
        tags,
        summary: 'Disable (with every organisation below) or enable an organisation',
        params: idParams,
        body: agencyStateBody,
        response: { 200: envelope(z.object({ id: z.number(), name: z.string(), disabled: z.boolean() })) },
      },
    },
    async (req) => {
      const row = await service.setAgencyDisabled(ctx, authOf(req), req.params.id, req.body.disabled)
      return ok(
        req,
        { id: row.id, name: row.name, disabled: row.disabled },
        row.disabled ? 'DISABLE_OK' : 'ENABLE_OK',
      )
    },
  )
}
