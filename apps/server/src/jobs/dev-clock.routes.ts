import { devClockApi } from '@aed/contracts/dev-clock'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../context.ts'
import { isMovable } from '../lib/clock.ts'
import { formatDateTime } from '../lib/time.ts'
import { routes } from '../plugins/route.ts'
import type { JobRunner } from './runner.ts'

/**
 * POST /api/v1/dev/clock (DEV_CLOCK=1 only; app.ts registers it then and never otherwise): a
 * system super administrator moves the server's clock forward and the scheduled jobs run once
 * at the new time, through the server's own runner, so the move and a tick of its own never
 * overlap. A journey sees by it what days of waiting would show (a certificate expiring).
 */
export async function devClockRoutes(
  app: FastifyInstance,
  { ctx, jobs }: { ctx: AppContext; jobs: JobRunner },
) {
  const clock = ctx.clock
  if (!isMovable(clock)) throw new Error('DEV_CLOCK is on but the context’s clock cannot be moved')
  const route = routes(app, ['dev'])
  route(
    devClockApi.advance,
    {
      systemSuper: true,
      oplog: {
        type: '开发时钟',
        content: ({ body }, d) =>
          `时钟前进${Math.round(body.advance_ms / 60_000)}分钟，现在${formatDateTime(new Date(d.now))}`,
      },
    },
    async ({ body }) => {
      clock.advance(body.advance_ms)
      const outcomes = await jobs.tick()
      return { now: clock.now().toISOString(), jobs: outcomes }
    },
  )
}
