import { Code } from '@aed/contracts'
import { type Device, deviceApi, type FactoryDevice } from '@aed/contracts/device'
import { operationLogApi } from '@aed/contracts/operation-log'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { devices, installations } from '../../db/schema.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { demo } from '../../test/harness.ts'

// The server's "today" is this clock: the real now when the file starts, standing still, so the
// dates the tests compute and those the server compares agree. (The database's own defaults, as a
// installation's register time, and current_date run on real time.)
const clock = new TestClock(Date.now())
const env = deviceTestFile(clock, async ({ t, f, agent, branch }) => {
  const sibling = await f.agency(agent)
  return {
    child: await f.agency(branch),
    sibling,
    /** Administrator with device EDIT (not ALL); `admin` is the branch's super administrator. */
    editor: (await f.signedIn(branch, { role_type: 1, permissions: { device: 'EDIT' } })).token,
    /** Device READ_ONLY. */
    reader: (await f.signedIn(branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })).token,
    siblingAdmin: (await f.signedIn(sibling)).token,
    system: await t.login(demo.superAdmin),
  }
})

const registered = (r: { data: unknown }) => (r.data as { count: number; resource: Device[] }).resource
const factoryRows = (r: { data: unknown }) =>
  (r.data as { count: number; resource: FactoryDevice[] }).resource

describe('registering a device', () => {
  it('installs a device of the factory list at a site, with its change record', async () => {
    const d = await env.f.device(env.branch)
    const r = await env.t.api(deviceApi.register, {
      token: env.admin,
      body: env.f.deviceForm(env.branch, d.device_sn),
    })
    expect(r).toMatchObject({ code: 0, msg: '添加成功！' })
    expect(r.data).toMatchObject({
      device_sn: d.device_sn,
      model: 'D100',
      status: 0,
      status_text: '正常',
      agency_id: env.branch.id,
      address_name: '浙江省杭州市西湖区',
      open_state: 2,
      can: { edit: true, delete: true },
    })
    expect(r.data.register_code).toMatch(/^R\d{8}\d{6}$/)
    const rec = await env.t.api(deviceApi.changeRecord, {
      token: env.admin,
      query: { register_code: r.data.register_code },
    })
    expect(rec.data.resource).toMatchObject([{ update_type: 0, old_device_sn: null }])
    const factory = await env.t.api(deviceApi.list, {
      token: env.admin,
      query: { device_list_type: 2, device_sn: d.device_sn },
    })
    expect(factoryRows(factory)).toMatchObject([{ device_sn: d.device_sn, is_register: 1 }])
  })

  it('refuses what the dialog refuses, with the spec’s messages', async () => {
    const d = await env.f.device(env.branch)
    const post = (over: object) =>
      env.t.api(deviceApi.register, {
        token: env.admin,
        body: { ...env.f.deviceForm(env.branch, d.device_sn), ...over },
      })
    expect((await post({ device_sn: 'A64NOSUCH1' })).msg).toBe('未找到设备！')
    expect((await post({ battery_expire: '2020-01-01' })).msg).toBe('有效期不能早于今天')
    expect((await post({ chest_shot_img: '' })).msg).toBe('请添加设备近景图片！')
    expect((await post({ long_shot_img: undefined })).msg).toBe('请添加设备远景图片！')
    expect((await post({ open_state: 1 })).msg).toBe('请选择开放日')
    expect((await post({ open_state: 1, open_day: [1, 2] })).msg).toBe('请选择开放时段')
    expect((await post({ open_state: 1, open_day: [1], open_time_period: [['18:00', '08:00']] })).msg).toBe(
      '开始时间不能大于结束时间！',
    )
    expect((await post({ safety_radius: 10001 })).msg).toBe('请输入0-10000的数字')
    // Someone else's organisation, and a general user as manager.
    expect((await post({ agency_id: env.sibling.id })).msg).toBe('请选择所属机构')
    const general = await env.f.member(env.branch, { role_type: 2, permissions: { device: 'READ_ONLY' } })
    expect((await post({ device_manager_id: general.id })).msg).toBe('请选择正确的设备管理员')
    // Abnormal-status switches are for super administrators.
    const byEditor = await env.t.api(deviceApi.register, {
      token: env.editor,
      body: { ...env.f.deviceForm(env.branch, d.device_sn), disable_abnormal_display: 1 },
    })
    expect(byEditor.code).toBe(Code.FORBIDDEN)
    expect(
      (
        await env.t.api(deviceApi.register, {
          token: env.reader,
          body: env.f.deviceForm(env.branch, d.device_sn),
        })
      ).code,
    ).toBe(Code.FORBIDDEN)
    // None of it was written; then it registers once, and not twice.
    expect((await env.t.db.select().from(devices).where(eq(devices.id, d.id)))[0].installation_id).toBeNull()
    expect((await post({})).code).toBe(0)
    expect((await post({})).msg).toBe('该设备已注册')
  })

  it('does not register a device of another branch', async () => {
    const d = await env.f.device(env.sibling)
    const r = await env.t.api(deviceApi.register, {
      token: env.admin,
      body: env.f.deviceForm(env.branch, d.device_sn),
    })
    expect(r.msg).toBe('未找到设备！')
  })
})

