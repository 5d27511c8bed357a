import { Code } from '@aed/contracts'
import { DEFAULT_SETTINGS, settingsApi } from '@aed/contracts/settings'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../../db/schema.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp
const ids: Record<string, number> = {}
beforeAll(async () => {
  t = await createTestApp()
  for (const a of await t.db.select().from(agencies)) ids[a.name] = a.id
})
afterAll(() => t.close())

const settings = { ...DEFAULT_SETTINGS, aid_sms: 2, location_offset: 5, battery_expire: 3 }

describe('system settings', () => {
  it('answers defaults until saved, then the saved settings of the member’s organisation', async () => {
    const token = await t.login(demo.hzAdmin)
    const before = await t.api(settingsApi.get, { token })
    expect(before.data).toMatchObject({ ...DEFAULT_SETTINGS, agency_id: ids['杭州市西湖区急救中心'] })
    const saved = await t.api(settingsApi.save, { token, body: settings })
    expect(saved).toMatchObject({ code: 0, msg: '保存成功' })
    expect((await t.api(settingsApi.get, { token })).data).toMatchObject(settings)
    // Another organisation keeps its own.
    const nj = await t.api(settingsApi.get, { token: await t.login(demo.njAdmin) })
    expect(nj.data).toMatchObject(DEFAULT_SETTINGS)
  })

  it('validates every option', async () => {
    const token = await t.login(demo.superAdmin)
    const post = (over: object) => t.api(settingsApi.save, { token, body: { ...settings, ...over } })
    expect((await post({ location_offset: 4 })).code).toBe(1)
    expect((await post({ aid_sms: 3 })).code).toBe(1)
    expect((await post({ electrode_sheet_expire: 4 })).code).toBe(1)
    expect((await post({ exec_status_sms_time_period: ['25:00', '20:00'] })).msg).toBe(
      '请输入正确的时间（HH:mm）',
    )
    expect((await post({ exec_status_sms_time_period: ['21:00', '20:00'] })).msg).toBe(
      '开始时间不能大于结束时间！',
    )
    expect((await post({ location_offset: null })).code).toBe(0)
    for (const bad of [0, 61, 2.5]) expect((await post({ alarm_escalate_minutes: bad })).code).toBe(1)
    expect((await post({ alarm_escalate_minutes: 60 })).code).toBe(0)
  })

  it('accepts settings without the escalation minutes (older clients) and answers the default for them', async () => {
    const token = await t.login(demo.szAdmin)
    const { alarm_escalate_minutes: _, ...old } = settings
    expect((await t.api(settingsApi.save, { token, body: old })).code).toBe(0)
    expect((await t.api(settingsApi.get, { token })).data.alarm_escalate_minutes).toBe(5)
  })

  it('lets a parent organisation set a child’s, but not a sibling branch or a read-only member', async () => {
    const east = await t.login(demo.eastAdmin)
    const child = await t.api(settingsApi.save, {
      token: east,
      body: { ...settings, agency_id: ids['南京市鼓楼区红十字会'], alarm_sound: 0 },
    })
    expect(child.code).toBe(0)
    const sibling = await t.api(settingsApi.save, {
      token: east,
      body: { ...settings, agency_id: ids['深圳市南山区急救站'] },
    })
    expect(sibling.code).toBe(Code.NOT_FOUND)
    const read = await t.api(settingsApi.get, {
      token: east,
      query: { agency_id: ids['深圳市南山区急救站'] },
    })
    expect(read.code).toBe(Code.NOT_FOUND)
    const ro = await t.api(settingsApi.save, {
      token: await t.login(demo.general),
      body: settings,
    })
    expect(ro.code).toBe(Code.FORBIDDEN)
  })
})
