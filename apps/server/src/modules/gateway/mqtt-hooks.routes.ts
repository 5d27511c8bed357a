import crypto from 'node:crypto'
import {
  commandTopic,
  mqttAclBody,
  mqttAuthBody,
  SHARED_SUBSCRIPTION,
  TOPIC_PREFIX,
} from '@aed/contracts/device-protocol'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppContext } from '../../context.ts'
import {
  authenticateConnect,
  connectDeps,
  filterMatches,
  isDownTopic,
  maySubscribe,
  publishType,
  serialOf,
} from './mqtt-auth.ts'
import { externalGateways } from './mqtt-external.ts'

export const MQTT_AUTH_PATH = '/device-api/v1/mqtt/auth'
export const MQTT_ACL_PATH = '/device-api/v1/mqtt/acl'
/** The header that carries MQTT_HOOK_SECRET. */
export const HOOK_SECRET_HEADER = 'x-mqtt-hook-secret'

type Result = { result: 'allow' | 'deny' }
const ALLOW: Result = { result: 'allow' }
const DENY: Result = { result: 'deny' }

function sameText(a: string, b: string) {
  const x = crypto.createHash('sha256').update(a).digest()
  const y = crypto.createHash('sha256').update(b).digest()
  return crypto.timingSafeEqual(x, y)
}

/** What the server's own account may do on the external broker: read up topics, write down topics. */
function serverMay(action: 'publish' | 'subscribe', topic: string) {
  if (action === 'publish') return isDownTopic(topic)
  return topic === SHARED_SUBSCRIPTION || topic === `${TOPIC_PREFIX}/+/up/#`
}

/**
 * The external broker's HTTP hooks in the format of EMQX's HTTP authentication and
 * authorisation (also served by Mosquitto's HTTP auth plugins): the broker, not a device, calls
 * them, so they are outside the device guard (`public`), protected by MQTT_HOOK_SECRET when
 * set. Each answers exactly `{"result": "allow"}` or `{"result": "deny"}`, never the envelope;
 * anything wrong (bad body, wrong secret, a failure) is a deny. Broker plumbing, so they are
 * not in the OpenAPI document.
 */
export async function mqttHookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const log = ctx.log.child({ module: 'mqtt-hooks' })
  // Mosquitto's HTTP auth plugins post forms; EMQX posts JSON.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )

  const secretOk = (req: FastifyRequest) => {
    const want = ctx.config.MQTT_HOOK_SECRET
    if (!want) return true
    const got = req.headers[HOOK_SECRET_HEADER]
    return typeof got === 'string' && sameText(got, want)
  }
  const serverAccount = () =>
    ctx.config.MQTT_USERNAME && ctx.config.MQTT_PASSWORD
      ? { username: ctx.config.MQTT_USERNAME, password: ctx.config.MQTT_PASSWORD }
      : null

  const hook = (url: string, decide: (body: unknown) => Promise<boolean>) =>
    app.route({
      method: 'POST',
      url,
      config: { public: true, oplog: false },
      schema: { hide: true },
      // A body that does not even parse (or carries NUL) is a deny too, not the envelope.
      errorHandler: (_err, _req, reply) =>
        reply.status(200).type('application/json; charset=utf-8').send(DENY),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        let allow = false
        try {
          allow = secretOk(req) && (await decide(req.body))
        } catch (e) {
          log.error({ url, err: { message: (e as Error).message } }, 'mqtt hook failed; denied')
        }
        return reply.type('application/json; charset=utf-8').send(allow ? ALLOW : DENY)
      },
    })

  hook(MQTT_AUTH_PATH, async (body) => {
    const b = mqttAuthBody.safeParse(body)
    if (!b.success) return false
    const server = serverAccount()
    if (server && b.data.username === server.username) {
      return sameText(b.data.password, server.password)
    }
    // The same one-time password as the embedded broker: a second CONNECT with it is denied.
    const device = await authenticateConnect(connectDeps(ctx), {
      clientId: b.data.clientid,
      username: b.data.username,
      password: b.data.password,
    })
    return device !== null
  })

  hook(MQTT_ACL_PATH, async (body) => {
    const b = mqttAclBody.safeParse(body)
    if (!b.success) return false
    const { clientid, username, topic, action } = b.data
    const server = serverAccount()
    // The broker authenticated whoever it asks about; the server's account is known by its name.
    if (server && username === server.username) return serverMay(action, topic)
    const sn = serialOf(clientid, username)
    if (!sn) return false
    const allowed = action === 'publish' ? publishType(sn, topic) !== null : maySubscribe(sn, topic)
    if (!allowed) return false
    // A deleted device is refused here too, not only at CONNECT.
    const creds = await ctx.deviceCredentials(sn)
    if (!creds || creds.sn !== sn) return false
    if (action === 'subscribe' && filterMatches(topic, commandTopic(sn))) {
      externalGateways.get(ctx)?.deviceSubscribed({ kind: creds.kind, id: creds.id, sn: creds.sn })
    }
    return true
  })
}
