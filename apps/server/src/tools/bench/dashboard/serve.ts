import pino from 'pino'
import { buildApp } from '../../../app.ts'
import { createContext } from '../../../bootstrap.ts'
import { loadConfig } from '../../../config.ts'
import { openPostgres } from '../../../db/client.ts'
import { createJobRunner } from '../../../jobs/runner.ts'
import { outboxJob } from '../../../modules/engine/outbox.ts'

/**
 * The bench's server, in a child process (`main.ts --serve`): the app on the bench database as
 * main.ts builds it, with the outbox job (status pushes) but not the engine's sweeps: on devices
 * that never reported, main.ts's expiry recheck would turn the bench's statuses into "never
 * reported" warnings, ~60 a second for half an hour, each a status push to the open dashboard.
 */
export async function serve() {
  const config = loadConfig()
  const database = await openPostgres(config.DATABASE_URL as string)
  const log = pino({ level: config.LOG_LEVEL })
  const ctx = await createContext(config, database, log)
  const app = await buildApp(ctx, { logger: log })
  const jobs = createJobRunner(ctx, [outboxJob], { log })
  process.once('SIGTERM', () => {
    void (async () => {
      await jobs.stop()
      await app.close()
      await database.close()
      process.exit(0)
    })()
  })
  await app.listen({ port: config.PORT, host: config.HOST })
  jobs.start()
}
