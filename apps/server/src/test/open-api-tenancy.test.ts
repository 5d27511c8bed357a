// The tenancy line of the open API, for every /open-api route the app registers: an integrator
// of one organisation never reads a record of its sibling's (an AED, an event, a classroom item),
// while it does read its own, so the check has something to see. Each route declares its case
// here, or why it is exempt; a route registered without either fails this file by name.
import { Code } from '@aed/contracts'
import { afterAll, describe, expect, it } from 'vitest'
import { deviceLink } from './device-link.ts'
import { factories } from './factories.ts'
import { createTestApp } from './harness.ts'
import { queryOf, type TestIntegrator, testIntegrator } from './open-api.ts'

// Set up before the tests are collected: the route list names the tests.
const t = await createTestApp({ env: { OPEN_API_BURST: '1000000' } })
afterAll(() => t.close())
const f = factories(t)
const agent = await f.agency(await f.root())

/** The same point for both: each organisation's AED is as near as the other's. */
const HERE = { lat: 29.87, lon: 121.55 }

/** An organisation with an AED (ready, with a fault that came and went), a classroom item and an integrator. */
async function organisation(northM: number) {
  const agency = await f.agency(agent)
  const admin = (await f.signedIn(agency)).token
  const d = await f.registeredDevice(admin, agency, { lat: HERE.lat + northM / 111_195, lon: HERE.lon })
  const link = await deviceLink(t, d.device_sn)
  await link.send(
    link.msg('hello', { model: 'D100', fw_version: 'V2.0.1', report_interval_s: 86_400 }),
    link.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E03'] }),
    link.msg('selftest', { report_type: 1, result: 'pass' }),
  )
  const item = await f.classroom(admin)
  return { agency, sn: d.device_sn, classroomId: item.id, integrator: await testIntegrator(t, agency.id) }
}
const one = await organisation(20)
const two = await organisation(30)
type Org = typeof one

type Case =
  | { exempt: string }
  /** Reads as `me`: `mine` sees its own records, never `theirs`. */
  | { read: (me: TestIntegrator, mine: Org, theirs: Org) => Promise<void> }

type Listed = { count?: number; resource: { sn?: string; id?: number }[] }
const list = async (me: TestIntegrator, target: string) => {
  const r = await me.get<Listed>(target)
  expect([r.status, r.code]).toEqual([200, 0])
  return r.data.resource
}

/** A list read: `mine`'s record is on it, `theirs`' is not (by serial, or by the classroom item's id). */
const listCase = (
  target: string,
  key: (o: Org) => string | number,
  of: (r: Listed['resource'][number]) => unknown,
) => ({
  async read(me: TestIntegrator, mine: Org, theirs: Org) {
    const seen = (await list(me, target)).map(of)
    expect(seen).toContain(key(mine))
    expect(seen).not.toContain(key(theirs))
  },
})
const bySn = (target: string) =>
  listCase(
    target,
    (o) => o.sn,
    (r) => r.sn,
  )