describe('changing, moving, replacing and removing', () => {
  it('keeps a change record of all four, and the device list follows', async () => {
    const dev = await env.f.registeredDevice(env.admin, env.branch)
    const manager = await env.f.member(env.branch, { role_type: 1, permissions: { device: 'EDIT' } })
    const base = env.f.deviceForm(env.branch, dev.device_sn)
    const put = (body: object) =>
      env.t.api(deviceApi.update, {
        token: env.admin,
        params: { id: dev.id },
        body: { ...base, ...body } as never,
      })

    const changed = await put({ update_type: 1, device_manager_id: manager.id, contact: '王五' })
    expect(changed).toMatchObject({ code: 0, msg: '修改成功！', data: { device_manager_id: manager.id } })

    expect((await put({ update_type: 2 })).msg).toBe('请修改导航地址！')
    const moved = await put({ update_type: 2, location: '浙江省杭州市西湖区文二路1号', lat: 30.28 })
    expect(moved.data.location).toBe('浙江省杭州市西湖区文二路1号')

    expect((await put({ update_type: 3, new_device_sn: dev.device_sn })).msg).toBe('请修改设备SN！')
    expect((await put({ update_type: 3, new_device_sn: 'A64NOSUCH2' })).msg).toBe('未找到设备！')
    const next = await env.f.device(env.branch)
    const replaced = await put({
      update_type: 3,
      new_device_sn: next.device_sn,
      location: moved.data.location,
    })
    expect(replaced.data).toMatchObject({
      id: next.id,
      device_sn: next.device_sn,
      register_code: dev.register_code,
    })

    // Deleting install information needs ALL: an editor is refused, the super administrator is not.
    expect((await env.t.api(deviceApi.remove, { token: env.editor, params: { id: next.id } })).code).toBe(
      Code.FORBIDDEN,
    )
    const removed = await env.t.api(deviceApi.remove, { token: env.admin, params: { id: next.id } })
    expect(removed).toMatchObject({ code: 0, msg: '删除成功！' })

    const rec = await env.t.api(deviceApi.changeRecord, {
      token: env.admin,
      query: { register_code: dev.register_code },
    })
    expect(rec.data.resource.map((r) => r.update_type)).toEqual([5, 3, 2, 1, 0])
    expect(rec.data.resource[1]).toMatchObject({ old_device_sn: dev.device_sn })
    expect(rec.data.resource[3].update_field).toContain('设备管理员')
    expect(rec.data.resource[2].update_field).toContain('导航地址')

    // Both devices are unregistered factory stock again; the installation is off the device list.
    const stock = await env.t.api(deviceApi.list, {
      token: env.admin,
      query: { device_list_type: 2, is_register: 0 },
    })
    expect(factoryRows(stock).map((d) => d.device_sn)).toEqual(
      expect.arrayContaining([dev.device_sn, next.device_sn]),
    )
    const listed = await env.t.api(deviceApi.list, { token: env.admin, query: { device_sn: dev.device_sn } })
    expect(registered(listed)).toEqual([])
    expect((await env.t.api(deviceApi.detail, { token: env.admin, params: { id: next.id } })).code).toBe(
      Code.NOT_FOUND,
    )
  })

  it('deletes factory stock only with ALL and only when unregistered', async () => {
    const dev = await env.f.registeredDevice(env.admin, env.branch)
    const del = (token: string, id: number) =>
      env.t.api(deviceApi.remove, { token, params: { id }, query: { device_list_type: 2 } })
    expect((await del(env.admin, dev.id)).msg).toBe('设备已注册，请先删除安装信息')
    const stock = await env.f.device(env.branch)
    expect((await del(env.editor, stock.id)).code).toBe(Code.FORBIDDEN)
    expect((await del(env.siblingAdmin, stock.id)).code).toBe(Code.NOT_FOUND)
    expect((await del(env.admin, stock.id)).code).toBe(0)
    const after = await env.t.api(deviceApi.list, {
      token: env.admin,
      query: { device_list_type: 2, device_sn: stock.device_sn },
    })
    expect(factoryRows(after)).toEqual([])
  })
})

