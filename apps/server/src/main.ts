import fs from 'node:fs'
import { buildApp } from './app.ts'
import { createContext, openDatabase } from './bootstrap.ts'
import { loadConfigOrExit } from './config.ts'
import { productionJobs } from './jobs/index.ts'
import { createJobRunner } from './jobs/runner.ts'
import { DataDirLockedError, lockDataDir } from './lib/data-lock.ts'
import { createLogger } from './lib/logger.ts'
import { retryCabinetInbox } from './modules/cabinet/cabinet-engine.service.ts'
import { retryInbox } from './modules/engine/engine.service.ts'
import { type MqttGateway, startMqtt, tlsBannerLines } from './modules/gateway/mqtt-gateway.ts'
import { startWebhookSender, type WebhookSender } from './modules/webhook/webhook.sender.ts'
import { DEMO_PASSWORD, demoMembers, hasDemo, isEmpty } from './seed/seed.ts'

function fail(message: string): never {
  console.error(`\n${message}\n`)
  process.exit(1)
}

async function main() {
  const config = loadConfigOrExit()
  let release: () => void = () => {}
  try {
    // Only PGlite's files need one process: instances on one PostgreSQL may share DATA_DIR (its
    // uploads, as `npm run cluster` does), given the same secrets.
    if (!config.DATABASE_URL) release = lockDataDir(config.dataDir)
  } catch (e) {
    if (e instanceof DataDirLockedError) fail(e.message)
    throw e
  }
  const log = createLogger(config.LOG_LEVEL)
  const database = await openDatabase(config, { serving: true }).catch((e: Error) =>
    fail(
      `Cannot open the database${config.DATABASE_URL ? ' at DATABASE_URL' : ` in ${config.dataDir}`}: ${e.message}`,
    ),
  )
  database.link.onChange((up) =>
    up
      ? log.info('database link up again: serving')
      : log.warn(
          { timeoutMs: config.DB_LINK_TIMEOUT_MS },
          'database link down (two probes unanswered): connections cut, requests refused until it answers',
        ),
  )
  const ctx = await createContext(config, database, log)
  // Messages a crash left acknowledged but not applied are applied before anything new comes in.
  const recovered = (await retryInbox(ctx)) + (await retryCabinetInbox(ctx))
  if (recovered) log.warn({ messages: recovered }, 'applied device messages left over by the previous run')
  const jobs = createJobRunner(ctx, productionJobs, { log })
  // The development clock (DEV_CLOCK) ticks this runner, so its ticks and the schedule's never overlap.
  const app = await buildApp(ctx, { logger: log, jobs })
  let mqtt: MqttGateway | null = null
  let webhooks: WebhookSender | null = null
  // Closing the app stops the webhook sender: no new send, the batches under way recorded (what
  // they did not send goes again once their lease expires), before the database closes.
  app.addHook('onClose', async () => {
    await webhooks?.stop()
  })

  const shutdown = async (signal: string) => {
    log.info(`${signal}: shutting down`)
    await jobs.stop()
    // Devices first: no new message is taken, and what is being stored commits before the database closes.
    await mqtt?.close().catch((e: Error) => log.error({ err: { message: e.message } }, 'mqtt close failed'))
    await app.close()
    await database.close()
    release()
    process.exit(0)
  }
  process.once('SIGINT', () => void shutdown('SIGINT'))
  process.once('SIGTERM', () => void shutdown('SIGTERM'))

  try {
    await app.listen({ port: config.PORT, host: config.HOST })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    fail(
      code === 'EADDRINUSE' ? `Port ${config.PORT} is already in use: set PORT to another port.` : String(e),
    )
  }
  try {
    mqtt = await startMqtt(ctx)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const port = (e as { port?: number }).port
    fail(
      code === 'EADDRINUSE'
        ? port === config.MQTT_TLS_PORT
          ? `MQTT over TLS port ${port} is already in use: set MQTT_TLS_PORT (0 turns TLS off).`
          : `MQTT port ${port ?? config.MQTT_PORT} is already in use: set MQTT_PORT (0 turns it off).`
        : `Cannot start MQTT: ${String(e)}`,
    )
  }
  jobs.start()
  // Every instance sends webhooks (each endpoint by one instance at a time: webhook.sender.ts).
  webhooks = startWebhookSender(ctx)

  const url = `http://localhost:${config.PORT}`
  const lines = [
    '',
    `AED Cloud is running at ${url}`,
    `  database: ${database.kind === 'pglite' ? `PGlite in ${config.dataDir}/pg` : 'PostgreSQL (DATABASE_URL)'}`,
    `  API docs: ${url}/api/docs`,
    `  device MQTT: ${mqtt?.describe ?? 'off (MQTT_PORT=0)'}`,
    ...(mqtt?.tls ? tlsBannerLines(mqtt.tls) : []),
  ]
  if (!fs.existsSync(config.WEB_DIST)) lines.push('  console: not built (run `npm run build`); the API is up')
  if (await isEmpty(database.db)) {
    lines.push('  no organisation yet: create the first super administrator with `npm run admin:create`')
  } else if (await hasDemo(database.db)) {
    lines.push(`  demo sign-ins (password ${DEMO_PASSWORD}):`)
    const seen = new Set<string>()
    for (const m of demoMembers) {
      if (seen.has(m.phone)) continue
      seen.add(m.phone)
      lines.push(`    ${m.phone}  ${m.name}`)
    }
  }
  console.log(lines.join('\n'))
}

void main()
