import type { MqttClient } from 'mqtt'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { TestClock } from '../lib/clock.ts'
import { type EmbeddedBroker, startEmbeddedBroker } from '../modules/gateway/mqtt-broker.ts'
import { type DeviceTestEnv, deviceTestApp } from './device-link.ts'

/**
 * `deviceTestApp` with the embedded broker on a free port, for a whole test file: built before
 * its tests, the broker closed and then the app after them. Clients the tests push on `clients`
 * are ended after each test. Read the fields inside tests, not at the file's top level.
 */
export function brokerTestFile(clock: TestClock) {
  const env = { clients: [] as MqttClient[] } as DeviceTestEnv & {
    broker: EmbeddedBroker
    clients: MqttClient[]
  }
  beforeAll(async () => {
    Object.assign(env, await deviceTestApp(clock))
    env.broker = await startEmbeddedBroker(env.t.ctx, { port: 0, host: '127.0.0.1' })
  })
  afterEach(async () => {
    await Promise.all(env.clients.splice(0).map((c) => c.endAsync(true).catch(() => {})))
  })
  afterAll(async () => {
    await env.broker?.close()
    await env.t?.close()
  })
  return env
}
