import { Code } from '@aed/contracts'
import { agencyApi } from '@aed/contracts/agency'
import { callApi } from '@aed/contracts/call'
import { devSmsApi } from '@aed/contracts/dev-sms'
import { responderAlertApi } from '@aed/contracts/dispatch'
import { responderApi } from '@aed/contracts/responder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'
import { drainOutbox } from '../engine/outbox.ts'

// The local SMS provider's outbox read back (DEV_SMS_OUTBOX=1): what the simulator's phones poll
// for their alert links. A call near a responder is dispatched; the alert SMS is read back and
// its link opens the responder's alert.

/** A quiet corner of Hangzhou, away from the demo network's own points. */
const HOME = { lat: 30.2101, lon: 120.0501 }

describe('the SMS outbox read back (DEV_SMS_OUTBOX=1)', () => {
  let t: TestApp
  const tok: Record<string, string> = {}
  beforeAll(async () => {
    t = await createTestApp({ env: { DEV_SMS_OUTBOX: '1' } })
    // The outbox is drained by hand here: no drain of its own races the test's (PostgreSQL).
    t.ctx.drainOnCommit = false
    for (const k of ['superAdmin', 'general', 'hzAdmin'] as const) tok[k] = await t.login(demo[k])
  })
  afterAll(() => t?.close())

  it('answers the SMS after an id, oldest first, with the texts: an alert SMS and its working link', async () => {
    const before = await t.api(devSmsApi.outbox, { token: tok.superAdmin, query: { limit: 500 } })
    expect(before.code).toBe(0)
    const after = before.data.resource.at(-1)?.id ?? 0

    const agencies = await t.api(agencyApi.list, { token: tok.hzAdmin, query: { page: 1, page_size: 10 } })
    const hz = agencies.data.resource.find((a) => a.name === '杭州市西湖区急救中心')!
    const responder = await t.api(responderApi.create, {
      token: tok.hzAdmin,
      body: {
        account: {
          phone: '15830000901',
          name: '孙九',
          birth: '1990-01-01',
          gender: 1,
          ...HOME,
          location: '浙江省杭州市西湖区转塘街道',
        },
        aid_aptitude: 0,
        agency_id: hz.id,
        status: 0,
      },
    })
    expect(responder.code).toBe(0)
    const call = await t.api(callApi.create, {
      token: tok.superAdmin,
      body: { phone: '13800001234', lat: HOME.lat + 0.001, lon: HOME.lon, location: '杭州市西湖区转塘街道' },
    })
    expect(call.code).toBe(0)
    await drainOutbox(t.ctx)

    const read = await t.api(devSmsApi.outbox, { token: tok.superAdmin, query: { after } })
    expect(read.code).toBe(0)
    const rows = read.data.resource
    expect(rows.every((r) => r.id > after)).toBe(true)
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b))
    const alert = rows.find((r) => r.phone === '15830000901' && r.kind === 'dispatch')!
    expect(alert).toMatchObject({ key: expect.stringMatching(/^dispatch:\d+$/), phone: '15830000901' })
    expect(Date.parse(alert.create_time)).not.toBeNaN()
    const token = /\/rescue\/([A-Za-z0-9_-]{43})/.exec(alert.content)![1]
    const opened = await t.api(responderAlertApi.alert, { params: { token } })
    expect(opened.code).toBe(0)
    expect(opened.data).toMatchObject({ state: 'alerted', role: 'patient', responder_name: '孙九' })

    // Past the alert: nothing newer; a limit of one answers the oldest after the id.
    const none = await t.api(devSmsApi.outbox, { token: tok.superAdmin, query: { after: rows.at(-1)!.id } })
    expect(none.data.resource).toEqual([])
    const one = await t.api(devSmsApi.outbox, { token: tok.superAdmin, query: { after, limit: 1 } })
    expect(one.data.resource.map((r) => r.id)).toEqual([rows[0].id])
  })

  it('answers code -2 to anyone but a system super administrator, and the token error to no one', async () => {
    for (const token of [tok.general, tok.hzAdmin]) {
      const r = await t.api(devSmsApi.outbox, { token })
      expect(r.code).toBe(Code.FORBIDDEN)
    }
    expect((await t.api(devSmsApi.outbox)).code).toBe(Code.TOKEN)
  })

  it('refuses a bad cursor or limit', async () => {
    const bad: Record<string, string | number>[] = [
      { after: -1 },
      { limit: 0 },
      { limit: 501 },
      { after: 'x' },
    ]
    for (const query of bad) {
      const r = await t.api(devSmsApi.outbox, { token: tok.superAdmin, query })
      expect(r.code).toBe(Code.INVALID)
    }
  })
})

describe('without DEV_SMS_OUTBOX', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t?.close())

  it('registers no route: 404 even for the super administrator', async () => {
    expect(t.app.routeList.some((r) => r.url === devSmsApi.outbox.path)).toBe(false)
    const r = await t.api(devSmsApi.outbox, { token: await t.login(demo.superAdmin) })
    expect(r.status).toBe(404)
  })

  it('is off by default and refused with a vendor that sends real SMS', () => {
    expect(loadConfig({}).DEV_SMS_OUTBOX).toBe(false)
    expect(loadConfig({ DEV_SMS_OUTBOX: '1' }).DEV_SMS_OUTBOX).toBe(true)
    expect(() =>
      loadConfig({
        DEV_SMS_OUTBOX: '1',
        SMS_PROVIDER: 'aliyun',
        ALIYUN_SMS_ACCESS_KEY_ID: 'id',
        ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
        ALIYUN_SMS_SIGN_NAME: 'AED云',
        ALIYUN_SMS_TEMPLATE_CODE: 'SMS_1',
        ALIYUN_SMS_NOTIFY_TEMPLATE_CODE: 'SMS_2',
      }),
    ).toThrow(/DEV_SMS_OUTBOX needs SMS_PROVIDER=local/)
  })
})
