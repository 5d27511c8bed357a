import type { AppContext } from '../../context.ts'
import { startEmbeddedBroker } from './mqtt-broker.ts'
import { defaultClientId, startExternalGateway } from './mqtt-external.ts'

/** The MQTT side as main.ts runs it: what it says at start-up, and how it stops. */
export type MqttGateway = { describe: string; close(): Promise<void> }

/**
 * Starts the MQTT side the configuration asks for: the external broker by MQTT_URL, else the
 * embedded broker on MQTT_PORT (and MQTT_TLS_PORT with a certificate), or nothing when
 * MQTT_PORT is 0.
 */
export async function startMqtt(ctx: AppContext): Promise<MqttGateway | null> {
  const c = ctx.config
  if (c.MQTT_URL) {
    const g = startExternalGateway(ctx, {
      url: c.MQTT_URL,
      clientId: c.MQTT_CLIENT_ID ?? defaultClientId(),
      username: c.MQTT_USERNAME,
      password: c.MQTT_PASSWORD,
    })
    return { describe: 'external broker (MQTT_URL)', close: () => g.close() }
  }
  if (c.MQTT_PORT === 0) return null
  const b = await startEmbeddedBroker(ctx, {
    port: c.MQTT_PORT,
    host: c.HOST,
    tls:
      c.MQTT_TLS_CERT && c.MQTT_TLS_KEY
        ? { port: c.MQTT_TLS_PORT, cert: c.MQTT_TLS_CERT, key: c.MQTT_TLS_KEY }
        : null,
  })
  const tls = b.ports.tls ? `, mqtts://localhost:${b.ports.tls}` : ''
  return { describe: `mqtt://localhost:${b.ports.mqtt}${tls}`, close: () => b.close() }
}
