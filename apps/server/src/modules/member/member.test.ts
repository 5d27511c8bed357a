import { authApi, Code } from '@aed/contracts'
import { memberApi } from '@aed/contracts/member'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { accounts, agencies, members } from '../../db/schema.ts'
import { factories } from '../../test/factories.ts'
import { demo, demoTokens, fileTestApp } from '../../test/harness.ts'

const t = fileTestApp()
const tokens: Record<string, string> = {}
const agencyIds: Record<string, number> = {}
const memberIds: Record<string, number> = {}

beforeAll(async () => {
  Object.assign(tokens, await demoTokens(t))
  for (const a of await t.db.select().from(agencies)) agencyIds[a.name] = a.id
  const rows = await t.db
    .select({ id: members.id, phone: accounts.phone, agency: members.agency_id })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.account_id))
  for (const r of rows) memberIds[`${r.phone}@${r.agency}`] = r.id
})

const hz = () => agencyIds['杭州市西湖区急救中心']
const memberOf = (phone: string, agency: string) => memberIds[`${phone}@${agencyIds[agency]}`]

const form = (over: Record<string, unknown> = {}, account: Record<string, unknown> = {}) => ({
  account: {
    name: '李四',
    phone: '13911112222',
    email: 'lisi@example.cn',
    nationality: 'CN',
    location: '浙江省杭州市西湖区文三路100号',
    address_code: '330106',
    lat: 30.27,
    lon: 120.13,
    ...account,
  },
  agency_id: hz(),
  role_type: 2,
  permissions: { device: 'READ_ONLY' },
  ...over,
})

describe('user list', () => {
  it('lists the subtree’s users with masked phone and email, filtered in the database', async () => {
    // A branch of its own (a general agent over two agencies) beside another one, and a person
    // in both branches.
    const f = factories(t)
    const root = await f.root()
    const branch = await f.agency(root)
    const [a, b] = [await f.agency(branch), await f.agency(branch)]
    const elsewhere = await f.agency(await f.agency(root))
    const boss = await f.signedIn(branch, { phone: '16612340011', email: 'boss@factory.example.cn' })
    const inA = await f.member(a, { role_type: 2, permissions: { device: 'READ_ONLY' } })
    const inB = await f.member(b, { role_type: 2, permissions: { device: 'READ_ONLY' } })
    await f.member(elsewhere)
    const both = await f.member(a, { phone: '16612340099', role_type: 1, permissions: { member: 'EDIT' } })
    await f.member(elsewhere, { phone: both.phone, role_type: 2, permissions: { device: 'READ_ONLY' } })

    // Exactly the four memberships of the branch, each with its own organisation.
    const all = await t.api(memberApi.list, { token: boss.token, query: { page_size: 100 } })
    const rows = (list: typeof all) =>
      list.data.resource.map((m) => `${m.account.name}@${m.agency_name}/${m.role_type}`).sort()
    expect(rows(all)).toEqual(
      [
        `${boss.name}@${branch.name}/0`,
        `${inA.name}@${a.name}/2`,
        `${inB.name}@${b.name}/2`,
        `${both.name}@${a.name}/1`,
      ].sort(),
    )
    expect(all.data.count).toBe(4)
    const first = all.data.resource.find((m) => m.account.name === boss.name)!
    expect(first.account.phone).toBe('166****0011')
    expect(first.account.email).toBe('b***@factory.example.cn')
    // By role: the two general users; without general users: the other two.
    const byRole = await t.api(memberApi.list, { token: boss.token, query: { role: 2, page_size: 100 } })
    expect(rows(byRole)).toEqual([`${inA.name}@${a.name}/2`, `${inB.name}@${b.name}/2`].sort())
    expect(byRole.data.count).toBe(2)
    const managers = await t.api(memberApi.list, {
      token: boss.token,
      query: { exclude_general: 'true', page_size: 100 },
    })
    expect(rows(managers)).toEqual([`${boss.name}@${branch.name}/0`, `${both.name}@${a.name}/1`].sort())
    const byPhone = await t.api(memberApi.list, { token: tokens.superAdmin, query: { phone: '12340099' } })
    expect(byPhone.data.count).toBe(2)
  })

  it('sorts by name either way', async () => {
    const get = (order_by: string) =>
      t.api(memberApi.list, { token: tokens.superAdmin, query: { order_by, page_size: 100 } })
    const asc = (await get('name')).data.resource.map((m) => m.account.name)
    const desc = (await get('-name')).data.resource.map((m) => m.account.name)
    expect(asc[0]).not.toBe(desc[0])
    expect(asc[0]).toBe(desc.at(-1))
  })

  it('does not show users of another branch, even when asked by organisation', async () => {
    const r = await t.api(memberApi.list, {
      token: tokens.eastAdmin,
      query: { agency: agencyIds['深圳市南山区急救站'] },
    })
    expect(r.data.count).toBe(0)
    const one = await t.api(memberApi.detail, {
      token: tokens.eastAdmin,
      params: { id: memberOf(demo.szAdmin, '深圳市南山区急救站') },
    })
    expect(one.code).toBe(Code.NOT_FOUND)
  })

  it('needs the member permission', async () => {
    const general = await t.api(memberApi.list, { token: tokens.general })
    expect(general.code).toBe(Code.FORBIDDEN)
  })
})

