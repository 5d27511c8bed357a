import { Code } from '@aed/contracts'
import { reviewApi, type ThirdPartyAed, type Volunteer } from '@aed/contracts/review'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { demo } from '../../test/harness.ts'
import { testIntegrator } from '../../test/open-api.ts'
import { sheetRows } from '../../test/workbooks.ts'
import { candidates } from '../dispatch/dispatch.repository.ts'
import { drainOutbox } from '../engine/outbox.ts'

// Public review (issue 27): the public submits through an integrator, the system organisation
// reviews, and what it approves joins the network (dispatch, the nearby answer, the map).
const clock = new TestClock('2026-11-26T02:00:00.000Z')
const env = deviceTestFile(clock, async ({ t, f, agent, branch }) => ({
  integrator: await testIntegrator(t, branch.id, ['open_api', 'mini_program']),
  noMini: await testIntegrator(t, agent.id, ['open_api']),
  superAdmin: await t.login(demo.superAdmin),
  sysAdmin: await t.login(demo.admin),
  // A member of the system organisation reading system management: sees, decides nothing.
  readOnly: (await f.signedIn(await f.root(), { role_type: 2, permissions: { agency: 'READ_ONLY' } })).token,
  // The demo's duty officer holds no system management: no review at all.
  duty: await t.login(demo.general),
  eastAdmin: await t.login(demo.eastAdmin),
}))

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

let phoneSeq = 0
/** A fresh mobile for each submission (one in review per phone). */
const nextPhone = () => `139${String(10_000_000 + ++phoneSeq * 7919).slice(-8)}`

async function uploaded() {
  const r = await env.integrator.upload<{ access_url: string }>('/open-api/v1/file/', {
    filename: 'site.png',
    type: 'image/png',
    data: PNG,
  })
  expect([r.status, r.code, r.msg]).toEqual([200, 0, '成功'])
  return r.data.access_url
}

// Somewhere in Wuxi, away from the demo network.
const AT = { lat: 31.5601, lon: 120.2955 }

const volunteerBody = async (over: Record<string, unknown> = {}) => ({
  submitter_name: '王志愿',
  submitter_phone: nextPhone(),
  guard_area: '无锡市梁溪区中山路社区',
  has_cert: 1,
  cert_img: await uploaded(),
  ...AT,
  ...over,
})

const aedBody = async (over: Record<string, unknown> = {}) => ({
  brand: '迈瑞',
  location: '无锡市梁溪区中山路333号无锡商业大厦',
  location_desc: '一楼服务台旁',
  lat: AT.lat,
  lon: AT.lon,
  install_imgs: [await uploaded()],
  submitter_name: '李提交',
  submitter_phone: nextPhone(),
  ...over,
})

/** A submission that must be taken: its answer. */
async function submitted(target: string, body: unknown) {
  const r = await env.integrator.send<{ id: number; created: boolean }>('POST', target, body)
  expect([r.code, r.msg]).toEqual([0, '提交成功！'])
  return r
}

const counts = () =>
  one<{ v: number; p: number }>(
    env.t.db,
    sql`SELECT (SELECT count(*) FROM volunteers) AS v, (SELECT count(*) FROM third_party_aeds) AS p`,
  )

