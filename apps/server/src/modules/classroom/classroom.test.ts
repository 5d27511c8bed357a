import { Code } from '@aed/contracts'
import { classroomApi } from '@aed/contracts/classroom'
import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts, members, operationLogs } from '../../db/schema.ts'
import { factories } from '../../test/factories.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp
const tokens: Record<string, string> = {}

const article = (over: Record<string, unknown> = {}) => ({
  category: 2,
  title: '心肺复苏操作要点',
  describe: '胸外按压的深度、频率与AED的配合使用',
  link: 'https://www.redcross.org.cn/html/2023-06/95321.html',
  illustration: '/files/2026/01/5b0c7d3e-1f0a-4c59-9a57-4f8f8b7c2a10.png',
  ...over,
})

beforeAll(async () => {
  t = await createTestApp()
  for (const k of ['superAdmin', 'admin', 'general', 'eastAdmin', 'hzAdmin', 'njAdmin', 'szAdmin'] as const)
    tokens[k] = await t.login(demo[k])
})
afterAll(() => t.close())

const create = (token: string, body: Record<string, unknown>, lang?: 'en-US') =>
  t.api(classroomApi.create, { token, body, lang })
const list = (token: string, query: Record<string, string | number> = {}) =>
  t.api(classroomApi.list, { token, query })

describe('creating and listing', () => {
  it('creates an item owned by the creator’s agency and lists it newest first', async () => {
    const a = await create(tokens.hzAdmin, article({ title: '西湖区AED分布' }))
    expect(a).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(a.data).toMatchObject({
      title: '西湖区AED分布',
      agency_name: '杭州市西湖区急救中心',
      content_type: 1,
      creator_name: '西湖急救中心管理员',
    })
    const b = await create(tokens.hzAdmin, { category: 1, title: '成人CPR演示', link: 'v0034kxq1bz' })
    expect(b.data).toMatchObject({ category: 1, content_type: 2, illustration: null, describe: '' })
    const r = await list(tokens.hzAdmin)
    expect(r.data.count).toBe(2)
    expect(r.data.resource.map((i) => i.title)).toEqual(['成人CPR演示', '西湖区AED分布'])
    expect(r.data.resource[0]).not.toHaveProperty('content')
  })

  it('filters by title (contains, wildcards literal) and category, and pages', async () => {
    await create(tokens.hzAdmin, article({ title: '100%有效的急救知识', category: 3 }))
    expect((await list(tokens.hzAdmin, { title: 'AED' })).data.resource.map((i) => i.title)).toEqual([
      '西湖区AED分布',
    ])
    expect((await list(tokens.hzAdmin, { title: '%' })).data.count).toBe(1)
    expect((await list(tokens.hzAdmin, { category: 1 })).data.resource.map((i) => i.title)).toEqual([
      '成人CPR演示',
    ])
    expect((await list(tokens.hzAdmin, { category: '' })).data.count).toBe(3)
    const p2 = await list(tokens.hzAdmin, { page: 2, page_size: 2 })
    expect(p2.data).toMatchObject({ count: 3 })
    expect(p2.data.resource).toHaveLength(1)
    expect((await list(tokens.hzAdmin, { category: 7 })).code).toBe(1)
  })

  it('logs the creation in readable Chinese', async () => {
    await create(tokens.njAdmin, article({ title: '鼓楼急救培训', category: 3 }))
    const [log] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log.operation_type).toBe('新增急救课堂')
    expect(log.content).toMatch(/^新增新闻资讯《鼓楼急救培训》（ID \d+）$/)
  })
})