describe('adding users', () => {
  it('validates with the spec messages', async () => {
    const post = (body: object) => t.api(memberApi.create, { token: tokens.hzAdmin, body })
    expect((await post(form({}, { name: '' }))).msg).toBe('请输入用户名')
    expect((await post(form({}, { phone: '' }))).msg).toBe('请输入联系电话!')
    expect((await post(form({}, { phone: '1391111' }))).msg).toBe('请输入正确的联系电话!')
    expect((await post(form({}, { email: '' }))).msg).toBe('请输入邮箱!')
    expect((await post(form({}, { email: 'no-at.cn' }))).msg).toBe('请输入正确的邮箱!')
    expect((await post(form({}, { nationality: '' }))).msg).toBe('请选择国籍')
    expect((await post(form({}, { location: '' }))).msg).toBe('请输入住址')
    expect((await post(form({}, { lat: undefined }))).msg).toBe('请选择地址!')
    expect((await post(form({ role_type: undefined }))).msg).toBe('请选择角色')
  })

  it('creates a user who can then sign in only to that organisation’s subtree', async () => {
    const r = await t.api(memberApi.create, {
      token: tokens.hzAdmin,
      body: form(
        { role_type: 1, permissions: { member: 'EDIT', device: 'EDIT' } },
        { password: 'Lisi2026ok' },
      ),
    })
    expect(r).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(r.data).toMatchObject({
      agency_name: '杭州市西湖区急救中心',
      role_type: 1,
      creator: '西湖急救中心管理员',
    })
    const token = await t.login('13911112222', 'Lisi2026ok')
    const list = await t.api(memberApi.list, { token, query: { page_size: 100 } })
    const agencies = list.data.resource.map((m) => m.agency_name)
    expect(list.data.resource.map((m) => m.account.name)).toContain('李四')
    expect(agencies).toHaveLength(list.data.count)
    expect(new Set(agencies)).toEqual(new Set(['杭州市西湖区急救中心']))
    const login = await t.api(authApi.login, {
      body: { mobile: '13911112222', password: 'Lisi2026ok', login_way: 1, member_type: 3 },
    })
    expect(login.data.password_expired).toBe(true)
  })

  it('reuses the account of a known phone and refuses a second membership in one organisation', async () => {
    const again = await t.api(memberApi.create, { token: tokens.hzAdmin, body: form() })
    expect(again.msg).toBe('该用户已在此机构中')
    const elsewhere = await t.api(memberApi.create, {
      token: tokens.eastAdmin,
      body: form({ agency_id: agencyIds['南京市鼓楼区红十字会'] }, { name: '不会覆盖' }),
    })
    expect(elsewhere.code).toBe(0)
    const [acc] = await t.db.select().from(accounts).where(eq(accounts.phone, '13911112222'))
    expect(acc.name).toBe('李四')
  })

  it('applies the role and permission-level rules of the acting role', async () => {
    const noSuper = await t.api(memberApi.create, {
      token: tokens.superAdmin,
      body: form({ role_type: 0 }, { phone: '13922220000' }),
    })
    expect(noSuper.msg).toBe('无权设置该角色')
    // An administrator (edit rights on users) may grant read-only levels only, and no admin role.
    const adminToken = tokens.admin
    const edit = await t.api(memberApi.create, {
      token: adminToken,
      body: form(
        { agency_id: agencyIds['AED云平台运营中心'], permissions: { device: 'EDIT' } },
        { phone: '13922220001' },
      ),
    })
    expect(edit.msg).toBe('无权授予该权限级别')
    const adminRole = await t.api(memberApi.create, {
      token: adminToken,
      body: form(
        { agency_id: agencyIds['AED云平台运营中心'], role_type: 1, permissions: {} },
        { phone: '13922220002' },
      ),
    })
    expect(adminRole.msg).toBe('无权设置该角色')
    const generalMember = await t.api(memberApi.create, {
      token: tokens.superAdmin,
      body: form({ permissions: { member: 'READ_ONLY' } }, { phone: '13922220003' }),
    })
    expect(generalMember.msg).toBe('普通用户不能授予权限管理')
    const board = await t.api(memberApi.create, {
      token: tokens.superAdmin,
      body: form({ permissions: { analysis_board: 'ALL' } }, { phone: '13922220004' }),
    })
    expect(board.msg).toBe('概览看板和急救事件只能为仅查看')
  })

  it('requires permissions for every role but super administrator', async () => {
    const none = await t.api(memberApi.create, {
      token: tokens.superAdmin,
      body: form({ permissions: { device: null } }, { phone: '13922229999' }),
    })
    expect(none.msg).toBe('请选择权限')
    expect(await t.db.select().from(accounts).where(eq(accounts.phone, '13922229999'))).toHaveLength(0)
  })

  it('refuses an organisation outside the subtree and read-only members', async () => {
    const cross = await t.api(memberApi.create, {
      token: tokens.hzAdmin,
      body: form({ agency_id: agencyIds['南京市鼓楼区红十字会'] }, { phone: '13933330000' }),
    })
    expect(cross.msg).toBe('请选择所在机构')
    const ro = await t.api(memberApi.create, {
      token: tokens.general,
      body: form({}, { phone: '13933330001' }),
    })
    expect(ro.code).toBe(Code.FORBIDDEN)
    expect(await t.db.select().from(accounts).where(eq(accounts.phone, '13933330000'))).toHaveLength(0)
  })
})

