import { Code } from '@aed/contracts'
import type { Agency, AgencyNode } from '@aed/contracts/agency'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../../db/schema.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}

beforeAll(async () => {
  t = await createTestApp()
  for (const [k, phone] of Object.entries(demo)) tokens[k] = await t.login(phone)
  for (const a of await t.db.select().from(agencies)) ids[a.name] = a.id
})
afterAll(() => t.close())

const form = (over: Record<string, unknown> = {}) => ({
  name: '测试机构',
  agency_type: 2,
  parent_id: null,
  contact_name: '张三',
  phone: '13912345678',
  location: '文三路1号',
  address_code: '330106',
  ...over,
})

type List = { count: number; resource: Agency[] }

describe('organisation tree and list', () => {
  it('shows a member its own subtree only', async () => {
    const tree = await t.call<{ resource: AgencyNode[] }>('GET', '/api/v1/agency/hierarchy/', {
      token: tokens.eastAdmin,
    })
    expect(tree.data.resource).toHaveLength(1)
    expect(tree.data.resource[0].name).toBe('华东区域总代理')
    expect(tree.data.resource[0].kids.map((k) => k.name).sort()).toEqual([
      '南京市鼓楼区红十字会',
      '杭州市西湖区急救中心',
    ])
    const all = await t.call<{ resource: AgencyNode[] }>('GET', '/api/v1/agency/hierarchy/', {
      token: tokens.superAdmin,
    })
    expect(all.data.resource[0].kids).toHaveLength(2)
  })

  it('pages, filters by name and subtree, masks phones and gives levels', async () => {
    const page = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { page: 1, page_size: 3 },
    })
    expect(page.data.count).toBe(7)
    expect(page.data.resource).toHaveLength(3)
    expect(page.data.resource[0]).toMatchObject({ level: 1, agency_type: 0, phone: '010****1234' })
    const p3 = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { page: 3, page_size: 3 },
    })
    expect(p3.data).toMatchObject({ count: 7 })
    expect(p3.data.resource).toHaveLength(1)
    const byName = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { name: '急救' },
    })
    expect(byName.data.resource.map((a) => a.name).sort()).toEqual([
      '杭州市西湖区急救中心',
      '深圳市南山区急救站',
    ])
    const south = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { index_link: `/${ids['AED云平台运营中心']}/${ids['华南区域总代理']}/` },
    })
    expect(south.data.count).toBe(3)
    expect(south.data.resource.find((a) => a.name === '深圳市南山区急救站')).toMatchObject({
      parent_name: '华南区域总代理',
      level: 3,
      address_name: '广东省深圳市南山区',
    })
  })

  it('refuses to show another branch, in the list and by id', async () => {
    const leak = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.hzAdmin,
      query: { index_link: `/${ids['AED云平台运营中心']}/` },
    })
    expect(leak.data.resource.map((a) => a.name)).toEqual(['杭州市西湖区急救中心'])
    const other = await t.call('GET', `/api/v1/agency/${ids['南京市鼓楼区红十字会']}`, {
      token: tokens.hzAdmin,
    })
    expect(other.code).toBe(Code.NOT_FOUND)
    const parent = await t.call('GET', `/api/v1/agency/${ids['华东区域总代理']}`, { token: tokens.hzAdmin })
    expect(parent.code).toBe(Code.NOT_FOUND)
  })

  it('rejects a name filter over 50 characters with the spec message', async () => {
    const r = await t.call('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { name: 'x'.repeat(51) },
    })
    expect(r).toMatchObject({ code: 1, msg: '字符长度不超过50' })
  })
})

