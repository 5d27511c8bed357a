import { authApi, Code, menuApi } from '@aed/contracts'
import { agencyApi } from '@aed/contracts/agency'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { agencies } from '../../db/schema.ts'
import { type AgencyRow, factories } from '../../test/factories.ts'
import { demo, demoTokens, fileTestApp } from '../../test/harness.ts'

const t = fileTestApp()
const tokens: Record<string, string> = {}
const ids: Record<string, number> = {}

beforeAll(async () => {
  Object.assign(tokens, await demoTokens(t))
  for (const a of await t.db.select().from(agencies)) ids[a.name] = a.id
})

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

describe('organisation tree and list', () => {
  // A branch of its own (a general agent over four agencies) beside a second one, with admins.
  let f: ReturnType<typeof factories>
  let root: AgencyRow
  let branch: AgencyRow
  let kids: AgencyRow[]
  let sibling: AgencyRow
  let sz: AgencyRow
  beforeAll(async () => {
    f = factories(t)
    root = await f.root()
    branch = await f.agency(root, { name: '浙西区域总代理', phone: '02164871234' })
    kids = []
    for (const name of ['临安区急救中心', '萧山区急救站', '余杭区红十字会', '富阳区体育中心'])
      kids.push(await f.agency(branch, { name }))
    sibling = await f.agency(root, { name: '岭南区域总代理' })
    sz = await f.agency(sibling, { name: '前海急救分站', address_code: '440305' })
  })

  it('shows a member its own subtree only', async () => {
    const { token } = await f.signedIn(branch)
    const tree = await t.api(agencyApi.tree, { token })
    expect(tree.data.resource).toHaveLength(1)
    expect(tree.data.resource[0].name).toBe(branch.name)
    expect(tree.data.resource[0].kids.map((k) => k.name).sort()).toEqual(kids.map((k) => k.name).sort())
    const all = await t.api(agencyApi.tree, { token: tokens.superAdmin })
    const below = await t.db.select().from(agencies).where(eq(agencies.parent_id, root.id))
    expect(all.data.resource[0].kids).toHaveLength(below.length)
    expect(all.data.resource[0].kids.map((k) => k.name)).toEqual(
      expect.arrayContaining([branch.name, sibling.name]),
    )
  })

  it('pages, filters by name and subtree, masks phones and gives levels', async () => {
    const mine = { index_link: branch.index_link }
    const page = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { ...mine, page: 1, page_size: 2 },
    })
    expect(page.data.count).toBe(5)
    expect(page.data.resource).toHaveLength(2)
    expect(page.data.resource[0]).toMatchObject({ level: 2, agency_type: 1, phone: '021****1234' })
    const p3 = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { ...mine, page: 3, page_size: 2 },
    })
    expect(p3.data).toMatchObject({ count: 5 })
    expect(p3.data.resource).toHaveLength(1)
    const byName = await t.api(agencyApi.list, { token: tokens.superAdmin, query: { ...mine, name: '急救' } })
    expect(byName.data.resource.map((a) => a.name).sort()).toEqual(['临安区急救中心', '萧山区急救站'].sort())
    const south = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { index_link: sibling.index_link },
    })
    expect(south.data.count).toBe(2)
    expect(south.data.resource.find((a) => a.name === sz.name)).toMatchObject({
      parent_name: sibling.name,
      level: 3,
      address_name: '广东省深圳市南山区',
    })
  })

  it('refuses to show another branch, in the list and by id', async () => {
    const { token } = await f.signedIn(kids[0])
    const leak = await t.api(agencyApi.list, { token, query: { index_link: `/${root.id}/` } })
    expect(leak.data.resource.map((a) => a.name)).toEqual([kids[0].name])
    const other = await t.api(agencyApi.detail, { token, params: { id: kids[1].id } })
    expect(other.code).toBe(Code.NOT_FOUND)
    const parent = await t.api(agencyApi.detail, { token, params: { id: branch.id } })
    expect(parent.code).toBe(Code.NOT_FOUND)
  })

  it('rejects a name filter over 50 characters with the spec message', async () => {
    const r = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { name: 'x'.repeat(51) },
    })
    expect(r).toMatchObject({ code: 1, msg: '字符长度不超过50' })
  })
})