describe('validation', () => {
  const msg = async (body: Record<string, unknown>, lang?: 'en-US') => {
    const r = await create(tokens.hzAdmin, body, lang)
    expect(r.code).toBe(1)
    return r.msg
  }

  it('checks the fields in the spec’s order with the spec’s messages', async () => {
    expect(await msg({})).toBe('类型不能为空！')
    expect(await msg({ category: 2 })).toBe('标题不能为空！')
    expect(await msg({ category: 2, title: '  ' })).toBe('标题不能为空！')
    expect(await msg({ category: 2, title: '标题' })).toBe('封面插图不能为空！')
    expect(await msg({ category: 2, title: '标题', illustration: '/files/a.png' })).toBe('链接不能为空！')
    expect(
      await msg({ category: 2, title: '标题', illustration: '/files/a.png', link: 'https://a.cn' }),
    ).toBe('内容简介不能为空！')
    expect(await msg({}, 'en-US')).toBe('The type cannot be empty!')
  })

  it('checks only category, title and link for a video', async () => {
    expect(await msg({ category: 1, title: '视频' })).toBe('链接不能为空！')
    expect(await msg({ category: 1, link: 'vid' })).toBe('标题不能为空！')
    expect((await create(tokens.hzAdmin, { category: 1, title: '视频', link: 'vid' })).code).toBe(0)
  })

  it('takes a title of 20 characters and refuses 21', async () => {
    expect((await create(tokens.hzAdmin, article({ title: '急'.repeat(20) }))).code).toBe(0)
    expect(await msg(article({ title: '急'.repeat(21) }))).toBe('标题不能超过20个字！')
  })

  it('refuses unknown types and links that are not web addresses', async () => {
    expect(await msg(article({ category: 4 }))).toBe('类型不正确！')
    expect(await msg(article({ link: 'javascript:alert(1)' }))).toBe('链接必须以http://或https://开头！')
    expect(await msg(article({ illustration: 'javascript:alert(1)' }))).toBe('封面插图地址不正确！')
    expect(await msg({ category: 1, title: '视频', link: 'vid', illustration: 'javascript:alert(1)' })).toBe(
      '封面插图地址不正确！',
    )
    expect(await msg(article({ content_type: 2 }))).toBe('内容类型只能是外部链接或富文本！')
  })
})

describe('rich text', () => {
  it('keeps formatting, images and links, and strips scripts, handlers and javascript: URLs', async () => {
    const content = [
      '<h2 style="text-align:center;position:fixed">胸外按压</h2>',
      '<p onclick="steal()">按压深度<strong>5-6厘米</strong><script>alert(1)</script></p>',
      '<img src="/files/2026/01/a.png" onerror="alert(2)" alt="示意图">',
      '<img src="javascript:alert(3)">',
      '<a href="javascript:alert(4)">坏链接</a>',
      '<a href="https://www.redcross.org.cn" target="_blank">红十字会</a>',
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>',
    ].join('')
    const r = await create(tokens.hzAdmin, article({ title: '富文本', content }))
    expect(r.data.content_type).toBe(3)
    const got = (await t.api(classroomApi.detail, { params: { id: r.data.id }, token: tokens.hzAdmin })).data
      .content
    expect(got).toContain('<h2 style="text-align:center">胸外按压</h2>')
    expect(got).toContain('<strong>5-6厘米</strong>')
    expect(got).toContain('<img src="/files/2026/01/a.png" alt="示意图" />')
    expect(got).toContain(
      '<a href="https://www.redcross.org.cn" target="_blank" rel="noopener noreferrer">红十字会</a>',
    )
    for (const bad of [
      'script',
      'onclick',
      'onerror',
      'javascript:',
      'iframe',
      'position',
      '<style',
      'alert',
    ])
      expect(got).not.toContain(bad)
  })
})

