import { Code } from '@aed/contracts'
import { memberApi } from '@aed/contracts/member'
import { MsgType, messageApi } from '@aed/contracts/message'
import { responderApi, responderLocationsSchema } from '@aed/contracts/responder'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { sheetRows } from '../../test/workbooks.ts'
import { checkCertificates } from './responder.jobs.ts'

// The register on a clock the test moves (10:00 in Shanghai): a branch two levels down with its
// super administrator, a sibling branch whose people the branch must never see, a read-only
// member and an editor without delete.
const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ f, agent }) => {
  const sibling = await f.agency(agent)
  const siblingAdmin = await f.signedIn(sibling)
  return { sibling, siblingAdmin }
})

let n = 0
/** A phone of the responder form's pattern, new each call. */
const phone = () => `139${String(20_000_000 + ++n).padStart(8, '0')}`

const form = (over: Record<string, unknown> = {}, account: Record<string, unknown> = {}) => ({
  account: {
    phone: phone(),
    name: '王芳',
    birth: '1990-05-01',
    gender: 2,
    lat: 30.2741,
    lon: 120.1551,
    location: '浙江省杭州市西湖区文三路100号',
    location_desc: '3幢2单元',
    address_code: '330106',
    email: 'wangfang@example.cn',
    ...account,
  },
  aid_aptitude: 1,
  certificate_num: `HZ${++n}`,
  certificate_expire: '2027-06-30',
  certificate_img: '/files/cert.png',
  agency_id: env.branch.id,
  status: 1,
  ...over,
})

const create = async (body = form(), token = env.admin) => {
  const r = await env.t.api(responderApi.create, { token, body })
  expect(r.msg).toBe('添加成功！')
  return r.data
}

const member = (permissions: Record<string, string>) =>
  env.f.signedIn(env.branch, { role_type: 2, permissions }).then((m) => m.token)

