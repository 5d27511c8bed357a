import { deviceIoApi, IMPORT_MAX_BYTES } from '@aed/contracts/device-io'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { acceptUploads } from '../../lib/multipart.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './device-io.service.ts'

/** The route guards of this file's area. */
const EDIT = { permission: ['device', 'EDIT'] } as const

/** Device exports (data-export) and the factory import; the list's own export is in device.routes.ts. */
export async function deviceIoRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // The import's parser and its 5 MB limit apply in this plugin only.
  await acceptUploads(base, IMPORT_MAX_BYTES, 'IMPORT_FILE_TOO_LARGE')
  const route = routes(base, ['devices'])

  route(deviceIoApi.dataExport, EDIT, ({ auth, query }) => service.dataExport(ctx, auth, query))

  route(
    deviceIoApi.importDevices,
    {
      ...EDIT,
      consumes: ['multipart/form-data'],
      oplog: {
        type: '导入设备',
        content: (_, d) => `导入出厂设备到${d.agency_name}：${d.count}台`,
      },
      done: 'IMPORT_OK',
    },
    ({ req, auth, body }) => service.importDevices(ctx, auth, body, langOf(req)),
  )
}