describe('tenancy and permissions', () => {
  let hzId: number
  beforeAll(async () => {
    hzId = (await create(tokens.hzAdmin, article({ title: '杭州专属' }))).data.id
  })

  it('hides a sibling agency’s items from list, detail, change and delete', async () => {
    expect((await list(tokens.njAdmin)).data.resource.map((i) => i.title)).not.toContain('杭州专属')
    expect((await t.api(classroomApi.detail, { params: { id: hzId }, token: tokens.njAdmin })).code).toBe(
      Code.NOT_FOUND,
    )
    const put = await t.api(classroomApi.update, {
      params: { id: hzId },
      token: tokens.njAdmin,
      body: article({ title: '改' }),
    })
    expect(put.code).toBe(Code.NOT_FOUND)
    expect((await t.api(classroomApi.remove, { params: { id: hzId }, token: tokens.njAdmin })).code).toBe(
      Code.NOT_FOUND,
    )
    const still = await t.api(classroomApi.detail, { params: { id: hzId }, token: tokens.hzAdmin })
    expect(still.data.title).toBe('杭州专属')
  })

  it('lets the agencies above see and edit it, keeping the owner', async () => {
    const east = await list(tokens.eastAdmin)
    expect(east.data.resource.map((i) => i.agency_name)).toEqual(
      expect.arrayContaining(['杭州市西湖区急救中心', '南京市鼓楼区红十字会']),
    )
    const put = await t.api(classroomApi.update, {
      params: { id: hzId },
      token: tokens.eastAdmin,
      body: article({ title: '杭州专属（修订）' }),
    })
    expect(put).toMatchObject({ code: 0, msg: '修改成功！' })
    expect(put.data.agency_name).toBe('杭州市西湖区急救中心')
    await create(tokens.szAdmin, article({ title: '南山专属' }))
    expect((await list(tokens.eastAdmin)).data.resource.map((i) => i.title)).not.toContain('南山专属')
    const all = (await list(tokens.superAdmin, { page_size: 100 })).data.resource.map((i) => i.title)
    expect(all).toEqual(expect.arrayContaining(['南山专属', '杭州专属（修订）', '鼓楼急救培训']))
  })

  it('refuses members without system management, and read-only ones any change', async () => {
    expect((await list(tokens.general)).code).toBe(Code.FORBIDDEN)
    // Give the read-only member system management, read only.
    const [acc] = await t.db.select().from(accounts).where(eq(accounts.phone, demo.general))
    const [m] = await t.db.select().from(members).where(eq(members.account_id, acc.id))
    await t.db
      .update(members)
      .set({ permissions: { ...m.permissions, agency: 'READ_ONLY' } })
      .where(eq(members.id, m.id))
    expect((await list(tokens.general)).code).toBe(0)
    expect((await t.api(classroomApi.detail, { params: { id: hzId }, token: tokens.general })).code).toBe(0)
    expect((await create(tokens.general, article())).code).toBe(Code.FORBIDDEN)
    expect(
      (await t.api(classroomApi.update, { params: { id: hzId }, token: tokens.general, body: article() }))
        .code,
    ).toBe(Code.FORBIDDEN)
    expect((await t.api(classroomApi.remove, { params: { id: hzId }, token: tokens.general })).code).toBe(
      Code.FORBIDDEN,
    )
  })

  it('needs ALL to delete: an editor may change but not delete', async () => {
    expect(
      (await t.api(classroomApi.update, { params: { id: hzId }, token: tokens.admin, body: article() })).code,
    ).toBe(0)
    expect((await t.api(classroomApi.remove, { params: { id: hzId }, token: tokens.admin })).code).toBe(
      Code.FORBIDDEN,
    )
    const del = await t.api(classroomApi.remove, { params: { id: hzId }, token: tokens.hzAdmin })
    expect(del).toMatchObject({ code: 0, msg: '删除成功！', data: { id: hzId } })
    expect((await t.api(classroomApi.detail, { params: { id: hzId }, token: tokens.hzAdmin })).code).toBe(
      Code.NOT_FOUND,
    )
    const [log] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log).toMatchObject({
      operation_type: '删除急救课堂',
      content: `删除急救课堂《心肺复苏操作要点》（ID ${hzId}）`,
    })
  })

  it('answers a bad id with code 1 and needs a token', async () => {
    expect((await t.api(classroomApi.detail, { params: { id: 'abc' }, token: tokens.hzAdmin })).code).toBe(1)
    expect((await t.api(classroomApi.list)).code).toBe(Code.TOKEN)
  })
})

describe('the list’s can', () => {
  it('is what adding, editing and deleting then do: done when true, the permission error when false', async () => {
    const f = factories(t)
    const agent = await f.agency(await f.root())
    const admin = (await f.signedIn(agent)).token
    const members: [string, string, { create: boolean; edit: boolean; delete: boolean }][] = [
      ['super administrator', admin, { create: true, edit: true, delete: true }],
      [
        'editor',
        (await f.signedIn(agent, { role_type: 1, permissions: { agency: 'EDIT' } })).token,
        { create: true, edit: true, delete: false },
      ],
      [
        'reader',
        (await f.signedIn(agent, { role_type: 1, permissions: { agency: 'READ_ONLY' } })).token,
        { create: false, edit: false, delete: false },
      ],
    ]
    for (const [who, token, can] of members) {
      const listed = await list(token)
      expect({ who, can: listed.data.can }).toEqual({ who, can })
      const answered = (allowed: boolean, r: { code: number }, what: string) =>
        expect({ what, code: r.code }).toEqual({ what, code: allowed ? 0 : Code.FORBIDDEN })
      answered(can.create, await create(token, article()), `${who} adds`)
      const item = await create(admin, article())
      const put = await t.api(classroomApi.update, { params: { id: item.data.id }, token, body: article() })
      answered(can.edit, put, `${who} edits`)
      const removed = await t.api(classroomApi.remove, { params: { id: item.data.id }, token })
      answered(can.delete, removed, `${who} deletes`)
    }
  })
})
