import { rescueApi } from '@aed/contracts/rescue'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './rescue.service.ts'

/** The route guard of this file's area (急救事件 is read-only for everyone). */
const READ = { permission: ['aid_event', 'READ_ONLY'] } as const

/** The emergency page's rescue tab: the list and its ECG links. */
export async function rescueRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['rescues'])

  route(rescueApi.list, READ, ({ auth, query }) => service.listRescues(ctx, auth, query))

  // Health data: who took a link to which ECG is kept in the operation log.
  route(
    rescueApi.fileDownload,
    { ...READ, oplog: { type: '下载心电图', content: (_, d) => `下载心电图：${d.file_name}` } },
    ({ auth, query }) => service.fileDownload(ctx, auth, query),
  )
}