describe('creating organisations', () => {
  it('validates with the spec messages', async () => {
    const post = (body: object) => t.call('POST', '/api/v1/agency/', { token: tokens.superAdmin, body })
    expect((await post(form({ name: ' ' }))).msg).toBe('请输入机构名称')
    expect((await post(form({ agency_type: undefined }))).msg).toBe('请选择机构类型')
    expect((await post(form({ contact_name: '' }))).msg).toBe('请选择机构联系人')
    expect((await post(form({ phone: '' }))).msg).toBe('请输入联系电话')
    expect((await post(form({ address_code: '330100' }))).msg).toBe('地址需要选择到区!')
    expect((await post(form({ address_code: '330000' }))).msg).toBe('地址需要选择到区!')
  })

  it('creates under the chosen parent with level = parent + 1, and logs it', async () => {
    const r = await t.call<Agency>('POST', '/api/v1/agency/', {
      token: tokens.eastAdmin,
      body: form({ name: '宁波市海曙区急救站', address_code: '330203' }),
    })
    expect(r).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(r.data).toMatchObject({ parent_name: '华东区域总代理', level: 3, agency_type: 2 })
    const tree = await t.call<{ resource: AgencyNode[] }>('GET', '/api/v1/agency/hierarchy/', {
      token: tokens.eastAdmin,
    })
    expect(tree.data.resource[0].kids.map((k) => k.name)).toContain('宁波市海曙区急救站')
    const { operationLogs } = await import('../../db/schema.ts')
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.operation_type, '新增机构'))
    expect(logs.at(-1)?.content).toBe('新增普通机构：宁波市海曙区急救站')
  })

  it('applies the type rules: no system agency, general agents only by system members', async () => {
    const sys = await t.call('POST', '/api/v1/agency/', {
      token: tokens.superAdmin,
      body: form({ agency_type: 0 }),
    })
    expect(sys.msg).toBe('无权创建该类型的机构')
    const ga = await t.call('POST', '/api/v1/agency/', {
      token: tokens.eastAdmin,
      body: form({ name: '西北总代理', agency_type: 1 }),
    })
    expect(ga.msg).toBe('无权创建该类型的机构')
    const ok = await t.call<Agency>('POST', '/api/v1/agency/', {
      token: tokens.superAdmin,
      body: form({ name: '西北区域总代理', agency_type: 1, address_code: '610113' }),
    })
    expect(ok.data).toMatchObject({ level: 2, parent_name: 'AED云平台运营中心' })
    // An ordinary agency has no organisations below it.
    const underOrdinary = await t.call('POST', '/api/v1/agency/', {
      token: tokens.hzAdmin,
      body: form({ name: '子站' }),
    })
    expect(underOrdinary.msg).toBe('上级机构不正确')
  })

  it('refuses a parent outside the member’s subtree, and read-only members', async () => {
    const cross = await t.call('POST', '/api/v1/agency/', {
      token: tokens.eastAdmin,
      body: form({ name: '越权机构', parent_id: ids['华南区域总代理'] }),
    })
    expect(cross.msg).toBe('上级机构不正确')
    const ro = await t.call('POST', '/api/v1/agency/', {
      token: tokens.general,
      body: form({ name: '只读' }),
    })
    expect(ro.code).toBe(Code.FORBIDDEN)
    const count = await t.db.select().from(agencies).where(eq(agencies.name, '越权机构'))
    expect(count).toHaveLength(0)
  })
})

describe('modifying organisations', () => {
  it('modifies fields and moves a subtree, rewriting paths and levels', async () => {
    const nj = ids['南京市鼓楼区红十字会']
    const r = await t.call<Agency>('PUT', `/api/v1/agency/${nj}`, {
      token: tokens.superAdmin,
      body: form({ name: '南京市鼓楼区红十字会', parent_id: ids['华南区域总代理'], address_code: '320106' }),
    })
    expect(r).toMatchObject({ code: 0, msg: '修改成功！' })
    expect(r.data).toMatchObject({ parent_name: '华南区域总代理', level: 3 })
    expect(r.data.index_link).toBe(`/${ids['AED云平台运营中心']}/${ids['华南区域总代理']}/${nj}/`)
    // The east admin no longer sees it; the south admin does.
    expect((await t.call('GET', `/api/v1/agency/${nj}`, { token: tokens.eastAdmin })).code).toBe(
      Code.NOT_FOUND,
    )
    expect((await t.call('GET', `/api/v1/agency/${nj}`, { token: tokens.southAdmin })).code).toBe(0)
    // and back
    await t.call('PUT', `/api/v1/agency/${nj}`, {
      token: tokens.superAdmin,
      body: form({ name: '南京市鼓楼区红十字会', parent_id: ids['华东区域总代理'], address_code: '320106' }),
    })
  })

  it('refuses moving under its own subtree, changing its own place, and another branch', async () => {
    const east = ids['华东区域总代理']
    const into = await t.call('PUT', `/api/v1/agency/${east}`, {
      token: tokens.superAdmin,
      body: form({
        name: '华东区域总代理',
        agency_type: 1,
        parent_id: ids['杭州市西湖区急救中心'],
        address_code: '310104',
      }),
    })
    expect(into.code).toBe(1)
    const own = await t.call('PUT', `/api/v1/agency/${east}`, {
      token: tokens.eastAdmin,
      body: form({ name: '华东区域总代理', agency_type: 2, address_code: '310104' }),
    })
    expect(own.msg).toBe('不能禁用或移动本机构')
    const cross = await t.call('PUT', `/api/v1/agency/${ids['深圳市南山区急救站']}`, {
      token: tokens.eastAdmin,
      body: form({ name: '被改名' }),
    })
    expect(cross.code).toBe(Code.NOT_FOUND)
    const sys = await t.call('PUT', `/api/v1/agency/${ids['AED云平台运营中心']}`, {
      token: tokens.superAdmin,
      body: form({ name: 'AED云平台运营中心', agency_type: 1, address_code: '110105' }),
    })
    expect(sys.msg).toBe('系统机构的类型不可修改')
  })
})

