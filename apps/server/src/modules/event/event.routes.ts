import { type EventKind, eventApi } from '@aed/contracts/event'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './event.service.ts'

const kindWords: Record<EventKind, string> = {
  warning: '预警',
  fault: '故障',
  offset: '位置偏移',
  offline: '离线',
}

/** The four event pages (current and history, export) and handling a fault or an offset. */
export async function eventRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['events'])
  const read = { permission: ['device', 'READ_ONLY'] } as const
  route(eventApi.earlyWarn, read, ({ req, auth, query }) =>
    service.listEvents(ctx, auth, 'warning', query, langOf(req)),
  )
  route(eventApi.fault, read, ({ req, auth, query }) =>
    service.listEvents(ctx, auth, 'fault', query, langOf(req)),
  )
  route(eventApi.locationOffset, read, ({ req, auth, query }) =>
    service.listEvents(ctx, auth, 'offset', query, langOf(req)),
  )
  route(eventApi.offline, read, ({ req, auth, query }) =>
    service.listEvents(ctx, auth, 'offline', query, langOf(req)),
  )

  route(
    eventApi.handle,
    {
      permission: ['device', 'EDIT'],
      oplog: {
        type: '处理事件',
        content: (_, d) => `处理${kindWords[d.kind]}事件：${d.device_sn}（${d.handle_note}）`,
      },
      done: 'HANDLE_OK',
    },
    ({ auth, params, body }) => service.handleEvent(ctx, auth, params.id, body.handle_note),
  )
}
