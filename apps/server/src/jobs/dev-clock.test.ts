import { Code } from '@aed/contracts'
import { agencyApi } from '@aed/contracts/agency'
import { devClockApi } from '@aed/contracts/dev-clock'
import { responderApi } from '@aed/contracts/responder'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatDate } from '../lib/time.ts'
import { createTestApp, demo, type TestApp } from '../test/harness.ts'

const DAY = 86_400_000

/** The moment `days` after today at 10:00 in Shanghai (02:00 UTC), after the daily notices' hour. */
function tenOClock(days: number) {
  const date = formatDate(new Date(Date.now() + days * DAY))
  return new Date(`${date}T02:00:00.000Z`)
}

describe('the development clock (DEV_CLOCK=1)', () => {
  let t: TestApp
  const tok: Record<string, string> = {}
  beforeAll(async () => {
    t = await createTestApp({ env: { DEV_CLOCK: '1' } })
    for (const k of ['superAdmin', 'general', 'hzAdmin'] as const) tok[k] = await t.login(demo[k])
  })
  afterAll(() => t?.close())

  it('moves the clock forward and runs the jobs: a certificate expires and is recorded once', async () => {
    const agencies = await t.api(agencyApi.list, { token: tok.hzAdmin, query: { page: 1, page_size: 10 } })
    const hz = agencies.data.resource.find((a) => a.name === '杭州市西湖区急救中心')!
    const tomorrow = formatDate(new Date(Date.now() + DAY))
    const created = await t.api(responderApi.create, {
      token: tok.hzAdmin,
      body: {
        account: {
          phone: '13912340077',
          name: '钱七',
          birth: '1985-03-04',
          gender: 1,
          lat: 30.27,
          lon: 120.15,
          location: '浙江省杭州市西湖区文三路1号',
        },
        aid_aptitude: 1,
        certificate_num: 'DEVCLOCK-1',
        certificate_expire: tomorrow,
        certificate_img: '/files/cert.png',
        agency_id: hz.id,
        status: 0,
      },
    })
    expect(created.code).toBe(0)
    expect(created.data).toMatchObject({ certificate_status: 1, dispatch_state: 'ready' })

    const target = tenOClock(2)
    const moved = await t.api(devClockApi.advance, {
      token: tok.superAdmin,
      body: { advance_ms: target.getTime() - Date.now() },
    })
    expect(moved.code).toBe(0)
    expect(Math.abs(Date.parse(moved.data.now) - target.getTime())).toBeLessThan(60_000)
    expect(moved.data.jobs['responder-certificates']).toBe('ran')
    expect(Math.abs(t.ctx.clock.now().getTime() - target.getTime())).toBeLessThan(60_000)

    const id = created.data.id
    const detail = await t.api(responderApi.detail, { token: tok.hzAdmin, params: { id } })
    expect(detail.data).toMatchObject({ certificate_status: 0, dispatch_state: 'certificate_expired' })
    const kinds = async () =>
      (
        await t.api(responderApi.changes, {
          token: tok.hzAdmin,
          params: { id },
          query: { page: 1, page_size: 20 },
        })
      ).data.resource.map((c) => c.kind)
    expect(await kinds()).toContain('expired')

    // An hour on: the jobs run again, the expiry is not noticed twice.
    const again = await t.api(devClockApi.advance, { token: tok.superAdmin, body: { advance_ms: 3600_000 } })
    expect(again.data.jobs['responder-certificates']).toBe('ran')
    expect((await kinds()).filter((k) => k === 'expired')).toHaveLength(1)
  })

  it('answers code -2 to anyone but a system super administrator, and leaves the clock', async () => {
    for (const token of [tok.general, tok.hzAdmin]) {
      const before = t.ctx.clock.now().getTime()
      const r = await t.api(devClockApi.advance, { token, body: { advance_ms: 30 * DAY } })
      expect(r.code).toBe(Code.FORBIDDEN)
      expect(t.ctx.clock.now().getTime() - before).toBeLessThan(60_000)
    }
    const anonymous = await t.api(devClockApi.advance, { body: { advance_ms: DAY } })
    expect(anonymous.code).toBe(Code.TOKEN)
  })

  it('refuses a move backwards', async () => {
    const r = await t.api(devClockApi.advance, { token: tok.superAdmin, body: { advance_ms: -DAY } })
    expect(r.code).toBe(Code.INVALID)
  })
})

describe('without DEV_CLOCK', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t?.close())

  it('registers no clock route: 404 even for the super administrator, and the real clock', async () => {
    expect(t.app.routeList.some((r) => r.url === devClockApi.advance.path)).toBe(false)
    const r = await t.api(devClockApi.advance, {
      token: await t.login(demo.superAdmin),
      body: { advance_ms: 86_400_000 },
    })
    expect(r.status).toBe(404)
    expect(Math.abs(t.ctx.clock.now().getTime() - Date.now())).toBeLessThan(1000)
  })
})