const cases: Record<string, Case> = {
  'GET /open-api/v1/aed/nearby': bySn(
    `/open-api/v1/aed/nearby${queryOf({ ...HERE, radius: 5000, limit: 50 })}`,
  ),
  'GET /open-api/v1/aed/status': bySn('/open-api/v1/aed/status?page_size=500'),
  'GET /open-api/v1/aed/:sn': {
    async read(me, mine, theirs) {
      expect((await me.get(`/open-api/v1/aed/${mine.sn}`)).code).toBe(0)
      const r = await me.get(`/open-api/v1/aed/${theirs.sn}`)
      expect([r.status, r.code, r.data]).toEqual([200, Code.NOT_FOUND, null])
    },
  },
  'GET /open-api/v1/event/': bySn('/open-api/v1/event/?page_size=500'),
  'GET /open-api/v1/classroom/': listCase(
    '/open-api/v1/classroom/?page_size=500',
    (o) => o.classroomId,
    (r) => r.id,
  ),
  'POST /open-api/v1/call-event/': {
    async read(me, mine, theirs) {
      // The same external_id from two integrators is two calls, each its sender's organisation's.
      const externalId = `tenancy-${mine.agency.id}-${theirs.agency.id}`
      const body = { phone: '13800138000', ...HERE, location: '宁波', external_id: externalId }
      const a = await me.send<{ id: number; created: boolean }>('POST', '/open-api/v1/call-event/', body)
      expect([a.code, a.data.created]).toEqual([0, true])
      const other = theirs.integrator
      const b = await other.send<{ id: number; created: boolean }>('POST', '/open-api/v1/call-event/', body)
      expect([b.code, b.data.created]).toEqual([0, true])
      expect(b.data.id).not.toBe(a.data.id)
    },
  },
  'PUT /open-api/v1/call-event/:external_id': {
    async read(me, _mine, theirs) {
      const externalId = `close-${theirs.agency.id}-${Math.random().toString(36).slice(2)}`
      const body = { phone: '13800138000', ...HERE, location: '宁波', external_id: externalId }
      expect((await theirs.integrator.send('POST', '/open-api/v1/call-event/', body)).code).toBe(0)
      const r = await me.send('PUT', `/open-api/v1/call-event/${externalId}`, { outcome: 'cancelled' })
      expect([r.code, r.data]).toEqual([Code.NOT_FOUND, null])
      const own = await theirs.integrator.send<{ status: number }>(
        'PUT',
        `/open-api/v1/call-event/${externalId}`,
        {
          outcome: 'cancelled',
        },
      )
      expect(own.data.status).toBe(0)
    },
  },
  'GET /open-api/docs': { exempt: 'public: the document of the API, no organisation’s records' },
  'POST /open-api/v1/file/': { exempt: 'stores one image and answers its URL: no organisation’s records' },
  'POST /open-api/v1/volunteer/': {
    async read(me, mine, theirs) {
      // The same person's application from a sibling's integrator: refused, never answered with the first's id.
      const phone = `1396${String(mine.agency.id % 1000).padStart(3, '0')}${String(theirs.agency.id % 10000).padStart(4, '0')}`
      const body = {
        submitter_name: '公众',
        submitter_phone: phone,
        guard_area: '宁波',
        has_cert: 0,
        ...HERE,
      }
      const a = await me.send<{ id: number; created: boolean }>('POST', '/open-api/v1/volunteer/', body)
      expect([a.code, a.data.created]).toEqual([0, true])
      const b = await theirs.integrator.send('POST', '/open-api/v1/volunteer/', body)
      expect([b.code, b.data]).toEqual([Code.INVALID, null])
    },
  },
  'POST /open-api/v1/third-party-aed/': {
    async read(me, mine, theirs) {
      const phone = `1397${String(mine.agency.id % 1000).padStart(3, '0')}${String(theirs.agency.id % 10000).padStart(4, '0')}`
      const img = await me.upload<{ access_url: string }>('/open-api/v1/file/', {
        filename: 'aed.png',
        type: 'image/png',
        data: Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
          'base64',
        ),
      })
      const body = {
        brand: '迈瑞',
        location: '宁波某处',
        ...HERE,
        install_imgs: [img.data.access_url],
        submitter_name: '公众',
        submitter_phone: phone,
      }
      const a = await me.send<{ id: number; created: boolean }>('POST', '/open-api/v1/third-party-aed/', body)
      expect([a.code, a.data.created]).toEqual([0, true])
      const b = await theirs.integrator.send('POST', '/open-api/v1/third-party-aed/', body)
      expect([b.code, b.data]).toEqual([Code.INVALID, null])
    },
  },
}

/** Every /open-api route of the app, as `METHOD /path`. */
const routes = t.app.routeList.filter((r) => r.url.startsWith('/open-api')).map((r) => `${r.method} ${r.url}`)

describe('every /open-api route', () => {
  it('there are routes to check', () => {
    expect(routes.length).toBeGreaterThan(1)
  })

  it.each(routes)('%s has a tenancy case', (key) => {
    if (!cases[key]) {
      throw new Error(
        `${key} has no tenancy case: add how an integrator could read a sibling organisation's records through it to test/open-api-tenancy.test.ts, or an exemption with the reason`,
      )
    }
  })

  it('has no case for a route the app does not register', () => {
    expect(Object.keys(cases).filter((k) => !routes.includes(k))).toEqual([])
  })

  const reads = Object.entries(cases).flatMap(([key, c]) => ('read' in c ? [[key, c.read] as const] : []))
  it.each(
    reads,
  )("%s: a sibling organisation's integrator never reads the other's records", async (_key, read) => {
    await read(one.integrator, one, two)
    await read(two.integrator, two, one)
  })
})
