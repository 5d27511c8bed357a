import { MESSAGE_TYPES } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import { fileTestApp } from '../../test/harness.ts'
import { ASYNCAPI_PATH } from './asyncapi.routes.ts'
import { asyncApiDocument } from './asyncapi.ts'

// The device protocol's AsyncAPI document: public, plain JSON, built from the protocol's schemas.

type Doc = {
  asyncapi: string
  servers: Record<string, { host: string; protocol: string }>
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>
  operations: Record<string, { action: string; channel: { $ref: string } }>
  components: {
    messages: Record<string, { payload: { required?: string[]; properties: Record<string, unknown> } }>
  }
}

/** Every `$ref` of the document, and whether it points at something in it. */
function refs(doc: unknown): { ref: string; found: boolean }[] {
  const out: { ref: string; found: boolean }[] = []
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string' && x.startsWith('#/')) {
        const target = x
          .slice(2)
          .split('/')
          .reduce<unknown>(
            (at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
            doc,
          )
        out.push({ ref: x, found: target !== undefined })
      } else walk(x)
    }
  }
  walk(doc)
  return out
}

const t = fileTestApp()

describe('GET /device-api/docs', () => {
  it('answers the AsyncAPI document without a device signature, as plain JSON', async () => {
    const r = await t.app.inject({ method: 'GET', url: ASYNCAPI_PATH, headers: { host: 'aed.example.cn' } })
    expect(r.statusCode).toBe(200)
    expect(r.headers['content-type']).toMatch(/^application\/json/)
    const doc = r.json() as Doc
    expect(doc.asyncapi).toBe('3.0.0')
    // The embedded broker's ports, on the host the document was asked from.
    const { MQTT_PORT, MQTT_TLS_PORT } = t.ctx.config
    expect(doc.servers.mqtt).toMatchObject({ host: `aed.example.cn:${MQTT_PORT}`, protocol: 'mqtt' })
    // The TLS server is named with its port; with TLS off (port 0), it is not named at all.
    expect(MQTT_TLS_PORT).toBeGreaterThan(0)
    expect(doc.servers.mqtts).toMatchObject({
      host: `aed.example.cn:${MQTT_TLS_PORT}`,
      protocol: 'secure-mqtt',
    })
    t.ctx.config.MQTT_TLS_PORT = 0
    try {
      const off = await t.app.inject({
        method: 'GET',
        url: ASYNCAPI_PATH,
        headers: { host: 'aed.example.cn' },
      })
      expect((off.json() as Doc).servers.mqtts).toBeUndefined()
    } finally {
      t.ctx.config.MQTT_TLS_PORT = MQTT_TLS_PORT
    }
    for (const type of MESSAGE_TYPES) {
      expect(doc.channels[`up_${type}`].address).toBe(`aed/v1/{serial}/up/${type}`)
      expect(doc.operations[`send_${type}`].action).toBe('send')
      const payload = doc.components.messages[type].payload
      expect(payload.required).toEqual(
        expect.arrayContaining(['v', 'id', 'seq', 'boot', 'ts', 'type', 'data']),
      )
      expect(payload.properties.type).toMatchObject({ const: type })
    }
    expect(doc.channels.down_cmd.address).toBe('aed/v1/{serial}/down/cmd')
    expect(doc.channels.down_result.address).toBe('aed/v1/{serial}/down/result')
    expect(refs(doc).filter((x) => !x.found)).toEqual([])
  })

  it('names the TLS port when TLS is on, and no servers for an external broker', () => {
    const on = asyncApiDocument({ host: 'h', port: 1883, tlsPort: 8883 }) as Doc
    expect(Object.keys(on.servers)).toEqual(['mqtts', 'mqtt'])
    expect(on.servers.mqtts).toMatchObject({ host: 'h:8883', protocol: 'secure-mqtt' })
    expect((asyncApiDocument(null) as Doc).servers).toEqual({})
  })
})
