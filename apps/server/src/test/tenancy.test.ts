// The tenancy line, tried for every administration endpoint: a member of another branch and
// members without the area (or with it read-only) are refused, and nothing they sent is written.
import { Code } from '@aed/contracts'
import { DEFAULT_SETTINGS } from '@aed/contracts/settings'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accounts, agencies, members } from '../db/schema.ts'
import { createTestApp, demo, type TestApp } from './harness.ts'

let t: TestApp
const tok: Record<string, string> = {}
let sz: number // 深圳市南山区急救站: another branch for the Hangzhou admin
let szMember: number
let szClassroom: number
let serviceConfig: number

type Attempt = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: () => string, body?: () => unknown]

beforeAll(async () => {
  t = await createTestApp()
  for (const k of ['superAdmin', 'general', 'hzAdmin', 'szAdmin'] as const) tok[k] = await t.login(demo[k])
  const [a] = await t.db.select().from(agencies).where(eq(agencies.name, '深圳市南山区急救站'))
  sz = a.id
  const [m] = await t.db
    .select({ id: members.id })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.account_id))
    .where(eq(accounts.phone, demo.szAdmin))
  szMember = m.id
  const c = await t.call<{ id: number }>('POST', '/api/v1/aid-classroom/', {
    token: tok.szAdmin,
    body: { category: 1, title: '南山急救课', link: 'v001' },
  })
  szClassroom = c.data.id
  const s = await t.call<{ id: number }>('POST', '/api/v1/agency/app-service/config', {
    token: tok.superAdmin,
    body: { agency_id: sz, service: ['open_api'], state: 1 },
  })
  serviceConfig = s.data.id
  // A member who may read organisations and users but not change them.
  await t.call('POST', '/api/v1/member', {
    token: tok.superAdmin,
    body: {
      account: {
        name: '只读管理员',
        phone: '13955550000',
        email: 'ro@aed.example.cn',
        nationality: 'CN',
        location: '北京',
        lat: 39.9,
        lon: 116.4,
        password: 'ReadOnly2026',
      },
      agency_id: (await t.db.select().from(agencies).where(eq(agencies.agency_type, 0)))[0].id,
      role_type: 2,
      permissions: { agency: 'READ_ONLY', device: 'READ_ONLY' },
    },
  })
  tok.readOnly = await t.login('13955550000', 'ReadOnly2026')
})
afterAll(() => t.close())

const agencyForm = () => ({
  name: '越权修改',
  agency_type: 2,
  contact_name: '某人',
  phone: '13900000000',
  address_code: '440305',
})
const memberForm = () => ({
  account: {
    name: '越权用户',
    phone: demo.szAdmin,
    email: 'x@aed.example.cn',
    nationality: 'CN',
    location: '深圳',
    lat: 22.5,
    lon: 113.9,
  },
  agency_id: sz,
  role_type: 2,
  permissions: {},
})

const crossBranch: Attempt[] = [
  ['GET', () => `/api/v1/agency/${sz}`],
  ['PUT', () => `/api/v1/agency/${sz}`, agencyForm],
  ['PUT', () => `/api/v1/agency/${sz}/state/`, () => ({ disabled: true })],
  ['POST', () => '/api/v1/agency/', () => ({ ...agencyForm(), parent_id: sz })],
  ['GET', () => `/api/v1/member/${szMember}`],
  ['PUT', () => `/api/v1/member/${szMember}`, memberForm],
  ['PUT', () => `/api/v1/member/${szMember}/authority/`, () => ({ permissions: {}, use_expire: null })],
  ['DELETE', () => `/api/v1/member/${szMember}`],
  [
    'POST',
    () => '/api/v1/member',
    () => ({ ...memberForm(), account: { ...memberForm().account, phone: '13955551111' } }),
  ],
  ['GET', () => `/api/v1/aid-classroom/${szClassroom}`],
  ['PUT', () => `/api/v1/aid-classroom/${szClassroom}`, () => ({ category: 1, title: '改', link: 'v2' })],
  ['DELETE', () => `/api/v1/aid-classroom/${szClassroom}`],
  ['GET', () => `/api/v1/agency/config/?agency_id=${sz}`],
  ['POST', () => '/api/v1/agency/config/', () => ({ ...DEFAULT_SETTINGS, agency_id: sz, alarm_sound: 0 })],
  ['GET', () => `/api/v1/agency/app-service/config/${serviceConfig}`],
  [
    'PUT',
    () => `/api/v1/agency/app-service/config/${serviceConfig}`,
    () => ({ service: ['sms_notify'], state: 0 }),
  ],
]

