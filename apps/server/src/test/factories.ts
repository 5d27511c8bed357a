import { authApi, type Permissions } from '@aed/contracts'
import { classroomApi } from '@aed/contracts/classroom'
import { type DeviceForm, deviceApi } from '@aed/contracts/device'
import { eq } from 'drizzle-orm'
import { accounts, agencies, members } from '../db/schema.ts'
import { insertAgency } from '../modules/agency/agency.repository.ts'
import { createFactoryDevices } from '../modules/device/device.service.ts'
import type { TestApp } from './harness.ts'
import { testPasswordHash } from './templates.ts'

// Rows a test builds for itself, so it asserts on what it made rather than on the demo seed.
// Defaults are unique (a counter): names, phones (166…, a prefix no seed or test uses) and emails.

let n = 0
const next = () => ++n
const pad = (i: number, width: number) => String(i).padStart(width, '0')

export type AgencyRow = typeof agencies.$inferSelect
export type AgencyType = 0 | 1 | 2

/** The password of every member the factories create. */
export const FACTORY_PASSWORD = 'Factory2026'

export type TestMember = {
  /** The membership (members.id). */
  id: number
  account_id: number
  agency_id: number
  phone: string
  name: string
  email: string
  role_type: 0 | 1 | 2
  permissions: Permissions
}

/** Test data built through `t`: `const f = factories(t)`. */
export function factories(t: TestApp) {
  /** The system agency, root of the tree (seeded, or in an unseeded database the first one). */
  async function root(): Promise<AgencyRow> {
    const [row] = await t.db.select().from(agencies).where(eq(agencies.agency_type, 0)).limit(1)
    return row ?? agency(null, { agency_type: 0 })
  }

  /**
   * An agency under `parent` (none: a root), path and level as the service writes them. Its type
   * is a general agent under the system agency and an ordinary agency elsewhere, unless given.
   */
  async function agency(
    parent: Pick<AgencyRow, 'id' | 'agency_type'> | null,
    over: Partial<{
      name: string
      agency_type: AgencyType
      contact_name: string
      phone: string
      location: string
      address_code: string
    }> = {},
  ): Promise<AgencyRow> {
    const i = next()
    const row = await insertAgency(t.db, {
      name: `自建机构${i}`,
      agency_type: parent?.agency_type === 0 ? 1 : 2,
      parent_id: parent?.id ?? null,
      contact_name: `联系人${i}`,
      phone: `0571${pad(i, 8)}`,
      location: `测试路${i}号`,
      address_code: '330106',
      ...over,
    })
    const [full] = await t.db.select().from(agencies).where(eq(agencies.id, row.id))
    return full
  }

  /**
   * A member of `agency` with its account (reused when the phone already has one), a super
   * administrator of that agency unless a role and permissions are given; signs in with
   * FACTORY_PASSWORD.
   */
  async function member(
    agencyRow: Pick<AgencyRow, 'id'>,
    over: Partial<{
      phone: string
      name: string
      email: string
      role_type: 0 | 1 | 2
      permissions: Permissions
      use_expire: Date | null
    }> = {},
  ): Promise<TestMember> {
    const i = next()
    const phone = over.phone ?? `166${pad(i, 8)}`
    let [acc] = await t.db.select().from(accounts).where(eq(accounts.phone, phone))
    if (!acc) {
      ;[acc] = await t.db
        .insert(accounts)
        .values({
          phone,
          name: over.name ?? `成员${i}`,
          email: over.email ?? `member${i}@factory.example.cn`,
          nationality: 'CN',
          password_hash: await testPasswordHash(FACTORY_PASSWORD),
        })
        .returning()
    }
    const role_type = over.role_type ?? 0
    const permissions = over.permissions ?? {}
    const [m] = await t.db
      .insert(members)
      .values({
        account_id: acc.id,
        agency_id: agencyRow.id,
        role_type,
        permissions,
        use_expire: over.use_expire ?? null,
      })
      .returning()
    return {
      id: m.id,
      account_id: acc.id,
      agency_id: agencyRow.id,
      phone,
      name: acc.name,
      email: acc.email ?? '',
      role_type,
      permissions,
    }
  }

  /** A token of that very membership: signs in, and switches to it when the account has several. */
  async function signIn(m: TestMember): Promise<string> {
    const token = await t.login(m.phone, FACTORY_PASSWORD)
    const others = await t.db
      .select({ id: members.id })
      .from(members)
      .where(eq(members.account_id, m.account_id))
    if (others.length < 2) return token
    const sw = await t.api(authApi.switchMembership, { token, body: { member_id: m.id } })
    if (sw.code !== 0) throw new Error(`switching to member ${m.id} failed: ${sw.code} ${sw.msg}`)
    return sw.data.token
  }

  /** A member and its token in one step. */
  async function signedIn(agencyRow: Pick<AgencyRow, 'id'>, over: Parameters<typeof member>[1] = {}) {
    const m = await member(agencyRow, over)
    return { ...m, token: await signIn(m) }
  }

  /** A classroom item (a video unless given), made through the API by the member whose token it is. */
  async function classroom(token: string, over: Record<string, unknown> = {}) {
    const i = next()
    const r = await t.api(classroomApi.create, {
      token,
      body: { category: 1, title: `课程${i}`, link: `vid${i}`, ...over },
    })
    if (r.code !== 0) throw new Error(`creating a classroom item failed: ${r.code} ${r.msg}`)
    return r.data
  }

  /** A device of `agency`'s factory list, with its own secret; the serial's code 64 makes it a D100. */
  async function device(
    agencyRow: Pick<AgencyRow, 'id'>,
    over: { device_sn?: string; fw_version?: string } = {},
  ) {
    const i = next()
    const device_sn = over.device_sn ?? `A64${pad(i, 7)}`
    const [id] = await createFactoryDevices(t.db, t.ctx, null, [
      { device_sn, fw_version: over.fw_version ?? 'V1.0.3', agency_id: agencyRow.id },
    ])
    return { id, device_sn }
  }

  /** The register dialog's answers for a device of `agency`, valid unless overridden. */
  function deviceForm(agencyRow: Pick<AgencyRow, 'id'>, device_sn: string, over: Partial<DeviceForm> = {}) {
    const inAYear = new Date(t.ctx.clock.now().getTime() + 365 * 86_400_000).toISOString().slice(0, 10)
    return {
      device_sn,
      agency_id: agencyRow.id,
      location: '浙江省杭州市西湖区文三路100号',
      location_desc: '一楼大厅',
      address_code: '330106',
      lat: 30.2741,
      lon: 120.1307,
      open_state: 2 as const,
      xcx_display: 1 as const,
      chest_shot_img: '/files/near.png',
      long_shot_img: '/files/far.png',
      battery_expire: inAYear,
      electrode_sheet_expire: inAYear,
      host_expire: inAYear,
      ...over,
    }
  }

  /** A factory device of `agency` registered there by the member whose token it is. */
  async function registeredDevice(
    token: string,
    agencyRow: Pick<AgencyRow, 'id'>,
    over: Partial<DeviceForm> = {},
  ) {
    const d = await device(agencyRow)
    const r = await t.api(deviceApi.register, { token, body: deviceForm(agencyRow, d.device_sn, over) })
    if (r.code !== 0) throw new Error(`registering a device failed: ${r.code} ${r.msg}`)
    return r.data
  }

  return { root, agency, member, signIn, signedIn, classroom, device, deviceForm, registeredDevice }
}
