import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AppContext } from '../context.ts'
import { deviceGuard } from './auth/device.ts'
import { type GuardRoute, guardFor } from './auth/guard.ts'
import { integratorGuard } from './auth/integrator.ts'
import { memberGuard } from './auth/member.ts'

export {
  type DeviceCredentialLookup,
  type DeviceCredentials,
  type DeviceIdentity,
  deviceOf,
  noDevices,
  signDeviceRequest,
} from './auth/device.ts'
export { type IntegratorContext, integratorOf } from './auth/integrator.ts'
export { type AuthContext, authOf } from './auth/member.ts'

/**
 * Three kinds of caller, one guard each, chosen by the registered route's path: members (JWT)
 * on /api/v1, devices (HMAC signature) on /device-api, integrators (service configuration
 * access token) on /open-api. A route outside every prefix (health, docs, files, the console)
 * needs none; `config.public` opts a route out of its guard. Each guard sets only its own
 * request field, so a device route never has `req.auth` and a member's token opens nothing
 * outside /api/v1.
 */
export function guardTable(ctx: AppContext): GuardRoute[] {
  return [
    { prefix: '/api/v1', caller: 'member', guard: memberGuard(ctx) },
    { prefix: '/device-api', caller: 'device', guard: deviceGuard(ctx) },
    { prefix: '/open-api', caller: 'integrator', guard: integratorGuard(ctx) },
  ]
}

export const authPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  app.decorateRequest('auth', null)
  app.decorateRequest('device', null)
  app.decorateRequest('integrator', null)
  const table = guardTable(ctx)
  const guardOf = (req: FastifyRequest) =>
    req.is404 || req.routeOptions.config.public ? null : guardFor(table, req.routeOptions.url)?.guard

  app.addHook('onRequest', async (req, reply) => {
    const guard = guardOf(req)
    if (guard?.onRequest) return guard.onRequest(req, reply)
  })
  app.addHook('preParsing', async (req, reply, payload) => {
    const guard = guardOf(req)
    return guard?.preParsing ? guard.preParsing(req, reply, payload) : payload
  })
})