describe('the device list', () => {
  it('filters in the database by serial, status, region, battery, expiry, manager and install time', async () => {
    const area = await env.f.agency(env.branch)
    const token = (await env.f.signedIn(area)).token
    const manager = await env.f.member(area, { role_type: 1, permissions: { device: 'EDIT' } })
    const soon = new Date(clock.now().getTime() + 40 * 86_400_000).toISOString().slice(0, 10)
    const a = await env.f.registeredDevice(token, area, { device_manager_id: manager.id })
    const b = await env.f.registeredDevice(token, area, { address_code: '330102', battery_expire: soon })
    const c = await env.f.registeredDevice(token, area, {
      address_code: '440305',
      location: '广东省深圳市南山区',
    })
    await env.t.db.update(devices).set({ status: 2, battery: 3 }).where(eq(devices.id, a.id))
    await env.t.db.update(devices).set({ battery: 80 }).where(eq(devices.id, b.id))
    await env.t.db
      .update(installations)
      .set({ register_time: new Date('2024-01-05T04:00:00Z') })
      .where(eq(installations.register_code, c.register_code))
    const sns = async (query: Record<string, string | number>) =>
      registered(await env.t.api(deviceApi.list, { token, query: { agency_id: area.id, ...query } }))
        .map((d) => d.device_sn)
        .sort()
    expect(await sns({})).toEqual([a.device_sn, b.device_sn, c.device_sn].sort())
    expect(await sns({ device_sn: a.device_sn.slice(-5) })).toEqual([a.device_sn])
    expect(await sns({ status: 2 })).toEqual([a.device_sn])
    expect(await sns({ address_code: '330100' })).toEqual([a.device_sn, b.device_sn].sort())
    expect(await sns({ address_code: '440000' })).toEqual([c.device_sn])
    expect(await sns({ battery_state: 0 })).toEqual([a.device_sn])
    expect(await sns({ battery_state: 2 })).toEqual([b.device_sn])
    expect(await sns({ battery_expire_state: 1 })).toEqual([b.device_sn])
    expect(await sns({ battery_expire_state: 3 })).toEqual([a.device_sn, c.device_sn].sort())
    expect(await sns({ manager_id: manager.id })).toEqual([a.device_sn])
    expect(await sns({ install_days: 7 })).toEqual([a.device_sn, b.device_sn].sort())
    expect(await sns({ start_time: '2024-01-05', end_time: '2024-01-05' })).toEqual([c.device_sn])
    expect((await env.t.api(deviceApi.list, { token, query: { device_sn: 'x'.repeat(51) } })).msg).toBe(
      '字符长度不超过50',
    )
    // Paging: two per page, the total counted once.
    const page2 = await env.t.api(deviceApi.list, {
      token,
      query: { agency_id: area.id, page: 2, page_size: 2 },
    })
    expect((page2.data as { count: number }).count).toBe(3)
    expect(registered(page2)).toHaveLength(1)
  })

  it('shows a site that hides abnormal states as normal, and masks phones in the list only', async () => {
    const manager = await env.f.member(env.branch, { role_type: 1, permissions: { device: 'EDIT' } })
    const dev = await env.f.registeredDevice(env.admin, env.branch, {
      disable_abnormal_display: 1,
      device_manager_id: manager.id,
    })
    await env.t.db.update(devices).set({ status: 4 }).where(eq(devices.id, dev.id))
    const [row] = registered(
      await env.t.api(deviceApi.list, { token: env.admin, query: { device_sn: dev.device_sn } }),
    )
    expect(row).toMatchObject({
      status: 0,
      status_text: '正常',
      phone: `${manager.phone.slice(0, 3)}****${manager.phone.slice(-4)}`,
    })
    expect(
      registered(
        await env.t.api(deviceApi.list, { token: env.admin, query: { status: 4, device_sn: dev.device_sn } }),
      ),
    ).toEqual([])
    const detail = await env.t.api(deviceApi.detail, { token: env.admin, params: { id: dev.id } })
    expect(detail.data.phone).toBe(manager.phone)
    // A read-only member sees it and may do nothing with it.
    const seen = await env.t.api(deviceApi.detail, { token: env.reader, params: { id: dev.id } })
    expect(seen.data.can).toEqual({ edit: false, delete: false, command: false })
  })

  it('shows what the gateway last heard: signal, positioning, and the electrode voltage to system super administrators', async () => {
    const d = await env.registered()
    const list = async (token: string) => {
      const r = await env.t.api(deviceApi.list, { token, query: { device_sn: d.sn } })
      return { row: registered(r)[0], can: (r.data as { can: { cable_voltage: boolean } }).can }
    }
    expect((await list(env.admin)).row).toMatchObject({
      rssi: null,
      positioning_type: null,
      cable_voltage: null,
    })
    await d.send(d.msg('heartbeat', { battery: 80, rssi: -71, cable_voltage: 12.3 }))
    await d.send(d.msg('location', { lat: 30.27, lon: 120.15, positioning_type: 'wifi' }))
    // A later heartbeat without a voltage keeps the one heard (the quiet batch writes it too).
    clock.advance(60_000)
    await d.send(d.msg('heartbeat', { battery: 80, rssi: -80 }))
    clock.advance(60_000)
    await d.send(d.msg('heartbeat', { battery: 80, cable_voltage: 12.1 }))
    const system = await list(env.system)
    expect(system.can.cable_voltage).toBe(true)
    expect(system.row).toMatchObject({ rssi: -80, positioning_type: 'wifi', cable_voltage: 12.1 })
    const branch = await list(env.admin)
    expect(branch.can.cable_voltage).toBe(false)
    expect(branch.row).toMatchObject({ rssi: -80, positioning_type: 'wifi', cable_voltage: null })
    const detail = (token: string) => env.t.api(deviceApi.detail, { token, params: { id: d.id } })
    expect((await detail(env.system)).data).toMatchObject({ positioning_type: 'wifi', cable_voltage: 12.1 })
    expect((await detail(env.admin)).data).toMatchObject({ rssi: -80, cable_voltage: null })
  })

  it('never shows another branch’s devices', async () => {
    const mine = await env.f.registeredDevice(env.admin, env.branch)
    const theirs = await env.f.registeredDevice(env.siblingAdmin, env.sibling)
    const list = registered(await env.t.api(deviceApi.list, { token: env.admin, query: { page_size: 500 } }))
    expect(list.map((d) => d.device_sn)).toContain(mine.device_sn)
    expect(list.map((d) => d.device_sn)).not.toContain(theirs.device_sn)
    expect((await env.t.api(deviceApi.detail, { token: env.admin, params: { id: theirs.id } })).code).toBe(
      Code.NOT_FOUND,
    )
    const rec = await env.t.api(deviceApi.changeRecord, {
      token: env.admin,
      query: { register_code: theirs.register_code },
    })
    expect(rec.data.resource).toEqual([])
  })
})