describe('submissions by the open API', () => {
  it('takes a volunteer once: the same application again answers it, another while in review is refused', async () => {
    const b = await volunteerBody()
    const first = await env.integrator.send<{ id: number; created: boolean; audit_status: number }>(
      'POST',
      '/open-api/v1/volunteer/',
      b,
    )
    expect([first.code, first.msg, first.data.created, first.data.audit_status]).toEqual([
      0,
      '提交成功！',
      true,
      1,
    ])
    const again = await Promise.all(
      [1, 2].map(() =>
        env.integrator.send<{ id: number; created: boolean }>('POST', '/open-api/v1/volunteer/', b),
      ),
    )
    expect(again.map((a) => [a.data.id, a.data.created])).toEqual([
      [first.data.id, false],
      [first.data.id, false],
    ])
    const other = await env.integrator.send('POST', '/open-api/v1/volunteer/', { ...b, guard_area: '别处' })
    expect([other.code, other.msg]).toEqual([Code.INVALID, '该手机号已有审核中的申请，请等待审核结果'])
    // The reviewers hear of it once, in the system organisation's message centre.
    const m = await many<{ msg_type: number; index_link: string }>(
      env.t.db,
      sql`SELECT m.msg_type, m.index_link FROM messages m WHERE m.msg_type = 8 AND m.event_id = ${first.data.id}`,
    )
    expect(m).toHaveLength(1)
    const root = await env.f.root()
    expect(m[0].index_link).toBe(root.index_link)
  })

  it('refuses bad input with a clear message and writes nothing', async () => {
    const before = await counts()
    const v = await volunteerBody()
    const a = await aedBody()
    const cases: [string, Record<string, unknown>, string][] = [
      [
        '/open-api/v1/volunteer/',
        { ...v, cert_img: '/files/2026/11/nothing-here.png' },
        '图片不存在，请先上传',
      ],
      [
        '/open-api/v1/volunteer/',
        { ...v, cert_img: 'https://evil.example/x.exe' },
        '只能上传jpg/jpeg/png格式的图片！',
      ],
      ['/open-api/v1/volunteer/', { ...v, has_cert: 1, cert_img: '' }, '请添加证书图片!'],
      ['/open-api/v1/volunteer/', { ...v, submitter_phone: '12345' }, '请输入正确的手机号'],
      ['/open-api/v1/volunteer/', { ...v, lat: 0, lon: 0 }, '位置不在中国境内'],
      ['/open-api/v1/third-party-aed/', { ...a, brand: '不存在牌' }, '请选择型号'],
      ['/open-api/v1/third-party-aed/', { ...a, lat: 48.85, lon: 2.35 }, '位置不在中国境内'],
      [
        '/open-api/v1/third-party-aed/',
        { ...a, install_imgs: [...a.install_imgs, ...a.install_imgs, ...a.install_imgs] },
        '最多上传2张图片',
      ],
      ['/open-api/v1/third-party-aed/', { ...a, install_imgs: [] }, '请上传现场图片'],
      ['/open-api/v1/third-party-aed/', { ...a, location: '' }, '请选择安装位置'],
    ]
    for (const [target, body, msg] of cases) {
      const r = await env.integrator.send('POST', target, body)
      expect([target, r.code, r.msg]).toEqual([target, Code.INVALID, msg])
    }
    expect(await counts()).toEqual(before)
    // A configuration without mini_program cannot submit.
    const denied = await env.noMini.send('POST', '/open-api/v1/volunteer/', v)
    expect(denied.status).toBe(403)
  })

  it('keeps only real jpg, jpeg and png uploads', async () => {
    const exe = await env.integrator.upload('/open-api/v1/file/', {
      filename: 'cert.png',
      type: 'image/png',
      data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]),
    })
    expect(exe.code).toBe(Code.INVALID)
    const txt = await env.integrator.upload('/open-api/v1/file/', {
      filename: 'notes.txt',
      type: 'text/plain',
      data: Buffer.from('hello'),
    })
    expect(txt.code).toBe(Code.INVALID)
  })

  it('flags an AED near one of ours with a similar place, and not one beside it with another place text', async () => {
    const d = await env.f.registeredDevice(env.admin, env.branch, {
      location: '无锡市梁溪区中山路333号无锡商业大厦',
      location_desc: '一楼服务台',
      address_code: '320213',
      ...AT,
    })
    const dup = await submitted('/open-api/v1/third-party-aed/', await aedBody())
    const elsewhere = await submitted(
      '/open-api/v1/third-party-aed/',
      await aedBody({ location: '人民医院门诊楼', location_desc: '挂号处', lat: AT.lat + 0.0002 }),
    )
    const bySn = await submitted(
      '/open-api/v1/third-party-aed/',
      await aedBody({ location: '很远的地方', lat: 31.7, lon: 120.5, device_sn: d.device_sn }),
    )
    const list = await env.t.api(reviewApi.thirdPartyAeds, {
      token: env.superAdmin,
      query: { page_size: 50 },
    })
    const rows = (list.data as { resource: ThirdPartyAed[] }).resource
    const of = (id: number) => rows.find((r) => r.id === id)!
    expect(of(dup.data.id).duplicates).toEqual([
      expect.objectContaining({ kind: 'device', sn: d.device_sn, reason: 'place', distance: 0 }),
    ])
    expect(of(dup.data.id).duplicates[0].similarity).toBeGreaterThanOrEqual(0.3)
    expect(of(dup.data.id).duplicates[0].photos.length).toBeGreaterThan(0)
    expect(of(elsewhere.data.id).duplicates).toEqual([])
    expect(of(bySn.data.id).duplicates).toEqual([expect.objectContaining({ kind: 'device', reason: 'sn' })])
  })
})

