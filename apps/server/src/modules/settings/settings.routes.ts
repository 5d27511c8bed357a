import { dictLabel } from '@aed/contracts/constants'
import { type AgencySettings, DEFAULT_ALARM_ESCALATE_MINUTES, settingsApi } from '@aed/contracts/settings'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './settings.service.ts'

const describe = (s: AgencySettings) =>
  [
    `急救短信:${dictLabel('sms_schedule', s.aid_sms)}`,
    `异常短信:${dictLabel('sms_schedule', s.exec_status_sms)}`,
    `时段:${s.exec_status_sms_time_period.join('-')}`,
    `位置偏移:${s.location_offset === null ? '关闭' : `${s.location_offset}km`}`,
    `报警声音:${s.alarm_sound ? '开' : '关'}`,
    `电极片提醒:${s.electrode_sheet_expire}个月`,
    `电池提醒:${s.battery_expire}个月`,
    `告警升级:${s.alarm_escalate_minutes ?? DEFAULT_ALARM_ESCALATE_MINUTES}分钟`,
  ].join('，')

/** System settings (alert preferences) of the member's organisation or one below it. */
export async function settingsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['system settings'])

  route(settingsApi.get, { permission: ['agency', 'READ_ONLY'] }, ({ auth, query }) =>
    service.getSettings(ctx, auth, query.agency_id),
  )

  route(
    settingsApi.save,
    {
      permission: ['agency', 'EDIT'],
      oplog: { type: '系统设置', content: ({ body }) => describe(body) },
      done: 'SAVE_OK',
    },
    ({ auth, body }) => service.saveSettings(ctx, auth, body),
  )
}
