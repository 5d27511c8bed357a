import type { Permissions } from '@aed/contracts'
import { eq } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import type { DbOrTx } from '../db/client.ts'
import { accounts, agencies, members } from '../db/schema.ts'
import { countAll } from '../db/sql.ts'
import { hashPassword } from '../lib/passwords.ts'
import { insertAgency } from '../modules/agency/agency.repository.ts'
import { seedDemoCabinets } from './seed-cabinets.ts'
import { type DemoPeople, seedDemoDevices } from './seed-devices.ts'
import { seedDemoResponders } from './seed-responders.ts'

export const DEMO_PASSWORD = 'Aed@123456'

type DemoAgency = {
  key: string
  name: string
  agency_type: 0 | 1 | 2
  parent?: string
  address_code: string
  location: string
  contact_name: string
  phone: string
}

/** The demo network: the system agency, two general agents, four ordinary agencies in real cities. */
export const demoAgencies: DemoAgency[] = [
  {
    key: 'sys',
    name: 'AED云平台运营中心',
    agency_type: 0,
    address_code: '110105',
    location: '北京市朝阳区建国路88号',
    contact_name: '王建国',
    phone: '01065881234',
  },
  {
    key: 'east',
    name: '华东区域总代理',
    agency_type: 1,
    parent: 'sys',
    address_code: '310104',
    location: '上海市徐汇区漕溪北路398号',
    contact_name: '李华',
    phone: '02164871234',
  },
  {
    key: 'south',
    name: '华南区域总代理',
    agency_type: 1,
    parent: 'sys',
    address_code: '440106',
    location: '广州市天河区天河路385号',
    contact_name: '陈明',
    phone: '02038861234',
  },
  {
    key: 'hz',
    name: '杭州市西湖区急救中心',
    agency_type: 2,
    parent: 'east',
    address_code: '330106',
    location: '浙江省杭州市西湖区文三路20号',
    contact_name: '赵敏',
    phone: '057188231234',
  },
  {
    key: 'nj',
    name: '南京市鼓楼区红十字会',
    agency_type: 2,
    parent: 'east',
    address_code: '320106',
    location: '江苏省南京市鼓楼区中山路321号',
    contact_name: '孙磊',
    phone: '02583301234',
  },
  {
    key: 'sz',
    name: '深圳市南山区急救站',
    agency_type: 2,
    parent: 'south',
    address_code: '440305',
    location: '广东省深圳市南山区深南大道9988号',
    contact_name: '周婷',
    phone: '075526651234',
  },
  {
    key: 'xm',
    name: '厦门市思明区体育中心',
    agency_type: 2,
    parent: 'south',
    address_code: '350203',
    location: '福建省厦门市思明区体育路2号',
    contact_name: '吴强',
    phone: '059222031234',
  },
]

const allEdit: Permissions = {
  device: 'EDIT',
  member: 'EDIT',
  aid_man: 'EDIT',
  agency: 'EDIT',
  analysis_board: 'READ_ONLY',
  aid_event: 'READ_ONLY',
  device_reg: 'EDIT',
}
const readOnly: Permissions = {
  device: 'READ_ONLY',
  aid_man: 'READ_ONLY',
  analysis_board: 'READ_ONLY',
  aid_event: 'READ_ONLY',
}

type DemoMember = {
  phone: string
  name: string
  email: string
  agency: string
  role_type: 0 | 1 | 2
  permissions: Permissions
}