describe('the review pages', () => {
  it('lists the in-review tab by default, masks phones, and only the system organisation sees it', async () => {
    const b = await volunteerBody({ submitter_name: '赵默认' })
    await env.integrator.send('POST', '/open-api/v1/volunteer/', b)
    const list = await env.t.api(reviewApi.volunteers, { token: env.readOnly, query: { name: '赵默认' } })
    const page = list.data as { count: number; resource: Volunteer[]; can: { audit: boolean } }
    expect(page.count).toBe(1)
    expect(page.resource[0]).toMatchObject({
      audit_status: 1,
      submitter_phone: `${b.submitter_phone.slice(0, 3)}****${b.submitter_phone.slice(7)}`,
      can: { audit: false, edit: false, delete: false },
    })
    expect(page.can.audit).toBe(false)
    // Another organisation's super administrator: refused on every route.
    const calls = [
      env.t.api(reviewApi.volunteers, { token: env.eastAdmin }),
      env.t.api(reviewApi.thirdPartyAeds, { token: env.eastAdmin }),
      env.t.api(reviewApi.auditVolunteer, {
        token: env.eastAdmin,
        params: { id: 1 },
        body: { audit_status: 2 },
      }),
      env.t.api(reviewApi.deleteVolunteer, { token: env.eastAdmin, params: { id: 1 } }),
      env.t.api(reviewApi.sysConfig, { token: env.eastAdmin }),
      env.t.api(reviewApi.saveSysConfig, {
        token: env.eastAdmin,
        body: { call_event_notify_aid_volunteer: 1, xcx_display_third_party_aed: 1 },
      }),
    ]
    calls.push(env.t.api(reviewApi.volunteers, { token: env.duty }))
    expect((await Promise.all(calls)).map((r) => r.code)).toEqual(calls.map(() => Code.FORBIDDEN))
  })

  it('pages newest first, the pages past the middle read from the oldest end alike', async () => {
    for (const n of ['一', '二', '三', '四', '五'])
      await submitted('/open-api/v1/volunteer/', await volunteerBody({ submitter_name: `钱分页${n}` }))
    const filters: Record<string, string>[] = [{ name: '钱分页' }, {}]
    for (const filter of filters) {
      const all = (
        await env.t.api(reviewApi.volunteers, { token: env.superAdmin, query: { ...filter, page_size: 100 } })
      ).data as { count: number; resource: Volunteer[] }
      expect(all.count).toBeGreaterThanOrEqual(5)
      expect(all.resource.map((v) => v.id)).toEqual(all.resource.map((v) => v.id).sort((a, b) => b - a))
      for (let page = 1; page <= Math.ceil(all.count / 2) + 1; page++) {
        const p = (
          await env.t.api(reviewApi.volunteers, {
            token: env.superAdmin,
            query: { ...filter, page, page_size: 2 },
          })
        ).data as { count: number; resource: Volunteer[] }
        expect(p.count).toBe(all.count)
        expect(p.resource).toEqual(all.resource.slice(page * 2 - 2, page * 2))
      }
    }
  })

  it('passes a volunteer into the register: a public responder, an SMS, and the sender’s webhook row', async () => {
    const b = await volunteerBody({ submitter_name: '钱通过' })
    const sub = await submitted('/open-api/v1/volunteer/', b)
    const ro = await env.t.api(reviewApi.auditVolunteer, {
      token: env.readOnly,
      params: { id: sub.data.id },
      body: { audit_status: 2 },
    })
    expect(ro.code).toBe(Code.FORBIDDEN)
    const r = await env.t.api(reviewApi.auditVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { audit_status: 2 },
    })
    expect([r.code, r.msg]).toEqual([0, '审核通过！'])
    const v = r.data as Volunteer
    expect(v.audit_status).toBe(2)
    expect(v.responder_id).not.toBeNull()
    const responder = await one<{ volunteer: boolean; aid_aptitude: number; lat: number }>(
      env.t.db,
      sql`SELECT r.volunteer, r.aid_aptitude, a.lat FROM responders r JOIN accounts a ON a.id = r.account_id
          WHERE r.id = ${v.responder_id}`,
    )
    expect(responder).toMatchObject({ volunteer: true, aid_aptitude: 0 })
    expect(responder?.lat).toBeCloseTo(AT.lat, 6)
    const sms = await one<{ content: string; kind: string }>(
      env.t.db,
      sql`SELECT content, kind FROM sms_outbox WHERE phone = ${b.submitter_phone}`,
    )
    expect(sms).toMatchObject({ kind: 'review' })
    expect(sms?.content).toContain('已通过审核')
    // Its webhook goes to the configuration that sent it, not to the general agent's above it.
    await env.t.db.execute(
      sql`UPDATE app_service_configs SET push_url = 'https://hooks.example.cn/aed', service = '["open_api","mini_program"]'::jsonb
          WHERE agency_id IN (${env.branch.id}, ${env.agent.id})`,
    )
    await drainOutbox(env.t.ctx)
    const deliveries = await many<{
      agency_id: number
      payload: { data: { id: number; audit_status: number } }
    }>(
      env.t.db,
      sql`SELECT c.agency_id, d.payload FROM webhook_deliveries d JOIN app_service_configs c ON c.id = d.config_id
          WHERE d.event = 'review.volunteer.decided'`,
    )
    expect(deliveries.map((d) => [d.agency_id, d.payload.data.id, d.payload.data.audit_status])).toEqual([
      [env.branch.id, sub.data.id, 2],
    ])
    // Decided once: a second decision is refused.
    const twice = await env.t.api(reviewApi.auditVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { audit_status: 0, rejected_reason: '重复' },
    })
    expect([twice.code, twice.msg]).toEqual([Code.INVALID, '该记录已审核'])
    // Deleting needs ALL (the system administrator holds EDIT); the super administrator may, and the responder goes.
    const edit = await env.t.api(reviewApi.deleteVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
    })
    expect(edit.code).toBe(Code.FORBIDDEN)
    const del = await env.t.api(reviewApi.deleteVolunteer, {
      token: env.superAdmin,
      params: { id: sub.data.id },
    })
    expect([del.code, del.msg]).toEqual([0, '删除成功！'])
    const gone = await one(env.t.db, sql`SELECT id FROM responders WHERE id = ${v.responder_id}`)
    expect(gone).toBeNull()
  })

  it('rejects only with a reason, shown on the rejected tab', async () => {
    const sub = await submitted('/open-api/v1/volunteer/', await volunteerBody({ submitter_name: '孙驳回' }))
    const noReason = await env.t.api(reviewApi.auditVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { audit_status: 0 },
    })
    expect([noReason.code, noReason.msg]).toEqual([Code.INVALID, '请输入驳回原因'])
    const r = await env.t.api(reviewApi.auditVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { audit_status: 0, rejected_reason: '证书照片不清晰' },
    })
    expect([r.code, r.msg]).toEqual([0, '提交成功！'])
    const tab = await env.t.api(reviewApi.volunteers, {
      token: env.sysAdmin,
      query: { audit_status: 0, name: '孙驳回' },
    })
    expect((tab.data as { resource: Volunteer[] }).resource[0]).toMatchObject({
      audit_status: 0,
      rejected_reason: '证书照片不清晰',
    })
  })

  it('refuses to reject a third-party AED without a reason, by the schema', async () => {
    const sub = await submitted('/open-api/v1/third-party-aed/', await aedBody({ lat: 31.62, lon: 120.35 }))
    const r = await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { update_type: 1, audit_status: 0 },
    })
    expect([r.code, r.msg]).toEqual([Code.INVALID, '请输入驳回原因'])
    const row = await one<{ audit_status: number }>(
      env.t.db,
      sql`SELECT audit_status FROM third_party_aeds WHERE id = ${sub.data.id}`,
    )
    expect(row?.audit_status).toBe(1)
  })

  it('exports the approved tab as 公共志愿者.xlsx', async () => {
    const sub = await submitted('/open-api/v1/volunteer/', await volunteerBody({ submitter_name: '周导出' }))
    await env.t.api(reviewApi.auditVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { audit_status: 2 },
    })
    const r = await env.t.api(reviewApi.volunteers, {
      token: env.readOnly,
      query: { audit_status: 2, export_xls: 'true' },
    })
    const file = r.data as { file_base64: string; count: number }
    const { rows } = await sheetRows(Buffer.from(file.file_base64, 'base64'))
    expect(rows[0].slice(0, 3)).toEqual(['姓名', '守护区域', '手机号'])
    expect(rows.some((row) => row[0] === '周导出' && String(row[2]).includes('****'))).toBe(true)
  })
})

