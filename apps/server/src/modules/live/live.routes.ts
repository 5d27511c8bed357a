import { LIVE_AUTH_TIMEOUT_MS, LIVE_PATH, LiveClose, liveHello } from '@aed/contracts/live'
import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { beforeScrape, counter, gauge } from '../../lib/metrics.ts'
import { authenticateMember } from '../../plugins/auth/member.ts'
import { LiveHub, type LiveMessages } from './live.hub.ts'

const liveSockets = gauge('aed_live_sockets', 'Consoles connected to the live channel of this instance')
// Counted by the hub as a plain number and added here at scrape: never per frame on the send path.
const livePushesSent = counter('aed_live_pushes_sent_total', 'Pushes sent to consoles on the live channel')

/** Frames larger than this from a console are refused (the hello is a token and a number). */
const MAX_CLIENT_FRAME = 16 * 1024

/**
 * The live channel: a WebSocket whose first message is `{"token", "after"?, "lang"?}` (never a
 * token in the URL, where logs and proxies keep it). Without a valid one within 5 s it closes
 * (4001 no hello, 4003 refused); a session ended while open closes with 4009 (live.hub.ts).
 * Frames are `{id, data_type, data}`; see contracts/live.ts.
 */
export async function liveRoutes(
  app: FastifyInstance,
  { ctx, messages }: { ctx: AppContext; messages: LiveMessages },
) {
  await app.register(websocket, { options: { maxPayload: MAX_CLIENT_FRAME } })
  const hub = new LiveHub(ctx, messages)
  await hub.start()
  const unscrape = beforeScrape(ctx, () => {
    liveSockets.set(ctx, {}, hub.size)
    livePushesSent.inc(ctx, {}, hub.takeSent())
  })
  app.addHook('preClose', () => {
    unscrape()
    return hub.stop()
  })
  app.decorate('liveHub', hub)

  app.get(
    LIVE_PATH,
    {
      websocket: true,
      // Authenticated by the first message, not by a header the browser cannot set on a socket.
      config: { public: true },
      schema: {
        summary:
          'Live channel (WebSocket). First message {"token": "<JWT>", "after"?: <last id seen>, "lang"?}. ' +
          'Frames {id, data_type, data}: 2 first-aid alarm and 4 cabinet door open (data_time, location, ' +
          'cabinet_sn, device_sn, agency_name, msg_id, event_type, event_id, escalation_level); 11 device ' +
          'status changed (device_id, device_sn, status, readiness, reasons); 12 unconfirmed message count ' +
          '(amount; repeats the last id); 13 message created, confirmed or escalated (the message-centre ' +
          "object); 14 a call's dispatch moved (call_id, dispatch_id, kind); 15 a rescue was linked to a " +
          'call (call_id, rescue_id); 16 a device event opened or closed (event_id, device_id, device_sn, kind, ' +
          'opened); 17 a cabinet door or connection changed (cabinet_id, cabinet_sn, door_status?, online?). ' +
          'With `after`, what was missed in the last day (in scope) comes first. Close codes: 4001 ' +
          'no first message in 5 s, 4003 token refused or session ended, 4009 the session was ended while ' +
          'open (reason password_changed or agency_disabled).',
        tags: ['messages'],
      },
    },
    (socket, req) => {
      const timer = setTimeout(
        () => socket.close(LiveClose.AUTH_TIMEOUT, 'no token'),
        ctx.liveAuthTimeoutMs ?? LIVE_AUTH_TIMEOUT_MS,
      )
      socket.once('message', async (raw) => {
        clearTimeout(timer)
        let hello: ReturnType<typeof liveHello.parse>
        try {
          hello = liveHello.parse(JSON.parse(String(raw)))
        } catch {
          socket.close(LiveClose.AUTH_FAILED, 'bad hello')
          return
        }
        try {
          const auth = await authenticateMember(ctx, hello.token)
          if (socket.readyState !== socket.OPEN) return
          await hub.join(socket, auth, hello.lang ?? langOf(req), hello.after, req.raw.socket)
        } catch (e) {
          if (socket.readyState === socket.OPEN) socket.close(LiveClose.AUTH_FAILED, 'token refused')
          if (!(e instanceof Error && 'code' in e))
            ctx.log.warn({ err: { message: (e as Error).message } }, 'live join failed')
        }
      })
      socket.on('close', () => clearTimeout(timer))
    },
  )
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's live channel (its consoles; tests and benchmarks count them). */
    liveHub: LiveHub
  }
}