/** Demo sign-ins, printed at start-up; every one uses DEMO_PASSWORD. */
export const demoMembers: DemoMember[] = [
  {
    phone: '13800000000',
    name: '系统超级管理员',
    email: 'admin@aed.example.cn',
    agency: 'sys',
    role_type: 0,
    permissions: {},
  },
  {
    phone: '13800000001',
    name: '系统管理员',
    email: 'ops@aed.example.cn',
    agency: 'sys',
    role_type: 1,
    permissions: allEdit,
  },
  {
    phone: '13800000002',
    name: '系统值班员',
    email: 'duty@aed.example.cn',
    agency: 'sys',
    role_type: 2,
    permissions: readOnly,
  },
  {
    phone: '13800000011',
    name: '华东总代理管理员',
    email: 'east@aed.example.cn',
    agency: 'east',
    role_type: 0,
    permissions: {},
  },
  {
    phone: '13800000012',
    name: '华南总代理管理员',
    email: 'south@aed.example.cn',
    agency: 'south',
    role_type: 0,
    permissions: {},
  },
  {
    phone: '13800000021',
    name: '西湖急救中心管理员',
    email: 'hz@aed.example.cn',
    agency: 'hz',
    role_type: 0,
    permissions: {},
  },
  {
    phone: '13800000022',
    name: '鼓楼红十字会管理员',
    email: 'nj@aed.example.cn',
    agency: 'nj',
    role_type: 0,
    permissions: {},
  },
  {
    phone: '13800000023',
    name: '南山急救站管理员',
    email: 'sz@aed.example.cn',
    agency: 'sz',
    role_type: 0,
    permissions: {},
  },
  {
    phone: '13800000024',
    name: '思明体育中心管理员',
    email: 'xm@aed.example.cn',
    agency: 'xm',
    role_type: 0,
    permissions: {},
  },
  // One person in two organisations: signs in through the organisation picker.
  {
    phone: '13800000099',
    name: '跨机构调度员',
    email: 'multi@aed.example.cn',
    agency: 'hz',
    role_type: 1,
    permissions: allEdit,
  },
  {
    phone: '13800000099',
    name: '跨机构调度员',
    email: 'multi@aed.example.cn',
    agency: 'sz',
    role_type: 2,
    permissions: readOnly,
  },
]

/** True when the demo network was seeded into this database. */
export async function hasDemo(db: DbOrTx) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.phone, demoMembers[0].phone))
  return Boolean(row)
}

/** True when the database holds no agency yet. */
export async function isEmpty(db: DbOrTx) {
  const [row] = await db.select({ n: countAll() }).from(agencies)
  return row.n === 0
}

/**
 * Seeds the demo network into an empty database, in one transaction: the organisations, the
 * sign-ins and, given the server's context (its sealer for the device secrets, its storage for
 * the photos, its clock), the demo devices (seed-devices.ts), cabinets (seed-cabinets.ts) and the
 * first-aid responders living near the devices (seed-responders.ts). Without it (the test templates,
 * whose copies get a sealer of their own) only the organisations and sign-ins are made.
 */
export async function seedDemo(db: DbOrTx, ctx?: AppContext) {
  const hash = await hashPassword(DEMO_PASSWORD)
  await db.transaction(async (tx) => {
    const ids = new Map<string, number>()
    for (const a of demoAgencies) {
      const row = await insertAgency(tx, { ...a, parent_id: a.parent ? ids.get(a.parent)! : null })
      ids.set(a.key, row.id)
    }
    const people: DemoPeople = { agencies: ids, managers: new Map() }
    const accountIds = new Map<string, number>()
    for (const m of demoMembers) {
      let accountId = accountIds.get(m.phone)
      if (!accountId) {
        const [acc] = await tx
          .insert(accounts)
          .values({ phone: m.phone, name: m.name, email: m.email, nationality: 'CN', password_hash: hash })
          .returning({ id: accounts.id })
        accountId = accountIds.set(m.phone, acc.id).get(m.phone)!
      }
      const [member] = await tx
        .insert(members)
        .values({
          account_id: accountId,
          agency_id: ids.get(m.agency)!,
          role_type: m.role_type,
          permissions: m.permissions,
        })
        .returning({ id: members.id })
      // Devices are looked after by administrators, never by general users.
      if (m.role_type !== 2) {
        people.managers.set(m.agency, [
          ...(people.managers.get(m.agency) ?? []),
          { id: member.id, name: m.name },
        ])
      }
    }
    if (ctx) {
      await seedDemoDevices(tx, ctx, people)
      await seedDemoCabinets(tx, ctx, people)
      await seedDemoResponders(tx, ctx, people)
    }
  })
}
