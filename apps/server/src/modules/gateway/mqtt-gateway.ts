import type { AppContext } from '../../context.ts'
import { setBroker } from '../../lib/readiness.ts'
import { startEmbeddedBroker } from './mqtt-broker.ts'
import { startDynsecSync } from './mqtt-dynsec.service.ts'
import { defaultClientId, startExternalGateway } from './mqtt-external.ts'
import { brokerCertificate, type MqttTlsCertificate } from './mqtt-tls.ts'

/** The MQTT side as main.ts runs it: what it says at start-up, and how it stops. */
export type MqttGateway = {
  describe: string
  /** The TLS listener's certificate, for the start-up banner (a device maker pins its fingerprint). */
  tls: MqttTlsCertificate | null
  close(): Promise<void>
}

/**
 * Starts the MQTT side the configuration asks for: the external broker by MQTT_URL (with
 * MQTT_AUTH=mosquitto-dynsec, and the server keeping the broker's accounts), else the
 * embedded broker on MQTT_PORT and MQTT_TLS_PORT (with MQTT_TLS_CERT/MQTT_TLS_KEY, or else a
 * self-signed certificate generated into DATA_DIR/secrets at the first start), or nothing when
 * MQTT_PORT is 0. MQTT_TLS_PORT=0 leaves TLS off. Tells the readiness check (GET /api/ready)
 * whether the broker is connected: the external one while its client is, the embedded one while
 * it listens.
 */
export async function startMqtt(ctx: AppContext): Promise<MqttGateway | null> {
  const c = ctx.config
  if (c.MQTT_URL) {
    const clientId = c.MQTT_CLIENT_ID ?? defaultClientId()
    const account = { url: c.MQTT_URL, username: c.MQTT_USERNAME, password: c.MQTT_PASSWORD }
    const g = startExternalGateway(ctx, { ...account, clientId })
    // Its own connection to $CONTROL, beside the gateway's (whose messages all go to the engine).
    const dynsec =
      c.MQTT_AUTH === 'mosquitto-dynsec'
        ? startDynsecSync(ctx, { ...account, clientId: `${clientId.slice(0, 56)}-dynsec` })
        : null
    setBroker(ctx, () => g.client.connected)
    return {
      describe: dynsec
        ? 'external broker (MQTT_URL), Mosquitto dynamic security'
        : 'external broker (MQTT_URL)',
      tls: null,
      close: async () => {
        await dynsec?.close()
        await g.close()
      },
    }
  }
  if (c.MQTT_PORT === 0) {
    setBroker(ctx, 'off')
    return null
  }
  const cert = c.MQTT_TLS_PORT === 0 ? null : await brokerCertificate(c)
  if (cert) {
    const log = ctx.log.child({ module: 'mqtt' })
    const about = { cert: cert.certPath, sha256: cert.fingerprint, validTo: cert.validTo.toISOString() }
    log.info(about, cert.created ? 'mqtt tls: self-signed certificate generated' : 'mqtt tls certificate')
    if (cert.validTo.getTime() < Date.now()) log.warn(about, 'mqtt tls: the certificate has expired')
  }
  const b = await startEmbeddedBroker(ctx, {
    port: c.MQTT_PORT,
    host: c.HOST,
    tls: cert ? { port: c.MQTT_TLS_PORT, cert: cert.certPath, key: cert.keyPath } : null,
  })
  let listening = true
  setBroker(ctx, () => listening)
  const tls = b.ports.tls ? `, mqtts://localhost:${b.ports.tls}` : ''
  const close = () => {
    listening = false
    return b.close()
  }
  return { describe: `mqtt://localhost:${b.ports.mqtt}${tls}`, tls: cert, close }
}

/** The banner's lines about the TLS certificate: where it is and the fingerprint to pin. */
export function tlsBannerLines(cert: MqttTlsCertificate): string[] {
  const what = cert.selfSigned ? ' (self-signed: devices pin its fingerprint or trust this file)' : ''
  return [`  MQTT TLS certificate: ${cert.certPath}${what}`, `    SHA-256 fingerprint ${cert.fingerprint}`]
}
