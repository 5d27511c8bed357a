import fs from 'node:fs'
import path from 'node:path'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { AppContext } from './context.ts'
import { devClockRoutes } from './jobs/dev-clock.routes.ts'
import { productionJobs } from './jobs/index.ts'
import { createJobRunner, type JobRunner } from './jobs/runner.ts'
import { agencyRoutes } from './modules/agency/agency.routes.ts'
import { authRoutes } from './modules/auth/auth.routes.ts'
import { securityRoutes } from './modules/auth/security.routes.ts'
import { wechatRoutes } from './modules/auth/wechat.routes.ts'
import { cabinetRoutes } from './modules/cabinet/cabinet.routes.ts'
import { callRoutes } from './modules/call/call.routes.ts'
import { classroomRoutes } from './modules/classroom/classroom.routes.ts'
import { coverageRoutes } from './modules/coverage/coverage.routes.ts'
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts'
import { deviceRoutes } from './modules/device/device.routes.ts'
import { deviceCommandRoutes } from './modules/device/device-command.routes.ts'
import { deviceDetailRoutes } from './modules/device/device-detail.routes.ts'
import { deviceIoRoutes } from './modules/device/device-io.routes.ts'
import { deviceStatsRoutes } from './modules/device/device-stats.routes.ts'
import { responderAlertRoutes } from './modules/dispatch/responder-alert.routes.ts'
import { eventRoutes } from './modules/event/event.routes.ts'
import { filesRoutes } from './modules/files/files.routes.ts'
import { asyncApiRoutes } from './modules/gateway/asyncapi.routes.ts'
import { gatewayRoutes } from './modules/gateway/gateway.routes.ts'
import { mqttHookRoutes } from './modules/gateway/mqtt-hooks.routes.ts'
import { liveRoutes } from './modules/live/live.routes.ts'
import { mapRoutes } from './modules/map/map.routes.ts'
import { memberRoutes } from './modules/member/member.routes.ts'
import { messageRoutes } from './modules/message/message.routes.ts'
import { messagesForLive } from './modules/message/message.service.ts'
import { openApiRoutes } from './modules/open-api/open-api.routes.ts'
import { operationLogRoutes } from './modules/operation-log/operation-log.routes.ts'
import { rescueRoutes } from './modules/rescue/rescue.routes.ts'
import { responderRoutes } from './modules/responder/responder.routes.ts'
import { reviewRoutes } from './modules/review/review.routes.ts'
import { serviceConfigRoutes } from './modules/service-config/service-config.routes.ts'
import { settingsRoutes } from './modules/settings/settings.routes.ts'
import { constantsRoutes } from './modules/system/constants.routes.ts'
import { devSmsRoutes } from './modules/system/dev-sms.routes.ts'
import { metricsRoutes } from './modules/system/metrics.routes.ts'
import { systemRoutes } from './modules/system/system.routes.ts'
import { webhookRoutes } from './modules/webhook/webhook.routes.ts'
import { authPlugin } from './plugins/auth.ts'
import { dbLinkPlugin } from './plugins/db-link.ts'
import { clientErrorHandler, envelopePlugin, frameworkErrors } from './plugins/envelope.ts'
import { oplogPlugin } from './plugins/oplog.ts'
import { routeRegistryPlugin } from './plugins/route-registry.ts'

/** The live channel, with what it shows of the message centre (the live module imports no feature). */
const liveChannel = (app: FastifyInstance, { ctx }: { ctx: AppContext }) =>
  liveRoutes(app, { ctx, messages: messagesForLive })

/** Every feature's routes; each takes the shared context. */
const features = [
  systemRoutes,
  metricsRoutes,
  authRoutes,
  securityRoutes,
  wechatRoutes,
  constantsRoutes,
  filesRoutes,
  mapRoutes,
  classroomRoutes,
  agencyRoutes,
  memberRoutes,
  responderRoutes,
  callRoutes,
  reviewRoutes,
  coverageRoutes,
  responderAlertRoutes,
  settingsRoutes,
  serviceConfigRoutes,
  webhookRoutes,
  operationLogRoutes,
  deviceRoutes,
  deviceIoRoutes,
  deviceStatsRoutes,
  dashboardRoutes,
  deviceDetailRoutes,
  deviceCommandRoutes,
  cabinetRoutes,
  messageRoutes,
  liveChannel,
  eventRoutes,
  rescueRoutes,
  gatewayRoutes,
  mqttHookRoutes,
  asyncApiRoutes,
  openApiRoutes,
]

/**
 * Builds the HTTP app (API, OpenAPI docs, built console) without listening. `jobs` is the
 * server's job runner, which the development clock (DEV_CLOCK) ticks; without it that route
 * ticks a runner of its own.
 */
export async function buildApp(ctx: AppContext, opts: { logger?: FastifyBaseLogger; jobs?: JobRunner } = {}) {
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    // Only proxies we trust may name the client: per-address limits (SMS codes) must not be spoofable.
    trustProxy: ctx.config.TRUST_PROXY,
    // URLs or headers over Node's size limit (and other parser errors) answer in the envelope too.
    clientErrorHandler,
    // So do the router's own refusals (an over-long path parameter, a malformed %-escape).
    frameworkErrors,
    // The spec writes some paths with a trailing slash and some without; accept both.
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: 2 * 1024 * 1024,
  })
  await app.register(routeRegistryPlugin)
  // gzip or brotli for answers over 1 KB when the client accepts it (the dashboard's device layer
  // is megabytes of JSON; the console's scripts too). Registered before every route, since it
  // hooks each route as it is added. Compressed types only (mime-db): images and xlsx files pass
  // as they are; WebSocket upgrades never reach onSend. Request bodies are not inflated: uploads
  // and device messages keep their own size limits on what was sent.
  await app.register(compress, { threshold: 1024, globalDecompression: false })
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  await app.register(swagger, {
    openapi: {
      info: { title: 'AED Cloud API', version: '1.0.0', description: 'Every response is {code, msg, data}.' },
      components: { securitySchemes: { jwt: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
      security: [{ jwt: [] }],
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })

  const spa = fs.existsSync(path.join(ctx.config.WEB_DIST, 'index.html'))
  if (spa) await app.register(fastifyStatic, { root: ctx.config.WEB_DIST, wildcard: false })
  const rescuePage = spa && fs.existsSync(path.join(ctx.config.WEB_DIST, 'rescue.html'))
  await app.register(envelopePlugin, { spa, rescuePage })
  await app.register(dbLinkPlugin, { ctx })
  await app.register(authPlugin, { ctx })
  await app.register(oplogPlugin, { ctx })
  for (const feature of features) await app.register(feature, { ctx })
  // Development only: with DEV_CLOCK off the route is not registered at all (404).
  if (ctx.config.DEV_CLOCK) {
    const jobs = opts.jobs ?? createJobRunner(ctx, productionJobs, { log: app.log })
    await app.register(devClockRoutes, { ctx, jobs })
  }
  // Development only: the local SMS provider's outbox read back (DEV_SMS_OUTBOX), else 404.
  if (ctx.config.DEV_SMS_OUTBOX) await app.register(devSmsRoutes, { ctx })
  return app
}
