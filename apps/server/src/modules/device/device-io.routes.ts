import { deviceIoApi, IMPORT_MAX_BYTES, type ImportResult } from '@aed/contracts/device-io'
import multipart, { type MultipartFile } from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../lib/route.ts'
import * as service from './device-io.service.ts'

/** Buffers the file part with its name, so the body schema sees `{filename, mimetype, data}`. */
async function onFile(part: MultipartFile) {
  try {
    part.value = { filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw invalid('IMPORT_FILE_TOO_LARGE')
    throw err
  }
}

const hasStatus = (err: unknown) => typeof (err as { statusCode?: unknown }).statusCode === 'number'

/** Device exports (data-export) and the factory import; the list's own export is in device.routes.ts. */
export async function deviceIoRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // A multipart body the parser cannot read (no boundary, cut short) is bad input, not a server
  // error, as for uploads (files.routes.ts).
  const reachedHandler = new WeakSet<object>()
  base.addHook('preHandler', async (req) => {
    reachedHandler.add(req)
  })
  base.setErrorHandler((err, req) => {
    if (req.isMultipart() && !reachedHandler.has(req) && !(err instanceof AppError) && !hasStatus(err)) {
      throw invalid('INVALID_INPUT')
    }
    throw err
  })
  // Registered in this plugin only: the import's parser and its 5 MB limit apply here.
  await base.register(multipart, {
    attachFieldsToBody: 'keyValues',
    onFile,
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10, fieldSize: 10_000, parts: 12 },
  })
  const route = routes(base, ['devices'])

  route(deviceIoApi.dataExport, { permission: ['device', 'EDIT'] }, ({ auth, query }) =>
    service.dataExport(ctx, auth, query),
  )

  route(
    deviceIoApi.importDevices,
    {
      permission: ['device', 'EDIT'],
      consumes: ['multipart/form-data'],
      oplog: {
        type: '导入设备',
        content: (_req, data) => {
          const d = data as ImportResult
          return `导入出厂设备到${d.agency_name}：${d.count}台`
        },
      },
      done: 'IMPORT_OK',
    },
    ({ req, auth, body }) => service.importDevices(ctx, auth, body, langOf(req)),
  )
}