describe('creating organisations', () => {
  it('validates with the spec messages', async () => {
    const post = (body: object) => t.api(agencyApi.create, { token: tokens.superAdmin, body })
    expect((await post(form({ name: ' ' }))).msg).toBe('请输入机构名称')
    expect((await post(form({ agency_type: undefined }))).msg).toBe('请选择机构类型')
    expect((await post(form({ contact_name: '' }))).msg).toBe('请选择机构联系人')
    expect((await post(form({ phone: '' }))).msg).toBe('请输入联系电话')
    expect((await post(form({ address_code: '330100' }))).msg).toBe('地址需要选择到区!')
    expect((await post(form({ address_code: '330000' }))).msg).toBe('地址需要选择到区!')
  })

  it('creates under the chosen parent with level = parent + 1, and logs it', async () => {
    const r = await t.api(agencyApi.create, {
      token: tokens.eastAdmin,
      body: form({ name: '宁波市海曙区急救站', address_code: '330203' }),
    })
    expect(r).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(r.data).toMatchObject({ parent_name: '华东区域总代理', level: 3, agency_type: 2 })
    const tree = await t.api(agencyApi.tree, {
      token: tokens.eastAdmin,
    })
    expect(tree.data.resource[0].kids.map((k) => k.name)).toContain('宁波市海曙区急救站')
    const { operationLogs } = await import('../../db/schema.ts')
    const logs = await t.db.select().from(operationLogs).where(eq(operationLogs.operation_type, '新增机构'))
    expect(logs.at(-1)?.content).toBe('新增普通机构：宁波市海曙区急救站')
  })

  it('applies the type rules: no system agency, general agents only by system members', async () => {
    const sys = await t.api(agencyApi.create, {
      token: tokens.superAdmin,
      body: form({ agency_type: 0 }),
    })
    expect(sys.msg).toBe('无权创建该类型的机构')
    const ga = await t.api(agencyApi.create, {
      token: tokens.eastAdmin,
      body: form({ name: '西北总代理', agency_type: 1 }),
    })
    expect(ga.msg).toBe('无权创建该类型的机构')
    const ok = await t.api(agencyApi.create, {
      token: tokens.superAdmin,
      body: form({ name: '西北区域总代理', agency_type: 1, address_code: '610113' }),
    })
    expect(ok.data).toMatchObject({ level: 2, parent_name: 'AED云平台运营中心' })
    // An ordinary agency has no organisations below it.
    const underOrdinary = await t.api(agencyApi.create, {
      token: tokens.hzAdmin,
      body: form({ name: '子站' }),
    })
    expect(underOrdinary.msg).toBe('上级机构不正确')
  })

  it('refuses a parent outside the member’s subtree, and read-only members', async () => {
    const cross = await t.api(agencyApi.create, {
      token: tokens.eastAdmin,
      body: form({ name: '越权机构', parent_id: ids['华南区域总代理'] }),
    })
    expect(cross.msg).toBe('上级机构不正确')
    const ro = await t.api(agencyApi.create, {
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
    const r = await t.api(agencyApi.update, {
      params: { id: nj },
      token: tokens.superAdmin,
      body: form({ name: '南京市鼓楼区红十字会', parent_id: ids['华南区域总代理'], address_code: '320106' }),
    })
    expect(r).toMatchObject({ code: 0, msg: '修改成功！' })
    expect(r.data).toMatchObject({ parent_name: '华南区域总代理', level: 3 })
    expect(r.data.index_link).toBe(`/${ids['AED云平台运营中心']}/${ids['华南区域总代理']}/${nj}/`)
    // The east admin no longer sees it; the south admin does.
    expect((await t.api(agencyApi.detail, { params: { id: nj }, token: tokens.eastAdmin })).code).toBe(
      Code.NOT_FOUND,
    )
    expect((await t.api(agencyApi.detail, { params: { id: nj }, token: tokens.southAdmin })).code).toBe(0)
    // and back
    await t.api(agencyApi.update, {
      params: { id: nj },
      token: tokens.superAdmin,
      body: form({ name: '南京市鼓楼区红十字会', parent_id: ids['华东区域总代理'], address_code: '320106' }),
    })
  })

  it('refuses moving under its own subtree, changing its own place, and another branch', async () => {
    const east = ids['华东区域总代理']
    const into = await t.api(agencyApi.update, {
      params: { id: east },
      token: tokens.superAdmin,
      body: form({
        name: '华东区域总代理',
        agency_type: 1,
        parent_id: ids['杭州市西湖区急救中心'],
        address_code: '310104',
      }),
    })
    expect(into.code).toBe(1)
    const own = await t.api(agencyApi.update, {
      params: { id: east },
      token: tokens.eastAdmin,
      body: form({ name: '华东区域总代理', agency_type: 2, address_code: '310104' }),
    })
    expect(own.msg).toBe('不能禁用或移动本机构')
    const cross = await t.api(agencyApi.update, {
      params: { id: ids['深圳市南山区急救站'] },
      token: tokens.eastAdmin,
      body: form({ name: '被改名' }),
    })
    expect(cross.code).toBe(Code.NOT_FOUND)
    const sys = await t.api(agencyApi.update, {
      params: { id: ids['AED云平台运营中心'] },
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
    const r = await t.api(agencyApi.setState, {
      params: { id: east },
      token: tokens.superAdmin,
      body: { disabled: true },
    })
    expect(r).toMatchObject({ code: 0, msg: '禁用成功！' })
    expect((await t.api(menuApi.menu, { token: hzToken })).code).toBe(Code.TOKEN)
    const login = await t.api(authApi.login, {
      body: { mobile: demo.hzAdmin, password: 'Aed@123456', login_way: 1, member_type: 3 },
    })
    expect(login.msg).toBe('所在机构已被禁用')
    const list = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { name: '杭州' },
    })
    expect(list.data.resource[0]).toMatchObject({ disabled: false, effective_disabled: true })
    await t.api(agencyApi.setState, {
      params: { id: east },
      token: tokens.superAdmin,
      body: { disabled: false },
    })
    expect((await t.api(menuApi.menu, { token: hzToken })).code).toBe(0)
  })

  it('refuses disabling one’s own organisation, another branch, or without edit rights', async () => {
    const disable = (name: string, token: string) =>
      t.api(agencyApi.setState, { params: { id: ids[name] }, token, body: { disabled: true } })
    expect((await disable('华东区域总代理', tokens.eastAdmin)).msg).toBe('不能禁用或移动本机构')
    expect((await disable('深圳市南山区急救站', tokens.eastAdmin)).code).toBe(Code.NOT_FOUND)
    expect((await disable('深圳市南山区急救站', tokens.general)).code).toBe(Code.FORBIDDEN)
    const [sz] = await t.db.select().from(agencies).where(eq(agencies.id, ids['深圳市南山区急救站']))
    expect(sz.disabled).toBe(false)
  })
})

describe('sorting', () => {
  it('sorts by an allowed field either way and refuses others', async () => {
    const asc = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { order_by: 'name', page_size: 100 },
    })
    const names = asc.data.resource.map((a) => a.name)
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
    const desc = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { order_by: '-level', page_size: 100 },
    })
    expect(desc.data.resource[0].level).toBeGreaterThan(desc.data.resource.at(-1)!.level)
    const bad = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { order_by: 'phone' },
    })
    expect(bad).toMatchObject({ code: 1, msg: '不支持按该字段排序' })
    const injected = await t.api(agencyApi.list, {
      token: tokens.superAdmin,
      query: { order_by: 'name;drop' },
    })
    expect(injected.code).toBe(1)
  })
})

describe('the list’s can', () => {
  it('is what adding an organisation then does: done with EDIT, the permission error without', async () => {
    const f = factories(t)
    const agent = await f.agency(await f.root())
    const members: [string, string, boolean][] = [
      ['super administrator', (await f.signedIn(agent)).token, true],
      ['editor', (await f.signedIn(agent, { role_type: 1, permissions: { agency: 'EDIT' } })).token, true],
      [
        'reader',
        (await f.signedIn(agent, { role_type: 1, permissions: { agency: 'READ_ONLY' } })).token,
        false,
      ],
      ['no area', (await f.signedIn(agent, { role_type: 2, permissions: { device: 'EDIT' } })).token, false],
    ]
    let n = 0
    for (const [who, token, create] of members) {
      const list = await t.api(agencyApi.list, { token })
      expect({ who, can: list.data.can }).toEqual({ who, can: { create } })
      const r = await t.api(agencyApi.create, {
        token,
        body: form({ name: `可否测试机构${++n}`, parent_id: agent.id }),
      })
      expect({ who, code: r.code, msg: r.msg }).toMatchObject({ who, code: create ? 0 : Code.FORBIDDEN })
    }
  })
})