describe('the responder register', () => {
  it('registers a professional from an existing account’s phone, reusing and updating the account', async () => {
    const person = await env.f.member(env.branch, {
      phone: '13812340001',
      role_type: 2,
      permissions: { device: 'READ_ONLY' },
    })
    const lookup = await env.t.api(memberApi.lookupAccount, {
      token: env.admin,
      params: { phone: person.phone },
    })
    expect(lookup.data).toMatchObject({ exists: true, account: { name: person.name } })
    const r = await create(form({}, { phone: person.phone, name: '王芳' }))
    expect(r.account.id).toBe(person.account_id)
    expect(r).toMatchObject({
      name: '王芳',
      phone: person.phone,
      age: 36,
      aid_aptitude: 1,
      certificate_status: 1,
      dispatch_state: 'ready',
      agency_name: env.branch.name,
      status: 1,
      can: { edit: true, delete: true },
    })
    // The account is the person's in the user list too: one account per phone.
    const users = await env.t.api(memberApi.detail, { token: env.admin, params: { id: person.id } })
    expect(users.data.account.name).toBe('王芳')
    const history = await env.t.api(responderApi.changes, { token: env.admin, params: { id: r.id } })
    expect(history.data.resource.map((c) => c.kind)).toEqual(['created'])
    expect(history.data.resource[0].detail).toBe('登记为专业急救人员')
  })

  it('refuses what the dialog refuses, with its messages, and writes nothing', async () => {
    const before = await env.t.api(responderApi.list, { token: env.admin, query: { page_size: 500 } })
    const cases: [Record<string, unknown>, Record<string, unknown>, string][] = [
      [{}, { phone: '' }, '请输入联系电话!'],
      [{}, { phone: '1391234' }, '请输入正确的联系电话!'],
      [{}, { phone: '12912345678' }, '请输入正确的电话号码'],
      [{}, { name: ' ' }, '请输入姓名!'],
      [{}, { birth: '' }, '请选择出生日期!'],
      [{}, { gender: null }, '请选择性别!'],
      [{}, { lat: null }, '请选择地址!'],
      [{ certificate_img: '' }, {}, '请添加证书图片!'],
      [{ certificate_img: '/files/evil.txt' }, {}, '证书图片须为jpg、jpeg或png图片'],
      [{ certificate_num: '' }, {}, '请输入证书编号'],
      [{ certificate_expire: null }, {}, '请选择证书有效期'],
      [{}, { birth: '2030-01-01' }, '出生日期不正确'],
      [{ agency_id: env.sibling.id }, {}, '请选择所在机构'],
    ]
    for (const [over, account, msg] of cases) {
      const r = await env.t.api(responderApi.create, { token: env.admin, body: form(over, account) as never })
      expect([r.code, r.msg]).toEqual([Code.INVALID, msg])
    }
    const after = await env.t.api(responderApi.list, { token: env.admin, query: { page_size: 500 } })
    expect('count' in after.data && after.data.count).toBe('count' in before.data && before.data.count)
  })

  it('keeps one register entry per person and certificate numbers unique in the scope', async () => {
    const first = await create()
    const again = await env.t.api(responderApi.create, {
      token: env.admin,
      body: form({}, { phone: first.phone }),
    })
    expect(again.msg).toBe('该电话已登记为急救人员')
    const sameCert = await env.t.api(responderApi.create, {
      token: env.admin,
      body: form({ certificate_num: first.certificate_num }),
    })
    expect(sameCert.msg).toBe('该证书编号已登记')
    // A console user of the sibling branch: their profile is the sibling's to change.
    const outsider = await env.f.member(env.sibling, { phone: '13812340002', role_type: 2, permissions: {} })
    const elsewhere = await env.t.api(responderApi.create, {
      token: env.admin,
      body: form({}, { phone: outsider.phone }),
    })
    expect(elsewhere.msg).toBe('该电话的账号属于其他机构，请由其所在机构登记')
    const edit = await env.t.api(responderApi.update, {
      token: env.admin,
      params: { id: first.id },
      body: form({}, { phone: phone() }),
    })
    expect(edit.msg).toBe('编辑急救人员时不能修改电话')
  })

  it('edits a responder and records which fields changed; a lay responder holds no certificate', async () => {
    const r = await create()
    const body = form({ aid_aptitude: 0, status: 0 }, { phone: r.phone, name: '王芳芳', lat: 30.28 })
    const edited = await env.t.api(responderApi.update, { token: env.admin, params: { id: r.id }, body })
    expect(edited.msg).toBe('修改成功！')
    expect(edited.data).toMatchObject({
      name: '王芳芳',
      aid_aptitude: 0,
      certificate_num: null,
      certificate_status: null,
      status: 0,
    })
    const history = await env.t.api(responderApi.changes, { token: env.admin, params: { id: r.id } })
    expect(history.data.resource[0].detail).toBe(
      '修改了姓名、位置、急救资质、证书编号、证书有效期、证书图片、绑定机构设备',
    )
  })

  it('lets a read-only member read but change nothing, and only ALL delete', async () => {
    const r = await create()
    const reader = await member({ aid_man: 'READ_ONLY' })
    const editor = await member({ aid_man: 'EDIT' })
    const list = await env.t.api(responderApi.list, { token: reader })
    expect(list.code).toBe(0)
    expect('can' in list.data && list.data.can).toEqual({ create: false })
    expect((await env.t.api(responderApi.detail, { token: reader, params: { id: r.id } })).data.can).toEqual({
      edit: false,
      delete: false,
    })
    const denied = [
      await env.t.api(responderApi.create, { token: reader, body: form() }),
      await env.t.api(responderApi.update, {
        token: reader,
        params: { id: r.id },
        body: form({}, { phone: r.phone }),
      }),
      await env.t.api(responderApi.renew, {
        token: reader,
        params: { id: r.id },
        body: { certificate_expire: '2030-01-01', certificate_img: '/files/b.png' },
      }),
      await env.t.api(responderApi.setAvailability, {
        token: reader,
        params: { id: r.id },
        body: { paused: true },
      }),
      await env.t.api(responderApi.remove, { token: reader, params: { id: r.id } }),
      await env.t.api(responderApi.remove, { token: editor, params: { id: r.id } }),
      await env.t.api(memberApi.lookupAccount, { token: reader, params: { phone: r.phone } }),
    ]
    expect(denied.map((d) => d.code)).toEqual(denied.map(() => Code.FORBIDDEN))
    // The editor may look the phone up (the dialog's prefill) without any user-management right.
    expect(
      (await env.t.api(memberApi.lookupAccount, { token: editor, params: { phone: r.phone } })).code,
    ).toBe(0)
    const all = await member({ aid_man: 'ALL' })
    const gone = await env.t.api(responderApi.remove, { token: all, params: { id: r.id } })
    expect([gone.msg, gone.data.name]).toEqual(['删除成功！', r.name])
    expect((await env.t.api(responderApi.detail, { token: env.admin, params: { id: r.id } })).code).toBe(
      Code.NOT_FOUND,
    )
  })

  it('scopes the list, detail, history, export and map layer to the subtree', async () => {
    const mine = await create()
    const theirs = await create(form({ agency_id: env.sibling.id }), env.siblingAdmin.token)
    const ids = async (token: string) => {
      const r = await env.t.api(responderApi.list, { token, query: { page_size: 500 } })
      return 'resource' in r.data ? r.data.resource.map((x) => x.id) : []
    }
    expect(await ids(env.admin)).toContain(mine.id)
    expect(await ids(env.admin)).not.toContain(theirs.id)
    for (const e of [responderApi.detail, responderApi.changes]) {
      expect((await env.t.api(e, { token: env.admin, params: { id: theirs.id } })).code).toBe(Code.NOT_FOUND)
    }
    const layer = await env.t.api(responderApi.location, {
      token: env.admin,
      query: { address_code: '330100' },
    })
    expect(layer.data.resource.map(([id]) => id)).toContain(mine.id)
    expect(layer.data.resource.map(([id]) => id)).not.toContain(theirs.id)
    const elsewhere = await env.t.api(responderApi.location, {
      token: env.admin,
      query: { address_code: '110000' },
    })
    expect(elsewhere.data.resource.map(([id]) => id)).not.toContain(mine.id)
    const exported = await env.t.api(responderApi.list, { token: env.admin, query: { export_xls: 'true' } })
    const file = 'file_base64' in exported.data ? exported.data.file_base64 : ''
    const { rows } = await sheetRows(Buffer.from(file, 'base64'))
    expect(rows[0].slice(0, 5)).toEqual(['姓名', '性别', '年龄', '出生日期', '电话'])
    const phones = rows.slice(1).map((row) => row[4])
    expect(phones).toContain(`${mine.phone.slice(0, 3)}****${mine.phone.slice(7)}`)
    expect(phones).not.toContain(`${theirs.phone.slice(0, 3)}****${theirs.phone.slice(7)}`)
    expect(rows.length - 1).toBe((await ids(env.admin)).length)
  })

  it('filters by name, qualification, certificate status, organisation and dispatch state in the database', async () => {
    const lay = await create(
      form({ aid_aptitude: 0, certificate_num: null, certificate_img: null }, { name: '滤镜甲' }),
    )
    const old = await create(form({ certificate_expire: '2026-01-01' }, { name: '滤镜乙' }))
    const paused = await create(form({}, { name: '滤镜丙' }))
    await env.t.api(responderApi.setAvailability, {
      token: env.admin,
      params: { id: paused.id },
      body: { paused: true, reason: '外出培训' },
    })
    const names = async (query: Record<string, unknown>) => {
      const r = await env.t.api(responderApi.list, {
        token: env.admin,
        query: { name: '滤镜', page_size: 50, ...query },
      })
      return 'resource' in r.data ? r.data.resource.map((x) => x.name).sort() : []
    }
    expect(await names({})).toEqual(['滤镜丙', '滤镜乙', '滤镜甲'].sort())
    expect(await names({ aid_aptitude: 0 })).toEqual([lay.name])
    expect(await names({ certificate_status: 0 })).toEqual([old.name])
    expect(await names({ certificate_status: 1 })).toEqual([paused.name])
    expect(await names({ dispatch_state: 'paused' })).toEqual([paused.name])
    expect(await names({ dispatch_state: 'certificate_expired' })).toEqual([old.name])
    expect(await names({ dispatch_state: 'ready' })).toEqual([lay.name])
    expect(await names({ agency_id: env.sibling.id })).toEqual([])
    // Pages of one, sorted by name and by expiry: each page the next row of the whole sorted list.
    for (const order_by of ['name', '-certificate_expire']) {
      const all = await env.t.api(responderApi.list, { token: env.admin, query: { name: '滤镜', order_by } })
      const whole = 'resource' in all.data ? all.data.resource.map((x) => x.id) : []
      const paged: number[] = []
      for (const page of [1, 2, 3]) {
        const r = await env.t.api(responderApi.list, {
          token: env.admin,
          query: { name: '滤镜', order_by, page, page_size: 1 },
        })
        if ('resource' in r.data) paged.push(...r.data.resource.map((x) => x.id))
        expect('count' in r.data && r.data.count).toBe(3)
      }
      expect(paged).toEqual(whole)
    }
    const bad = await env.t.api(responderApi.list, { token: env.admin, query: { name: 'x'.repeat(51) } })
    expect(bad.msg).toBe('字符长度不超过50')
  })

  it('writes the map layer as the contract reads it: each point with its dispatch state and name', async () => {
    const ready = await create(form({}, { name: '层"引号\\斜杠', lat: 30.1234567, lon: 120.7654321 }))
    const lay = await create(
      form({ aid_aptitude: 0, certificate_num: null, certificate_img: null }, { address_code: '330102' }),
    )
    const old = await create(form({ certificate_expire: '2026-01-01' }, { address_code: '330102' }))
    const paused = await create(form({}, { address_code: '330102' }))
    await env.t.api(responderApi.setAvailability, {
      token: env.admin,
      params: { id: paused.id },
      body: { paused: true, reason: '外出培训' },
    })
    const r = await env.t.app.inject({
      method: 'GET',
      url: `${responderApi.location.path}?address_code=330100`,
      headers: { authorization: `JWT ${env.admin}` },
    })
    expect(r.headers['content-type']).toMatch(/^application\/json/)
    const body = r.json() as { code: number; data: unknown }
    expect(body.code).toBe(0)
    const layer = responderLocationsSchema.strict().parse(body.data)
    expect(layer.count).toBe(layer.resource.length)
    expect(layer.more).toBe(false)
    const byId = new Map(layer.resource.map((p) => [p[0], p]))
    expect(byId.get(ready.id)).toEqual([ready.id, 120.7654321, 30.1234567, 1, 0, '层"引号\\斜杠'])
    expect(byId.get(lay.id)?.slice(3)).toEqual([0, 0, lay.name])
    expect(byId.get(old.id)?.slice(3, 5)).toEqual([1, 2])
    expect(byId.get(paused.id)?.slice(3, 5)).toEqual([1, 1])
    const none = await env.t.api(responderApi.location, {
      token: env.admin,
      query: { address_code: '540000' },
    })
    expect(none.data).toEqual({ count: 0, more: false, resource: [] })
  })
})