describe('editing, authority and deleting', () => {
  it('edits a user with the phone locked', async () => {
    const id = memberOf(demo.njAdmin, '南京市鼓楼区红十字会')
    const detail = await t.api(memberApi.detail, { token: tokens.eastAdmin, params: { id } })
    expect(detail.data.account.phone).toBe(demo.njAdmin)
    const base = form(
      { agency_id: detail.data.agency_id, role_type: 0, permissions: {} },
      { phone: demo.njAdmin, name: '鼓楼管理员（改）', email: 'nj@aed.example.cn' },
    )
    const r = await t.api(memberApi.update, { token: tokens.eastAdmin, params: { id }, body: base })
    expect(r).toMatchObject({ code: 0, msg: '修改成功！' })
    expect(r.data.account.name).toBe('鼓楼管理员（改）')
    const phone = await t.api(memberApi.update, {
      token: tokens.eastAdmin,
      params: { id },
      body: { ...base, account: { ...base.account, phone: '13900000000' } },
    })
    expect(phone.msg).toBe('编辑用户时不能修改手机号')
  })

  it('refuses acting on a higher role, on oneself, or across branches', async () => {
    const superId = memberOf(demo.superAdmin, 'AED云平台运营中心')
    const outranked = await t.api(memberApi.setAuthority, {
      token: tokens.admin,
      params: { id: superId },
      body: { permissions: {}, use_expire: null },
    })
    expect(outranked.msg).toBe('无权操作更高角色的用户')
    const self = await t.api(memberApi.remove, {
      token: tokens.hzAdmin,
      params: { id: memberOf(demo.hzAdmin, '杭州市西湖区急救中心') },
    })
    expect(self.msg).toBe('不能修改或删除自己的角色和权限')
    const cross = await t.api(memberApi.remove, {
      token: tokens.hzAdmin,
      params: { id: memberOf(demo.szAdmin, '深圳市南山区急救站') },
    })
    expect(cross.code).toBe(Code.NOT_FOUND)
  })

  it('sets permissions and a usage period that ends sign-in when it passes', async () => {
    const id = memberOf(demo.multi, '杭州市西湖区急救中心')
    const past = new Date(Date.now() - 60_000).toISOString()
    const r = await t.api(memberApi.setAuthority, {
      token: tokens.hzAdmin,
      params: { id },
      body: { permissions: { analysis_board: 'READ_ONLY', device: 'ALL' }, use_expire: past },
    })
    expect(r.code).toBe(0)
    expect(r.data.permissions).toEqual({ analysis_board: 'READ_ONLY', device: 'ALL' })
    const login = await t.api(authApi.login, {
      body: { mobile: demo.multi, password: 'Aed@123456', login_way: 1, member_type: 3 },
    })
    expect(login.data.agency_list.map((a) => a.agency_name)).toEqual(['深圳市南山区急救站'])
  })

  it('lets an administrator keep levels it could not grant, but not raise one', async () => {
    const created = await t.api(memberApi.create, {
      token: tokens.superAdmin,
      body: form(
        { agency_id: agencyIds['AED云平台运营中心'], permissions: { device: 'EDIT', aid_man: 'READ_ONLY' } },
        { phone: '13944441111' },
      ),
    })
    const keep = await t.api(memberApi.setAuthority, {
      token: tokens.admin,
      params: { id: created.data.id },
      body: {
        permissions: { device: 'EDIT', aid_man: 'READ_ONLY', analysis_board: 'READ_ONLY' },
        use_expire: null,
      },
    })
    expect(keep.code).toBe(0)
    const raise = await t.api(memberApi.setAuthority, {
      token: tokens.admin,
      params: { id: created.data.id },
      body: { permissions: { device: 'EDIT', aid_man: 'EDIT' }, use_expire: null },
    })
    expect(raise.msg).toBe('无权授予该权限级别')
  })

  it('deletes only with full access (ALL)', async () => {
    const created = await t.api(memberApi.create, {
      token: tokens.superAdmin,
      body: form({ agency_id: agencyIds['AED云平台运营中心'] }, { phone: '13944440000' }),
    })
    const id = created.data.id
    const editOnly = await t.api(memberApi.remove, { token: tokens.admin, params: { id } })
    expect(editOnly.code).toBe(Code.FORBIDDEN)
    const r = await t.api(memberApi.remove, { token: tokens.superAdmin, params: { id } })
    expect(r).toMatchObject({ code: 0, msg: '删除成功！' })
    expect((await t.api(memberApi.detail, { token: tokens.superAdmin, params: { id } })).code).toBe(
      Code.NOT_FOUND,
    )
  })
})

