import { Code } from '@aed/contracts'
import { serviceConfigApi } from '@aed/contracts/service-config'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../../db/schema.ts'
import { formatDate } from '../../lib/time.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp
let sys: string
const ids: Record<string, number> = {}
beforeAll(async () => {
  t = await createTestApp()
  sys = await t.login(demo.superAdmin)
  for (const a of await t.db.select().from(agencies)) ids[a.name] = a.id
})
afterAll(() => t.close())

describe('service configuration', () => {
  it('creates with generated credentials, shows them only in the detail, lists and filters', async () => {
    const created = await t.api(serviceConfigApi.create, {
      token: sys,
      body: { agency_id: ids['杭州市西湖区急救中心'], service: ['open_api', 'event_push'], state: 1 },
    })
    expect(created).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(created.data.secret).toMatch(/^[0-9a-f]{48}$/)
    expect(created.data.service_list).toEqual(['开放接口', '事件推送'])
    const list = await t.api(serviceConfigApi.list, { token: sys })
    expect(list.data.count).toBe(1)
    expect(list.data.resource[0].secret).toBeUndefined()
    expect(list.data.resource[0]).toMatchObject({ agency_name: '杭州市西湖区急救中心', level: 3 })
    const byService = await t.api(serviceConfigApi.list, {
      token: sys,
      query: { service: 'sms_notify' },
    })
    expect(byService.data.count).toBe(0)
    const today = formatDate(new Date())
    const byDate = await t.api(serviceConfigApi.list, {
      token: sys,
      query: { start_time: today, end_time: today },
    })
    expect(byDate.data.count).toBe(1)
    const detail = await t.api(serviceConfigApi.detail, { params: { id: created.data.id }, token: sys })
    expect(detail.data.access_token).toBe(created.data.access_token)
  })

  it('modifies and regenerates credentials', async () => {
    const list = await t.api(serviceConfigApi.list, { token: sys })
    const before = await t.api(serviceConfigApi.detail, {
      params: { id: list.data.resource[0].id },
      token: sys,
    })
    const r = await t.api(serviceConfigApi.update, {
      params: { id: before.data.id },
      token: sys,
      body: { service: ['sms_notify'], state: 0, regenerate: true },
    })
    expect(r).toMatchObject({ code: 0, msg: '修改成功！' })
    expect(r.data.state).toBe(0)
    expect(r.data.secret).not.toBe(before.data.secret)
  })

  it('validates with the spec messages', async () => {
    const post = (body: object) => t.api(serviceConfigApi.create, { token: sys, body })
    expect((await post({ service: ['open_api'], state: 1 })).msg).toBe('请输入机构名称')
    expect((await post({ agency_id: ids['南京市鼓楼区红十字会'], service: [], state: 1 })).msg).toBe(
      '服务配置不能为空！',
    )
    expect((await post({ agency_id: ids['南京市鼓楼区红十字会'], state: 1 })).msg).toBe('请选择服务配置')
    expect((await post({ agency_id: ids['南京市鼓楼区红十字会'], service: ['open_api'] })).msg).toBe(
      '请选择是否启用',
    )
    expect(
      (await post({ agency_id: ids['杭州市西湖区急救中心'], service: ['open_api'], state: 1 })).msg,
    ).toBe('该机构已有服务配置')
  })

  it('sends the page’s can with the list: add and modify for system super administrators, which then succeed', async () => {
    const list = await t.api(serviceConfigApi.list, { token: sys })
    expect(list.data.can).toEqual({ create: true, update: true })
    const put = await t.api(serviceConfigApi.update, {
      params: { id: list.data.resource[0].id },
      token: sys,
      body: { service: ['open_api'], state: 1 },
    })
    expect(put.code).toBe(0)
    const post = await t.api(serviceConfigApi.create, {
      token: sys,
      body: { agency_id: ids['南京市鼓楼区红十字会'], service: ['open_api'], state: 1 },
    })
    expect(post.code).toBe(0)
    // Anyone else gets no list, hence no can: every call answers the permission error (below).
  })

  it('is refused to everyone but system super administrators', async () => {
    const list = await t.api(serviceConfigApi.list, { token: sys })
    const id = list.data.resource[0].id
    for (const phone of [demo.admin, demo.eastAdmin, demo.hzAdmin, demo.general]) {
      const token = await t.login(phone)
      expect((await t.api(serviceConfigApi.list, { token })).code).toBe(Code.FORBIDDEN)
      expect((await t.api(serviceConfigApi.detail, { params: { id: id }, token })).code).toBe(Code.FORBIDDEN)
      const put = await t.api(serviceConfigApi.update, {
        params: { id: id },
        token,
        body: { service: ['open_api'], state: 1 },
      })
      expect(put.code).toBe(Code.FORBIDDEN)
      const post = await t.api(serviceConfigApi.create, {
        token,
        body: { agency_id: ids['南京市鼓楼区红十字会'], service: ['open_api'], state: 1 },
      })
      expect(post.code).toBe(Code.FORBIDDEN)
    }
  })
})

describe('push URLs: the server refuses what the console hides, and writes nothing', () => {
  const agency = () => ids['深圳市南山区急救站']
  const count = async () => (await t.api(serviceConfigApi.list, { token: sys })).data.count
  const attempts: [string, { service: string[]; push_url: string }, string][] = [
    [
      'a push URL without a push service',
      { service: ['open_api'], push_url: 'https://hooks.example.com/aed' },
      '推送地址需要开通事件推送或设备数据推送',
    ],
    [
      'a loopback address',
      { service: ['event_push'], push_url: 'http://127.0.0.1:4000/hook' },
      '推送地址不能是本机或内网地址',
    ],
    [
      'a private address',
      { service: ['event_push'], push_url: 'http://192.168.1.20/hook' },
      '推送地址不能是本机或内网地址',
    ],
    [
      'localhost by name',
      { service: ['device_data_push'], push_url: 'http://localhost:8080/' },
      '推送地址不能是本机或内网地址',
    ],
    [
      'an IPv4-mapped IPv6 loopback',
      { service: ['event_push'], push_url: 'http://[::ffff:127.0.0.1]/' },
      '推送地址不能是本机或内网地址',
    ],
    [
      'not http(s)',
      { service: ['event_push'], push_url: 'ftp://hooks.example.com/' },
      '推送地址须为http(s)网址',
    ],
  ]

  it.each(attempts)('%s', async (_name, body, msg) => {
    const before = await count()
    const r = await t.api(serviceConfigApi.create, {
      token: sys,
      body: { agency_id: agency(), state: 1, ...body },
    })
    expect(r).toMatchObject({ code: Code.INVALID, msg })
    expect(await count()).toBe(before)
  })

  it('a test event needs a push URL: refused without one, no delivery written', async () => {
    const created = await t.api(serviceConfigApi.create, {
      token: sys,
      body: { agency_id: ids['厦门市思明区体育中心'], service: ['event_push'], state: 1 },
    })
    expect(created.code).toBe(0)
    const r = await t.api(serviceConfigApi.test, { token: sys, params: { id: created.data.id } })
    expect(r).toMatchObject({ code: Code.INVALID, msg: '该配置没有可用的推送地址' })
    const log = await t.api(serviceConfigApi.deliveries, { token: sys, params: { id: created.data.id } })
    expect(log.data.count).toBe(0)
  })
})