describe('the certificate lifecycle', () => {
  /** Runs the daily check at the clock's time. */
  const check = () => checkCertificates(env.t.ctx, clock.now())
  const notices = (responderId: number) =>
    many<{ kind: string; cert_expire: string }>(
      env.t.db,
      sql`SELECT kind, cert_expire FROM responder_changes WHERE responder_id = ${responderId}
          AND kind IN ('reminded_30', 'reminded_7', 'expired') ORDER BY id`,
    )
  const sms = (p: string) =>
    many<{ content: string }>(env.t.db, sql`SELECT content FROM sms_outbox WHERE phone = ${p} ORDER BY id`)

  it('reminds at 30 and 7 days, stops professional alerts on expiry, and a renewal restores them', async () => {
    clock.set('2026-12-01T02:00:00.000Z') // 10:00 in Shanghai
    const r = await create(form({ certificate_expire: '2027-01-01' }, { name: '证书甲' }))
    await check()
    expect(await notices(r.id)).toEqual([])

    clock.set('2026-12-01T17:00:00.000Z') // 01:00 on Dec 2: no reminder SMS in the night
    await check()
    expect(await notices(r.id)).toEqual([])
    clock.set('2026-12-02T01:00:00.000Z') // 09:00 on Dec 2, 30 days before
    await check()
    await check() // twice the same day, or a second instance: once
    expect(await notices(r.id)).toEqual([{ kind: 'reminded_30', cert_expire: '2027-01-01' }])
    expect(await sms(r.phone)).toHaveLength(1)
    expect((await sms(r.phone))[0].content).toContain('将于2027-01-01到期')
    const inbox = await env.t.api(messageApi.list, { token: env.admin, query: { page_size: 50 } })
    const told = inbox.data.resource.find(
      (m) => m.msg_type === MsgType.RESPONDER_CERTIFICATE && m.msg_title.includes('证书甲'),
    )
    expect(told?.msg_title).toBe('证书到期提醒：急救人员证书甲的证书将于2027-01-01到期')

    clock.set('2026-12-25T02:00:00.000Z') // 7 days before
    await check()
    expect((await notices(r.id)).map((x) => x.kind)).toEqual(['reminded_30', 'reminded_7'])
    expect(await sms(r.phone)).toHaveLength(2)
    const before = await env.t.api(responderApi.detail, { token: env.admin, params: { id: r.id } })
    expect(before.data).toMatchObject({
      certificate_status: 1,
      certificate_days_left: 7,
      dispatch_state: 'ready',
    })

    clock.set('2027-01-02T02:00:00.000Z') // the day after the expiry
    const expired = await env.t.api(responderApi.detail, { token: env.admin, params: { id: r.id } })
    expect(expired.data).toMatchObject({ certificate_status: 0, dispatch_state: 'certificate_expired' })
    await check()
    expect((await notices(r.id)).map((x) => x.kind)).toEqual(['reminded_30', 'reminded_7', 'expired'])
    expect(await sms(r.phone)).toHaveLength(2)
    const history = await env.t.api(responderApi.changes, { token: env.admin, params: { id: r.id } })
    expect(history.data.resource[0]).toMatchObject({ kind: 'expired', operator: null })

    const early = await env.t.api(responderApi.renew, {
      token: env.admin,
      params: { id: r.id },
      body: { certificate_expire: '2027-01-02', certificate_img: '/files/new.jpg' },
    })
    expect(early.msg).toBe('新的证书有效期须晚于今天')
    const renewed = await env.t.api(responderApi.renew, {
      token: env.admin,
      params: { id: r.id },
      body: { certificate_expire: '2029-01-01', certificate_img: '/files/new.jpg' },
    })
    expect(renewed.msg).toBe('修改成功！')
    expect(renewed.data).toMatchObject({
      certificate_status: 1,
      certificate_expire: '2029-01-01',
      certificate_img: '/files/new.jpg',
      dispatch_state: 'ready',
    })
    // The new expiry starts its own notices: none are due yet.
    await check()
    expect(await notices(r.id)).toHaveLength(3)
  })

  it('pauses and resumes with the reason in the history, and refuses a renewal for a lay responder', async () => {
    const r = await create(form({ aid_aptitude: 0, certificate_num: null, certificate_img: null }))
    const paused = await env.t.api(responderApi.setAvailability, {
      token: env.admin,
      params: { id: r.id },
      body: { paused: true, reason: '休假至月底' },
    })
    expect(paused.data).toMatchObject({ paused: true, pause_reason: '休假至月底', dispatch_state: 'paused' })
    const resumed = await env.t.api(responderApi.setAvailability, {
      token: env.admin,
      params: { id: r.id },
      body: { paused: false },
    })
    expect(resumed.data).toMatchObject({ paused: false, pause_reason: null, dispatch_state: 'ready' })
    const history = await env.t.api(responderApi.changes, { token: env.admin, params: { id: r.id } })
    expect(history.data.resource.map((c) => c.detail)).toEqual([
      '恢复派单',
      '暂停派单，原因：休假至月底',
      '登记为非专业急救人员',
    ])
    const renew = await env.t.api(responderApi.renew, {
      token: env.admin,
      params: { id: r.id },
      body: { certificate_expire: '2030-01-01', certificate_img: '/files/x.png' },
    })
    expect(renew.msg).toBe('非专业急救人员没有证书可续期')
  })
})
