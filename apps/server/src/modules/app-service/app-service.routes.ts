import crypto from 'node:crypto'
import { envelope, type Lang, paged } from '@aed/contracts'
import { idParams } from '@aed/contracts/agency'
import {
  type AppService,
  appServiceCreate,
  appServiceListQuery,
  appServiceSchema,
  appServiceUpdate,
} from '@aed/contracts/app-service'
import { APP_SERVICES, labelIn } from '@aed/contracts/constants'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppContext } from '../../context.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import { langOf } from '../../lib/lang.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { findInScope as findAgency } from '../agency/agency.repository.ts'
import * as repo from './app-service.repository.ts'

const tags = ['service configuration']
const newSecret = () => crypto.randomBytes(24).toString('hex')
const newToken = () => crypto.randomBytes(36).toString('base64url')

/** A configuration as the list shows it; the detail opened for editing adds the credentials. */
function present(row: repo.AppServiceRow, lang: Lang, withSecrets: boolean): AppService {
  return {
    id: row.id,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    service: row.service,
    service_list: row.service.map((k) => (APP_SERVICES[k] ? labelIn(APP_SERVICES[k], lang) : k)),
    state: row.state as 0 | 1,
    apply_time: row.apply_time.toISOString(),
    level: row.level,
    ...(withSecrets ? { secret: row.secret, access_token: row.access_token } : {}),
  }
}

const describe = (data: unknown) => {
  const d = data as AppService
  return `${d.agency_name}：${d.service_list.join('、')}（${d.state ? '启用' : '停用'}）`
}

/** Per-organisation service configuration; only system super administrators. */
export async function appServiceRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()
  const path = '/api/v1/agency/app-service/config'

  app.get(
    path,
    {
      config: { systemSuper: true },
      schema: {
        tags,
        summary: 'Service configurations',
        querystring: appServiceListQuery,
        response: { 200: envelope(paged(appServiceSchema)) },
      },
    },
    async (req) => {
      const { count, rows } = await repo.listPage(ctx.db, authOf(req), req.query)
      return ok(req, { count, resource: rows.map((r) => present(r, langOf(req), false)) })
    },
  )

  app.get(
    `${path}/:id`,
    {
      config: { systemSuper: true },
      schema: {
        tags,
        summary: 'One configuration with its credentials',
        params: idParams,
        response: { 200: envelope(appServiceSchema) },
      },
    },
    async (req) => {
      const row = await repo.findInScope(ctx.db, authOf(req), req.params.id)
      if (!row) throw notFound()
      return ok(req, present(row, langOf(req), true))
    },
  )

  app.post(
    path,
    {
      config: { systemSuper: true, oplog: { type: '新增服务配置', content: (_req, data) => describe(data) } },
      schema: {
        tags,
        summary: 'Give an organisation services',
        body: appServiceCreate,
        response: { 200: envelope(appServiceSchema) },
      },
    },
    async (req) => {
      const auth = authOf(req)
      if (!(await findAgency(ctx.db, auth, req.body.agency_id))) throw invalid('AGENCY_NAME_REQUIRED')
      if (await repo.existsForAgency(ctx.db, req.body.agency_id)) throw invalid('SERVICE_CONFIG_EXISTS')
      const id = await repo.insert(ctx.db, {
        agency_id: req.body.agency_id,
        service: req.body.service,
        state: req.body.state,
        secret: newSecret(),
        access_token: newToken(),
        creator: auth.member_id,
      })
      return ok(req, present((await repo.findInScope(ctx.db, auth, id))!, langOf(req), true), 'ADD_OK')
    },
  )

  app.put(
    `${path}/:id`,
    {
      config: {
        systemSuper: true,
        oplog: {
          type: '修改服务配置',
          content: (req, data) =>
            `${describe(data)}${(req.body as { regenerate?: boolean }).regenerate ? '，已重新生成密钥' : ''}`,
        },
      },
      schema: {
        tags,
        summary: 'Change services or state; regenerate issues new credentials',
        params: idParams,
        body: appServiceUpdate,
        response: { 200: envelope(appServiceSchema) },
      },
    },
    async (req) => {
      const auth = authOf(req)
      const row = await repo.findInScope(ctx.db, auth, req.params.id)
      if (!row) throw notFound()
      await repo.update(ctx.db, row.id, {
        service: req.body.service,
        state: req.body.state,
        ...(req.body.regenerate ? { secret: newSecret(), access_token: newToken() } : {}),
      })
      return ok(req, present((await repo.findInScope(ctx.db, auth, row.id))!, langOf(req), true), 'MODIFY_OK')
    },
  )
}