const noArea: Attempt[] = [
  ['POST', () => '/api/v1/agency/', agencyForm],
  ['PUT', () => `/api/v1/agency/${sz}/state/`, () => ({ disabled: true })],
  ['GET', () => '/api/v1/member/'],
  ['POST', () => '/api/v1/member', memberForm],
  ['DELETE', () => `/api/v1/member/${szMember}`],
  ['GET', () => `/api/v1/account/${demo.szAdmin}`],
  ['GET', () => '/api/v1/aid-classroom/'],
  ['POST', () => '/api/v1/aid-classroom/', () => ({ category: 1, title: '无权', link: 'v3' })],
  ['GET', () => '/api/v1/agency/config/'],
  ['POST', () => '/api/v1/agency/config/', () => DEFAULT_SETTINGS],
  ['GET', () => '/api/v1/sys-mgmt/operation-log'],
  ['GET', () => '/api/v1/agency/app-service/config'],
]

const readOnlyWrites: Attempt[] = [
  ['POST', () => '/api/v1/agency/', agencyForm],
  ['PUT', () => `/api/v1/agency/${sz}`, agencyForm],
  ['PUT', () => `/api/v1/agency/${sz}/state/`, () => ({ disabled: true })],
  ['POST', () => '/api/v1/aid-classroom/', () => ({ category: 1, title: '只读', link: 'v4' })],
  ['PUT', () => `/api/v1/aid-classroom/${szClassroom}`, () => ({ category: 1, title: '改', link: 'v2' })],
  ['DELETE', () => `/api/v1/aid-classroom/${szClassroom}`],
  ['POST', () => '/api/v1/agency/config/', () => DEFAULT_SETTINGS],
  ['GET', () => '/api/v1/member/'],
  ['POST', () => '/api/v1/member', memberForm],
]

async function attempt(token: string, [method, path, body]: Attempt) {
  return t.call(method, path(), { token, ...(body ? { body: body() } : {}) })
}

describe('tenancy line', () => {
  it.each(
    crossBranch.map((a) => [`${a[0]} ${a[1]()}`, a] as const),
  )('another branch cannot: %s', async (_name, a) => {
    const r = await attempt(tok.hzAdmin, a)
    expect([Code.NOT_FOUND, Code.FORBIDDEN, Code.INVALID]).toContain(r.code)
  })

  it.each(
    noArea.map((a) => [`${a[0]} ${a[1]()}`, a] as const),
  )('a member without the area cannot: %s', async (_n, a) => {
    expect((await attempt(tok.general, a)).code).toBe(Code.FORBIDDEN)
  })

  it.each(
    readOnlyWrites.map((a) => [`${a[0]} ${a[1]()}`, a] as const),
  )('a read-only member cannot: %s', async (_n, a) => {
    expect((await attempt(tok.readOnly, a)).code).toBe(Code.FORBIDDEN)
  })

  it('left everything of the other branch as it was', async () => {
    const agency = await t.call<{ name: string; disabled: boolean }>('GET', `/api/v1/agency/${sz}`, {
      token: tok.superAdmin,
    })
    expect(agency.data).toMatchObject({ name: '深圳市南山区急救站', disabled: false })
    const member = await t.call<{ account: { name: string }; role_type: number }>(
      'GET',
      `/api/v1/member/${szMember}`,
      {
        token: tok.superAdmin,
      },
    )
    expect(member.data).toMatchObject({ account: { name: '南山急救站管理员' }, role_type: 0 })
    const cls = await t.call<{ title: string }>('GET', `/api/v1/aid-classroom/${szClassroom}`, {
      token: tok.superAdmin,
    })
    expect(cls.data.title).toBe('南山急救课')
    const settings = await t.call<{ alarm_sound: number }>('GET', '/api/v1/agency/config/', {
      token: tok.superAdmin,
      query: { agency_id: sz },
    })
    expect(settings.data.alarm_sound).toBe(DEFAULT_SETTINGS.alarm_sound)
    const svc = await t.call<{ state: number }>('GET', `/api/v1/agency/app-service/config/${serviceConfig}`, {
      token: tok.superAdmin,
    })
    expect(svc.data.state).toBe(1)
    const names = (await t.db.select({ name: agencies.name }).from(agencies)).map((r) => r.name)
    expect(names).not.toContain('越权修改')
    expect(await t.db.select().from(accounts).where(eq(accounts.phone, '13955551111'))).toHaveLength(0)
  })

  it('lists never show another branch’s rows', async () => {
    const lists = [
      '/api/v1/agency/?page_size=100',
      '/api/v1/member/?page_size=100',
      '/api/v1/aid-classroom/?page_size=100',
    ]
    for (const url of lists) {
      const r = await t.call<{ resource: { agency_name?: string; name?: string }[] }>('GET', url, {
        token: tok.hzAdmin,
      })
      const text = JSON.stringify(r.data.resource)
      expect(text).not.toContain('深圳')
      expect(text).not.toContain('南山')
    }
    const log = await t.call<{ resource: { agency_name: string }[] }>(
      'GET',
      '/api/v1/sys-mgmt/operation-log',
      {
        token: tok.hzAdmin,
        query: { page_size: 100 },
      },
    )
    expect(log.data.resource.every((l) => l.agency_name === '杭州市西湖区急救中心')).toBe(true)
  })
})
