import { gatewayApi, MAX_FILE_BYTES, MAX_REQUEST_BYTES } from '@aed/contracts/device-protocol'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { deviceOf } from '../../plugins/auth/device.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './gateway.service.ts'

/**
 * The device gateway over HTTPS (docs/device-protocol.md): signed by the device guard, answered
 * only after commit. Devices are not members: nothing here is in the operation log.
 */
export async function gatewayRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['device gateway'])
  // The file upload's body is the raw bytes the signature covers.
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: MAX_FILE_BYTES },
    (_req, body, done) => done(null, body),
  )

  // Messages are read from their bytes by the gateway (strict UTF-8, one size limit), not by the
  // app's JSON parser, which would let a lone surrogate through to the database.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: MAX_REQUEST_BYTES },
    (_req, body, done) => done(null, body),
  )

  route(gatewayApi.messages, { oplog: false, bodyLimit: MAX_REQUEST_BYTES }, ({ req, body }) =>
    service.receiveMessages(ctx, deviceOf(req), body),
  )

  route(
    gatewayApi.files,
    { oplog: false, consumes: ['application/octet-stream'], bodyLimit: MAX_FILE_BYTES },
    ({ req, query, body }) =>
      service.receiveFile(ctx, deviceOf(req), query, Buffer.isBuffer(body) ? body : Buffer.alloc(0)),
  )
}
