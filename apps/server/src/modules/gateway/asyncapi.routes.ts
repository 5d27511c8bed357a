import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { type AsyncApiServers, asyncApiDocument } from './asyncapi.ts'

export const ASYNCAPI_PATH = '/device-api/docs'

/**
 * The device protocol's AsyncAPI 3.0 document, plain JSON (not the envelope). It is public: it
 * describes the protocol, not a device, so it opts out of the device signature (`public`, as the
 * broker hooks do), and it is not in the OpenAPI document.
 */
export async function asyncApiRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  app.get(
    ASYNCAPI_PATH,
    { config: { public: true, oplog: false }, schema: { hide: true } },
    async (req, reply) => {
      const c = ctx.config
      // With an external broker (MQTT_URL) its address is the operator's: no servers are named.
      const where: AsyncApiServers =
        c.MQTT_URL || c.MQTT_PORT === 0
          ? null
          : { host: req.hostname, port: c.MQTT_PORT, tlsPort: c.MQTT_TLS_PORT || null }
      // Built from the request's Host: never cached for another client.
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(asyncApiDocument(where))
    },
  )
}
