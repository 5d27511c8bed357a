import { envelope } from '@aed/contracts'
import {
  type AgencySettings,
  agencySettingsSchema,
  DEFAULT_SETTINGS,
  settingsQuery,
} from '@aed/contracts/settings'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { notFound } from '../../lib/errors.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { findInScope } from '../agency/agency.repository.ts'
import { findSettings, saveSettings } from './settings.repository.ts'

const tags = ['system settings']
const describe = (s: AgencySettings) =>
  [
    `急救短信:${['不发送', '每天', '周一至周五'][s.aid_sms]}`,
    `异常短信:${['不发送', '每天', '周一至周五'][s.exec_status_sms]}`,
    `时段:${s.exec_status_sms_time_period.join('-')}`,
    `位置偏移:${s.location_offset === null ? '关闭' : `${s.location_offset}km`}`,
    `报警声音:${s.alarm_sound ? '开' : '关'}`,
    `电极片提醒:${s.electrode_sheet_expire}个月`,
    `电池提醒:${s.battery_expire}个月`,
  ].join('，')

/** System settings (alert preferences) of the member's organisation or one below it. */
export async function settingsRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  async function target(auth: ReturnType<typeof authOf>, agencyId: number | undefined) {
    const agency = await findInScope(ctx.db, auth, agencyId ?? auth.agency_id)
    if (!agency) throw notFound()
    return agency
  }

  app.get(
    '/api/v1/agency/config/',
    {
      config: { permission: ['agency', 'READ_ONLY'] },
      schema: {
        tags,
        summary: 'System settings of an organisation (defaults until saved)',
        querystring: settingsQuery,
        response: { 200: envelope(agencySettingsSchema.and(z.object({ agency_id: z.number() }))) },
      },
    },
    async (req) => {
      const agency = await target(authOf(req), req.query.agency_id)
      const saved = await findSettings(ctx.db, agency.id)
      return ok(req, { ...DEFAULT_SETTINGS, ...saved, agency_id: agency.id })
    },
  )

  app.post(
    '/api/v1/agency/config/',
    {
      config: {
        permission: ['agency', 'EDIT'],
        oplog: {
          type: '系统设置',
          content: (req) => describe(agencySettingsSchema.parse(req.body)),
        },
      },
      schema: {
        tags,
        summary: 'Save the whole settings object of an organisation',
        body: agencySettingsSchema.and(z.object({ agency_id: z.number().int().positive().optional() })),
        response: { 200: envelope(agencySettingsSchema.and(z.object({ agency_id: z.number() }))) },
      },
    },
    async (req) => {
      const agency = await target(authOf(req), req.body.agency_id)
      const { agency_id: _ignored, ...settings } = req.body
      await saveSettings(ctx.db, agency.id, settings)
      return ok(req, { ...settings, agency_id: agency.id }, 'SAVE_OK')
    },
  )
}