describe('assigning factory devices', () => {
  it('moves stock to an organisation of the subtree, for super administrators only', async () => {
    const a = await env.f.device(env.branch)
    const b = await env.f.device(env.branch)
    const assign = (token: string, body: { agency_id: number; device_ids: number[] }) =>
      env.t.api(deviceApi.assign, { token, body })
    expect((await assign(env.admin, { agency_id: env.child.id, device_ids: [] })).msg).toBe(
      '请选择需要分配的设备！',
    )
    expect((await assign(env.editor, { agency_id: env.child.id, device_ids: [a.id] })).code).toBe(
      Code.FORBIDDEN,
    )
    expect((await assign(env.admin, { agency_id: env.sibling.id, device_ids: [a.id] })).msg).toBe(
      '请选择所属机构',
    )
    expect((await assign(env.siblingAdmin, { agency_id: env.sibling.id, device_ids: [a.id] })).code).toBe(
      Code.NOT_FOUND,
    )
    const ok = await assign(env.admin, { agency_id: env.child.id, device_ids: [a.id, b.id] })
    expect(ok).toMatchObject({ code: 0, msg: '分配成功！', data: { agency_id: env.child.id } })
    const stock = factoryRows(
      await env.t.api(deviceApi.list, {
        token: env.admin,
        query: { device_list_type: 2, agency_id: env.child.id },
      }),
    )
    expect(stock.map((d) => d.device_sn).sort()).toEqual([a.device_sn, b.device_sn].sort())
  })
})