describe('disabling organisations', () => {
  it('disables a subtree at once: its members are signed out and cannot sign in; enable restores', async () => {
    const hzToken = await t.login(demo.hzAdmin)
    const east = ids['华东区域总代理']
    const r = await t.call('PUT', `/api/v1/agency/${east}/state/`, {
      token: tokens.superAdmin,
      body: { disabled: true },
    })
    expect(r).toMatchObject({ code: 0, msg: '禁用成功！' })
    expect((await t.call('GET', '/api/v1/system/menu', { token: hzToken })).code).toBe(Code.TOKEN)
    const login = await t.call('POST', '/api/v1/member/login', {
      body: { mobile: demo.hzAdmin, password: 'Aed@123456', login_way: 1, member_type: 3 },
    })
    expect(login.msg).toBe('所在机构已被禁用')
    const list = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { name: '杭州' },
    })
    expect(list.data.resource[0]).toMatchObject({ disabled: false, effective_disabled: true })
    await t.call('PUT', `/api/v1/agency/${east}/state/`, {
      token: tokens.superAdmin,
      body: { disabled: false },
    })
    expect((await t.call('GET', '/api/v1/system/menu', { token: hzToken })).code).toBe(0)
  })

  it('refuses disabling one’s own organisation, another branch, or without edit rights', async () => {
    expect(
      (
        await t.call('PUT', `/api/v1/agency/${ids['华东区域总代理']}/state/`, {
          token: tokens.eastAdmin,
          body: { disabled: true },
        })
      ).msg,
    ).toBe('不能禁用或移动本机构')
    expect(
      (
        await t.call('PUT', `/api/v1/agency/${ids['深圳市南山区急救站']}/state/`, {
          token: tokens.eastAdmin,
          body: { disabled: true },
        })
      ).code,
    ).toBe(Code.NOT_FOUND)
    expect(
      (
        await t.call('PUT', `/api/v1/agency/${ids['深圳市南山区急救站']}/state/`, {
          token: tokens.general,
          body: { disabled: true },
        })
      ).code,
    ).toBe(Code.FORBIDDEN)
    const [sz] = await t.db.select().from(agencies).where(eq(agencies.id, ids['深圳市南山区急救站']))
    expect(sz.disabled).toBe(false)
  })
})

describe('sorting', () => {
  it('sorts by an allowed field either way and refuses others', async () => {
    const asc = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { order_by: 'name', page_size: 100 },
    })
    const names = asc.data.resource.map((a) => a.name)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    const desc = await t.call<List>('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { order_by: '-level', page_size: 100 },
    })
    expect(desc.data.resource[0].level).toBeGreaterThan(desc.data.resource.at(-1)!.level)
    const bad = await t.call('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { order_by: 'phone' },
    })
    expect(bad).toMatchObject({ code: 1, msg: '不支持按该字段排序' })
    const injected = await t.call('GET', '/api/v1/agency/', {
      token: tokens.superAdmin,
      query: { order_by: 'name;drop' },
    })
    expect(injected.code).toBe(1)
  })
})
