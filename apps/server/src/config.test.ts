import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

describe('configuration', () => {
  it('has working defaults', () => {
    const c = loadConfig({})
    expect(c.PORT).toBe(8080)
    expect(c.SEED_DEMO).toBe(true)
    expect(c.DATABASE_URL).toBeUndefined()
    expect(c.dataDir).toMatch(/\/data$/)
  })

  it('lists every bad setting at once', () => {
    const bad = () =>
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SEED_DEMO: 'maybe', JWT_SECRET: 'short' })
    expect(bad).toThrow(ConfigError)
    try {
      bad()
    } catch (e) {
      const msg = (e as Error).message
      for (const k of ['PORT', 'DATABASE_URL', 'SEED_DEMO', 'JWT_SECRET']) expect(msg).toContain(k)
    }
  })

  it('needs the whole set of vendor credentials', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun' })).toThrow(/ALIYUN_SMS_ACCESS_KEY_ID/)
    expect(() => loadConfig({ WECHAT_APPID: 'wx' })).toThrow(/together/)
    expect(loadConfig({ SEED_DEMO: 'false' }).SEED_DEMO).toBe(false)
  })

  it('listens for MQTT over TLS on 8883 by default, 0 turns it off, and off under the test runner unless set', () => {
    expect(loadConfig({}).MQTT_TLS_PORT).toBe(8883)
    expect(loadConfig({ MQTT_TLS_PORT: '0' }).MQTT_TLS_PORT).toBe(0)
    expect(loadConfig({ VITEST: 'true' }).MQTT_TLS_PORT).toBe(0)
    expect(loadConfig({ VITEST: 'true', MQTT_TLS_PORT: '18883' }).MQTT_TLS_PORT).toBe(18883)
    expect(() => loadConfig({ MQTT_TLS_CERT: '/x.pem' })).toThrow(/together/)
  })

  it('logs devices in through the hooks by default; mosquitto-dynsec needs the broker and its admin account, not the hook secret', () => {
    const broker = { MQTT_URL: 'mqtt://mosquitto:1883', MQTT_USERNAME: 'aedcloud', MQTT_PASSWORD: 'pw' }
    expect(loadConfig({}).MQTT_AUTH).toBe('hooks')
    expect(() => loadConfig(broker)).toThrow(/MQTT_HOOK_SECRET/)
    expect(loadConfig({ ...broker, MQTT_AUTH: 'mosquitto-dynsec' }).MQTT_AUTH).toBe('mosquitto-dynsec')
    expect(() => loadConfig({ MQTT_AUTH: 'mosquitto-dynsec', MQTT_URL: broker.MQTT_URL })).toThrow(
      /MQTT_AUTH=mosquitto-dynsec needs/,
    )
    expect(() => loadConfig({ MQTT_AUTH: 'mosquitto' })).toThrow(/MQTT_AUTH/)
  })
})