describe('what approval does', () => {
  it('lists an approved third-party AED in the nearby answer while 后台配置 shows them, readiness unknown', async () => {
    const place = { lat: 31.6001, lon: 120.3355 }
    const sub = await submitted(
      '/open-api/v1/third-party-aed/',
      await aedBody({ ...place, location: '无锡市新吴区长江路7号体育馆', location_desc: '北门' }),
    )
    const nearby = async () =>
      (
        await env.integrator.get<{ resource: { third_party: boolean; id?: number; readiness: string }[] }>(
          `/open-api/v1/aed/nearby?lat=${place.lat}&lon=${place.lon}&radius=500`,
        )
      ).data.resource.filter((r) => r.third_party)
    const save = (on: 0 | 1) =>
      env.t.api(reviewApi.saveSysConfig, {
        token: env.sysAdmin,
        body: { call_event_notify_aid_volunteer: on, xcx_display_third_party_aed: on },
      })
    expect((await save(1)).msg).toBe('保存成功')
    expect(await nearby()).toEqual([]) // in review: not yet
    const pass = await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { update_type: 1, audit_status: 2 },
    })
    expect([pass.code, pass.msg]).toEqual([0, '审核通过！'])
    expect(await nearby()).toEqual([
      expect.objectContaining({ third_party: true, id: sub.data.id, readiness: 'unknown', distance: 0 }),
    ])
    const layer = await env.t.api(reviewApi.thirdPartyLayer, { token: env.eastAdmin, query: {} })
    expect((layer.data as { resource: unknown[][] }).resource.some((p) => p[0] === sub.data.id)).toBe(true)
    await save(0)
    expect(await nearby()).toEqual([])
    await save(1)
    const del = await env.t.api(reviewApi.deleteThirdPartyAed, {
      token: env.superAdmin,
      params: { id: sub.data.id },
    })
    expect(del.code).toBe(0)
    expect(await nearby()).toEqual([])
    await save(0)
  })

  it('edits an approved AED with the dialog’s rules: brand, place and at most two images', async () => {
    const sub = await submitted(
      '/open-api/v1/third-party-aed/',
      await aedBody({ lat: 31.61, lon: 120.34, location: '无锡市图书馆' }),
    )
    const inReview = await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: {
        update_type: 2,
        brand: '飞利浦',
        location: '无锡市图书馆',
        lat: 31.61,
        lon: 120.34,
        install_imgs: [await uploaded()],
      },
    })
    expect([inReview.code, inReview.msg]).toEqual([Code.INVALID, '仅审核通过的记录可以修改或删除'])
    await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { update_type: 1, audit_status: 2 },
    })
    const img = await uploaded()
    const bad = await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { update_type: 2, location: '无锡市图书馆', lat: 31.61, lon: 120.34, install_imgs: [img] },
    })
    expect(bad.msg).toBe('请选择型号')
    const three = await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: {
        update_type: 2,
        brand: '飞利浦',
        location: '无锡市图书馆',
        lat: 31.61,
        lon: 120.34,
        install_imgs: [img, img, img],
      },
    })
    expect(three.msg).toBe('最多上传2张图片')
    const ok = await env.t.api(reviewApi.updateThirdPartyAed, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: {
        update_type: 2,
        brand: '飞利浦',
        location: '无锡市图书馆',
        location_desc: '二楼',
        lat: 31.61,
        lon: 120.34,
        install_imgs: [img],
      },
    })
    expect([ok.code, ok.msg, (ok.data as ThirdPartyAed).brand]).toEqual([0, '修改成功！', '飞利浦'])
  })

  it('alerts approved volunteers for another organisation’s call only while 后台配置 says so', async () => {
    const here = { lat: 31.4001, lon: 120.1005 }
    const sub = await submitted(
      '/open-api/v1/volunteer/',
      await volunteerBody({ ...here, submitter_name: '吴派单' }),
    )
    const r = await env.t.api(reviewApi.auditVolunteer, {
      token: env.sysAdmin,
      params: { id: sub.data.id },
      body: { audit_status: 2 },
    })
    const responderId = (r.data as Volunteer).responder_id
    const pick = async () =>
      (
        await candidates(env.t.db, { index_link: env.branch.index_link }, here, 1000, {
          dispatchId: 0,
          today: '2026-11-26',
          freshSince: new Date('2026-11-26T01:30:00Z'),
          limit: 30,
        })
      ).map((c) => c.responder_id)
    expect(await pick()).not.toContain(responderId)
    // Nor for a call of the system organisation itself, whose subtree holds them.
    const root = await env.f.root()
    const pickAll = async () =>
      (
        await candidates(env.t.db, { index_link: root.index_link }, here, 1000, {
          dispatchId: 0,
          today: '2026-11-26',
          freshSince: new Date('2026-11-26T01:30:00Z'),
          limit: 30,
        })
      ).map((c) => c.responder_id)
    expect(await pickAll()).not.toContain(responderId)
    await env.t.api(reviewApi.saveSysConfig, {
      token: env.sysAdmin,
      body: { call_event_notify_aid_volunteer: 1, xcx_display_third_party_aed: 0 },
    })
    expect(await pick()).toContain(responderId)
    expect(await pickAll()).toContain(responderId)
    await env.t.api(reviewApi.saveSysConfig, {
      token: env.sysAdmin,
      body: { call_event_notify_aid_volunteer: 0, xcx_display_third_party_aed: 0 },
    })
    expect(await pick()).not.toContain(responderId)
  })
})
