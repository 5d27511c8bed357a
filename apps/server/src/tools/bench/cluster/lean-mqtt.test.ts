import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { connectAsync, type MqttClient } from 'mqtt'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasMosquitto, type Mosquitto, startMosquitto } from '../../../test/mosquitto.ts'
import { LeanMqtt } from './lean-mqtt.ts'

// The bench's lean device connection against a real Mosquitto: its packets as the broker reads
// them (CONNECT with an account, PUBLISH at QoS 1 and the PUBACK, a refused account).

describe.skipIf(!hasMosquitto)('LeanMqtt on Mosquitto', () => {
  let broker: Mosquitto
  let reader: MqttClient
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-lean-mqtt-'))
  beforeAll(async () => {
    const passwords = path.join(dir, 'passwords')
    fs.writeFileSync(passwords, '')
    execFileSync('mosquitto_passwd', ['-b', passwords, 'dev', 'right'])
    execFileSync('mosquitto_passwd', ['-b', passwords, 'reader', 'r'])
    fs.chmodSync(dir, 0o755)
    fs.chmodSync(passwords, 0o644)
    broker = await startMosquitto([`password_file ${passwords}`, 'allow_anonymous false'])
    reader = await connectAsync(broker.url, { username: 'reader', password: 'r', reconnectPeriod: 0 })
    await reader.subscribeAsync('lean/#', { qos: 1 })
  }, 20_000)
  afterAll(async () => {
    await reader?.endAsync()
    await broker?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const lean = (password: string, clientId = 'lean-1') =>
    new LeanMqtt({ host: '127.0.0.1', port: broker.port, clientId, username: 'dev', password, keepalive: 0 })

  it('connects with an account, publishes at QoS 1 and resolves at the PUBACK; the message arrives whole', async () => {
    const c = lean('right')
    expect(await c.connect(5000)).toBe(true)
    const got = new Promise<[string, string]>((resolve) =>
      reader.once('message', (topic, payload) => resolve([topic, payload.toString()])),
    )
    // Past 127 bytes the remaining length takes two bytes.
    const payload = JSON.stringify({ text: 'x'.repeat(300) })
    await c.publish('lean/up/heartbeat', payload)
    expect(c.inflight).toBe(0)
    expect(await got).toEqual(['lean/up/heartbeat', payload])
    c.close()
  }, 10_000)

  it('answers false and the reason for a refused account; publishing then fails', async () => {
    const c = lean('wrong', 'lean-2')
    expect(await c.connect(5000)).toBe(false)
    expect(c.error).toBe('CONNACK 5')
    await expect(c.publish('lean/up/x', '{}')).rejects.toThrow()
  }, 10_000)
})