describe('account lookup', () => {
  it('prefills from a person of the subtree, and gives only the name of someone from elsewhere', async () => {
    const mine = await t.api(memberApi.lookupAccount, {
      token: tokens.eastAdmin,
      params: { phone: demo.njAdmin },
    })
    expect(mine.data.exists).toBe(true)
    expect(mine.data.account?.email).toBe('nj@aed.example.cn')
    const foreign = await t.api(memberApi.lookupAccount, {
      token: tokens.eastAdmin,
      params: { phone: demo.szAdmin },
    })
    expect(foreign.data).toEqual({ exists: true, account: null })
    const none = await t.api(memberApi.lookupAccount, {
      token: tokens.eastAdmin,
      params: { phone: '13000000000' },
    })
    expect(none.data.exists).toBe(false)
    expect(
      (await t.api(memberApi.lookupAccount, { token: tokens.general, params: { phone: demo.njAdmin } })).code,
    ).toBe(Code.FORBIDDEN)
  })
})

describe('the list’s can', () => {
  it('is what adding a user then does: done with EDIT on users, the permission error without', async () => {
    const f = factories(t)
    const at = { id: hz() }
    const members: [string, string, boolean][] = [
      ['super administrator', tokens.hzAdmin, true],
      [
        'editor',
        (await f.signedIn(at, { role_type: 1, permissions: { member: 'EDIT', device: 'EDIT' } })).token,
        true,
      ],
      [
        'reader',
        (await f.signedIn(at, { role_type: 1, permissions: { member: 'READ_ONLY', device: 'EDIT' } })).token,
        false,
      ],
    ]
    let phone = 13955550000
    for (const [who, token, create] of members) {
      const list = await t.api(memberApi.list, { token })
      expect({ who, can: list.data.can }).toEqual({ who, can: { create } })
      const r = await t.api(memberApi.create, { token, body: form({}, { phone: String(++phone) }) })
      expect({ who, code: r.code, msg: r.msg }).toMatchObject({ who, code: create ? 0 : Code.FORBIDDEN })
    }
  })
})
