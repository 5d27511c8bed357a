import { dictLabel } from '@aed/contracts/constants'
import { type CleanAnswer, deviceDetailApi } from '@aed/contracts/device-detail'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './device-detail.service.ts'

/** The clean-up in the operation log: serial, what and which dates. */
function cleaned(d: CleanAnswer) {
  const what = d.data_type.map((t) => (t === 'all' ? '全部' : dictLabel('clean_data_type', t))).join('、')
  const dates = d.start_time || d.end_time ? ` ${d.start_time ?? '…'}~${d.end_time ?? '…'}` : ''
  return `清除安装信息：${d.device_sn}（${what}）${dates}`
}

/** The device detail's tabs, inspections, and deleting install info by serial. */
export async function deviceDetailRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['devices'])

  route(deviceDetailApi.single, { permission: ['device', 'READ_ONLY'] }, ({ req, auth, query }) =>
    service.singleDetail(ctx, auth, query, langOf(req)),
  )

  route(deviceDetailApi.page, { permission: ['device', 'READ_ONLY'] }, ({ req, auth, query }) =>
    service.pageDetail(ctx, auth, query, langOf(req)),
  )

  route(
    deviceDetailApi.inspect,
    {
      permission: ['device', 'EDIT'],
      oplog: {
        type: '设备巡检',
        content: (_, d) =>
          `巡检设备：${d.device_sn}（${dictLabel('inspect_status', d.inspect_status)}，${d.inspector_name}）`,
      },
      done: 'ADD_OK',
    },
    ({ auth, body }) => service.recordInspection(ctx, auth, body),
  )

  route(
    deviceDetailApi.clean,
    {
      permission: ['device', 'ALL'],
      oplog: { type: '清除安装信息', content: (_, d) => cleaned(d) },
      done: 'CLEAN_OK',
    },
    ({ auth, body }) => service.cleanRecords(ctx, auth, body),
  )
}
