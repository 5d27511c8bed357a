import { deviceApi } from '@aed/contracts/device'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { deviceTestFile, hideAbnormalStates } from '../../test/device-link.ts'
import { STATUS_PUSH_FIELDS } from './status.presenter.ts'

// The live status push (data_type 11) and the device list are one presenter's (status.presenter.ts):
// a pushed device equals the same device fetched through the list on every field the push carries.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)

/** The newest status push of a device, as its outbox row holds it. */
async function lastPush(deviceId: number) {
  const row = await one<{ payload: Record<string, unknown> }>(
    env.t.db,
    sql`SELECT payload FROM outbox WHERE topic = 'live' AND payload->>'device_id' = ${String(deviceId)}
        ORDER BY id DESC LIMIT 1`,
  )
  if (!row) throw new Error('no status push')
  return row.payload
}

/** The device as the device list answers it. */
async function listed(sn: string) {
  const r = await env.t.api(deviceApi.list, { token: env.admin, query: { device_sn: sn } })
  const item = (r.data as { resource: Record<string, unknown>[] }).resource.find((d) => d.device_sn === sn)
  if (!item) throw new Error(`${sn} is not in the list`)
  return item
}

/** The push's fields beside the list's fields they stand for. */
async function sides(d: { id: number; sn: string }) {
  const push = await lastPush(d.id)
  const item = await listed(d.sn)
  const pushed: Record<string, unknown> = {}
  const fetched: Record<string, unknown> = {}
  for (const [field, listField] of Object.entries(STATUS_PUSH_FIELDS)) {
    pushed[field] = push[field]
    fetched[field] = item[listField]
  }
  return { pushed, fetched, push }
}

describe('a pushed device status agrees with the device list', () => {
  it('on every field the push carries, after a fault and after it clears', async () => {
    const d = await env.registered()
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
    const failed = await sides(d)
    // Every field the push carries is compared with the list (`status` is the engine's raw one).
    expect(Object.keys(failed.push).sort()).toEqual([...Object.keys(STATUS_PUSH_FIELDS), 'status'].sort())
    expect(failed.push).toMatchObject({ status: 2, readiness: 'not_ready' })
    expect(failed.pushed).toEqual(failed.fetched)
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass', battery: 90 }))
    const passed = await sides(d)
    expect(passed.push).toMatchObject({ status: 0, readiness: 'ready' })
    expect(passed.pushed).toEqual(passed.fetched)
  })

  it('where the site hides abnormal states: the shown status is the list’s', async () => {
    const d = await env.registered()
    await hideAbnormalStates(env.t, d.id)
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E01'] }))
    const { pushed, fetched, push } = await sides(d)
    expect(push).toMatchObject({ status: 2, shown_status: 0 })
    expect(pushed).toEqual(fetched)
  })
})
