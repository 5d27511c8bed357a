import net from 'node:net'
import { describe, expect, it } from 'vitest'
import { migrationStarted } from '../../lib/readiness.ts'
import { createTestApp, type TestApp } from '../../test/harness.ts'
import { startMqtt } from '../gateway/mqtt-gateway.ts'

// GET /api/ready (readiness) apart from GET /api/health (liveness): ready only when migrations
// are done, the database answers and the MQTT broker is connected (or off).

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
    s.once('error', reject)
  })
}

async function ready(t: TestApp) {
  const res = await t.app.inject({ method: 'GET', url: '/api/ready' })
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: unknown }) }
}

describe('GET /api/ready', () => {
  it('is 503 until the embedded broker listens, 200 then, 503 again once it stops; /api/health stays 200', async () => {
    const t = await createTestApp({ env: { MQTT_PORT: String(await freePort()), MQTT_TLS_PORT: '0' } })
    try {
      const before = await ready(t)
      expect(before.status).toBe(503)
      expect(before.code).not.toBe(0)
      expect(before.msg).toBe('服务尚未就绪')
      expect(before.data).toEqual({ migrations: 'done', database: 'up', broker: 'starting' })
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200)

      const mqtt = await startMqtt(t.ctx)
      try {
        const up = await ready(t)
        expect(up.status).toBe(200)
        expect(up).toMatchObject({ code: 0, data: { migrations: 'done', database: 'up', broker: 'up' } })

        // While a migration runs on its database, it is not ready.
        const done = migrationStarted(t.ctx.database)
        const migrating = await ready(t)
        done()
        expect(migrating.status).toBe(503)
        expect(migrating.data).toMatchObject({ migrations: 'running' })
        expect((await ready(t)).status).toBe(200)
      } finally {
        await mqtt?.close()
      }
      const down = await ready(t)
      expect(down.status).toBe(503)
      expect(down.data).toMatchObject({ broker: 'down' })
    } finally {
      await t.close()
    }
  })

  it('is 200 with MQTT off (MQTT_PORT=0), and 503 with the database closed', async () => {
    const t = await createTestApp({ env: { MQTT_PORT: '0' } })
    try {
      expect(await startMqtt(t.ctx)).toBeNull()
      const up = await ready(t)
      expect(up.status).toBe(200)
      expect(up.data).toEqual({ migrations: 'done', database: 'up', broker: 'off' })

      await t.ctx.database.close()
      const closed = await ready(t)
      expect(closed.status).toBe(503)
      expect(closed.data).toEqual({ migrations: 'done', database: 'down', broker: 'off' })
      // Liveness says the same of the database, in its own words.
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(503)
    } finally {
      await t.close().catch(() => {})
    }
  })
})