describe('device credentials', () => {
  it('answers and rotates a device’s secret for system super administrators, in the operation log', async () => {
    const d = await env.f.device(env.branch)
    expect((await env.t.api(deviceApi.credential, { token: env.admin, params: { id: d.id } })).code).toBe(
      Code.FORBIDDEN,
    )
    const first = await env.t.api(deviceApi.credential, { token: env.system, params: { id: d.id } })
    expect(first.data).toMatchObject({ sn: d.device_sn })
    expect(first.data.secret).toMatch(/^[0-9a-f]{64}$/)
    // Sealed at rest: the table never holds the secret itself.
    const [row] = await env.t.db.select().from(devices).where(eq(devices.id, d.id))
    expect(row.secret_enc).not.toContain(first.data.secret)
    const rotated = await env.t.api(deviceApi.rotateCredential, { token: env.system, params: { id: d.id } })
    expect(rotated.data.secret).not.toBe(first.data.secret)
    expect(
      (await env.t.api(deviceApi.credential, { token: env.system, params: { id: d.id } })).data.secret,
    ).toBe(rotated.data.secret)
    // The gateway accepts both for 24 hours, then only the new one.
    expect((await env.t.ctx.deviceCredentials(d.device_sn))?.secrets).toEqual([
      rotated.data.secret,
      first.data.secret,
    ])
    await env.t.db
      .update(devices)
      .set({ prev_secret_until: new Date(clock.now().getTime() - 1) })
      .where(eq(devices.id, d.id))
    expect((await env.t.ctx.deviceCredentials(d.device_sn))?.secrets).toEqual([rotated.data.secret])
    const log = await env.t.api(operationLogApi.list, { token: env.system, query: { content: d.device_sn } })
    const types = (log.data as { resource: { operation_type: string }[] }).resource.map(
      (l) => l.operation_type,
    )
    expect(types).toEqual(expect.arrayContaining(['查看设备密钥', '重置设备密钥']))
  })
})
