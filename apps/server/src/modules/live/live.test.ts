import type { Socket } from 'node:net'
import { agencyApi } from '@aed/contracts/agency'
import { authApi } from '@aed/contracts/auth'
import { LiveClose, LiveType } from '@aed/contracts/live'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { many } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { cabinetLink, deviceLink, deviceTestApp } from '../../test/device-link.ts'
import { type AgencyRow, FACTORY_PASSWORD, type factories } from '../../test/factories.ts'
import { signal, type TestApp } from '../../test/harness.ts'
import { drainOutbox } from '../engine/outbox.ts'

type Frame = { id: number; data_type: number; data: Record<string, unknown> }

let t: TestApp
let f: ReturnType<typeof factories>
let branch: AgencyRow
/** Tokens of the branch's and another organisation's administrators, and the live socket's address. */
let admin: string, other: string, url: string
const clock = new TestClock('2026-11-22T02:00:00.000Z')

beforeAll(async () => {
  ;({ t, f, branch, admin } = await deviceTestApp(clock))
  t.ctx.drainOnCommit = false
  t.ctx.liveAuthTimeoutMs = 200
  other = (await f.signedIn(await f.agency({ id: branch.parent_id as number, agency_type: 1 }))).token
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const address = t.app.server.address()
  url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1/system/data/`
})
afterAll(() => t.close())

/** A console: the socket, every frame it got, and waits for frames or the close. */
function consoleSocket(hello?: object | string) {
  const ws = new WebSocket(url)
  const frames: Frame[] = []
  const waiters: { test: () => boolean; done: () => void }[] = []
  const check = () => {
    for (const w of [...waiters])
      if (w.test()) {
        waiters.splice(waiters.indexOf(w), 1)
        w.done()
      }
  }
  ws.on('message', (raw) => {
    frames.push(JSON.parse(String(raw)))
    check()
  })
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  )
  const opened = new Promise<void>((resolve, reject) => {
    ws.on('open', () => {
      if (hello !== undefined) ws.send(typeof hello === 'string' ? hello : JSON.stringify(hello))
      resolve()
    })
    ws.on('error', reject)
  })
  return {
    ws,
    frames,
    opened,
    closed,
    /** Resolves once `test` holds of the frames so far (at most 5 s). */
    until(test: (frames: Frame[]) => boolean) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out; frames: ${JSON.stringify(frames)}`)),
          5000,
        )
        waiters.push({
          test: () => test(frames),
          done: () => {
            clearTimeout(timer)
            resolve()
          },
        })
        check()
      })
    },
    lastId: () => Math.max(0, ...frames.map((x) => x.id)),
  }
}

/** A device of the branch starts a rescue; the outbox is drained (pushes announced at commit). */
async function rescue() {
  const d = await deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)
  await d.send(
    d.msg('usage', {
      rescue_event_id: `R${Math.random().toString(36).slice(2, 8)}`,
      event_time: clock.now().getTime(),
      event_desc: 'power_on',
    }),
  )
  await drainOutbox(t.ctx)
  return d
}

const alarmOf = (sn: string) => (fs: Frame[]) =>
  fs.some((x) => x.data_type === LiveType.AID_ALARM && x.data.device_sn === sn)

describe('the live channel', () => {
  it('closes a socket that sends no token in time, a bad token, and a member of a disabled organisation', async () => {
    const silent = consoleSocket()
    expect((await silent.closed).code).toBe(LiveClose.AUTH_TIMEOUT)
    const forged = consoleSocket({ token: `${admin.slice(0, -4)}AAAA` })
    expect((await forged.closed).code).toBe(LiveClose.AUTH_FAILED)
    const junk = consoleSocket('not json')
    expect((await junk.closed).code).toBe(LiveClose.AUTH_FAILED)
    const dept = await f.agency(branch)
    const member = await f.signedIn(dept)
    await t.db.execute(sql`UPDATE agencies SET disabled = true WHERE id = ${dept.id}`)
    const disabled = consoleSocket({ token: member.token })
    expect((await disabled.closed).code).toBe(LiveClose.AUTH_FAILED)
    expect(disabled.frames).toEqual([])
  })

  it('pushes an alarm, its message and the new count to the scope, and nothing to another branch', async () => {
    const mine = consoleSocket({ token: admin })
    const theirs = consoleSocket({ token: other })
    await mine.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    await theirs.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    const start = mine.frames.find((x) => x.data_type === LiveType.UNCONFIRMED)?.data.amount as number
    const d = await rescue()
    await mine.until((fs) =>
      fs.some((x) => x.data_type === LiveType.UNCONFIRMED && x.data.amount === start + 1),
    )
    const alarm = mine.frames.find((x) => x.data_type === LiveType.AID_ALARM)
    expect(alarm?.data).toMatchObject({
      device_sn: d.sn,
      agency_name: branch.name,
      event_type: 2,
      escalation_level: 0,
    })
    expect(alarm?.data.data_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    const message = mine.frames.find((x) => x.data_type === LiveType.MESSAGE)
    expect(message?.data).toMatchObject({
      id: alarm?.data.msg_id,
      msg_title: `急救事件：设备 ${d.sn} 开始使用`,
    })
    const ids = mine.frames.filter((x) => x.data_type !== LiveType.UNCONFIRMED).map((x) => x.id)
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
    // The status push of the rescue's device came too (in scope), and none of it to the sibling.
    const second = await rescue()
    await mine.until(alarmOf(second.sn))
    expect(JSON.stringify(theirs.frames)).not.toContain(d.sn)
    expect(new Set(theirs.frames.map((x) => x.data_type))).toEqual(new Set([LiveType.UNCONFIRMED]))
    mine.ws.close()
    theirs.ws.close()
  })

  it('a console that reconnects with `after` gets exactly what it missed, in order, then new pushes', async () => {
    const first = consoleSocket({ token: admin })
    await first.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    await rescue()
    await first.until((fs) => fs.some((x) => x.data_type === LiveType.AID_ALARM))
    const seen = first.lastId()
    first.ws.close()
    await first.closed
    const missed = [await rescue(), await rescue()]
    const stored = (
      await many<{ id: number }>(
        t.db,
        sql`SELECT id::int AS id FROM live_pushes WHERE id > ${seen}
            AND index_link LIKE ${`${branch.index_link}%`} ORDER BY id`,
      )
    ).map((r) => r.id)
    const back = consoleSocket({ token: admin, after: seen })
    await back.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    const replayed = back.frames.filter((x) => x.data_type !== LiveType.UNCONFIRMED)
    expect(replayed.map((x) => x.id)).toEqual(stored)
    for (const d of missed)
      expect(replayed.some((x) => x.data_type === LiveType.AID_ALARM && x.data.device_sn === d.sn)).toBe(true)
    // Nothing twice, and new pushes follow.
    const next = await rescue()
    await back.until(alarmOf(next.sn))
    const ids = back.frames.filter((x) => x.data_type !== LiveType.UNCONFIRMED).map((x) => x.id)
    expect(new Set(ids).size).toBe(ids.length)
    // A console without `after` starts at the newest push: it is not flooded with the day's alarms.
    const fresh = consoleSocket({ token: admin })
    await fresh.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    expect(fresh.frames.map((x) => x.data_type)).toEqual([LiveType.UNCONFIRMED])
    expect(fresh.frames[0].id).toBe(Math.max(...ids))
    back.ws.close()
    fresh.ws.close()
  })

  it('replays only the last day', async () => {
    const probe = consoleSocket({ token: admin })
    await probe.until((fs) => fs.length > 0)
    const seen = probe.lastId()
    probe.ws.close()
    const old = await rescue()
    clock.advance(25 * 3600_000)
    const back = consoleSocket({ token: admin, after: seen })
    await back.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    expect(JSON.stringify(back.frames)).not.toContain(old.sn)
    back.ws.close()
  })

  it('sends the pushes of one commit to a console in one write', async () => {
    // The server's side of the console's connection, and how many writes go through it.
    let wire: Socket | null = null
    const onUpgrade = (_req: unknown, socket: Socket) => {
      wire = socket
    }
    t.app.server.on('upgrade', onUpgrade)
    const mine = consoleSocket({ token: admin })
    await mine.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    t.app.server.off('upgrade', onUpgrade)
    const devices = await Promise.all(
      [1, 2, 3].map(async () => deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)),
    )
    for (const d of devices)
      await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))
    const w = wire as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void }
    let writes = 0
    for (const name of ['_write', '_writev'] as const) {
      const original = w[name].bind(w)
      w[name] = (...a: unknown[]) => {
        writes++
        original(...a)
      }
    }
    await drainOutbox(t.ctx)
    await mine.until((fs) =>
      devices.every((d) =>
        fs.some((x) => x.data_type === LiveType.DEVICE_STATUS && x.data.device_sn === d.sn),
      ),
    )
    expect(writes).toBe(1)
    mine.ws.close()
  })
})

describe('what the pages follow', () => {
  it("pushes a device's event opened and closed and a cabinet's door to the scope, none to another branch", async () => {
    const mine = consoleSocket({ token: admin })
    const theirs = consoleSocket({ token: other })
    await mine.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    await theirs.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    const d = await deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)
    const event = (opened: boolean) => (fs: Frame[]) =>
      fs.some(
        (x) =>
          x.data_type === LiveType.DEVICE_EVENT &&
          x.data.device_sn === d.sn &&
          x.data.kind === 'fault' &&
          x.data.opened === opened,
      )
    await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))
    await drainOutbox(t.ctx)
    await mine.until(event(true))
    await d.send(d.msg('selftest', { report_type: 1, result: 'pass' }))
    await drainOutbox(t.ctx)
    await mine.until(event(false))
    const c = await cabinetLink(t, branch.id)
    const door = (status: number) => (fs: Frame[]) =>
      fs.some(
        (x) =>
          x.data_type === LiveType.CABINET && x.data.cabinet_sn === c.sn && x.data.door_status === status,
      )
    await c.send(c.msg('door', { door_status: 1 }))
    await drainOutbox(t.ctx)
    await mine.until(door(1))
    await c.send(c.msg('door', { door_status: 0 }))
    await drainOutbox(t.ctx)
    await mine.until(door(0))
    expect(
      mine.frames.find((x) => x.data_type === LiveType.DEVICE_EVENT && x.data.device_sn === d.sn)?.data,
    ).toMatchObject({ device_id: d.id, kind: 'fault', opened: true })
    // The sibling branch heard nothing of either.
    expect(JSON.stringify(theirs.frames)).not.toContain(d.sn)
    expect(JSON.stringify(theirs.frames)).not.toContain(c.sn)
    mine.ws.close()
    theirs.ws.close()
  })
})

describe('sessions ended while open (4009)', () => {
  it("closes an account's other sockets when its password changes, and keeps the one that changed it", async () => {
    const m = await f.signedIn(branch)
    const elsewhere = consoleSocket({ token: m.token })
    await elsewhere.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    // A second sign-in a second later: another token of the same account.
    await new Promise((r) => setTimeout(r, 1100))
    const here = await f.signIn(m)
    expect(here).not.toBe(m.token)
    const changer = consoleSocket({ token: here })
    await changer.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    const bystander = consoleSocket({ token: admin })
    await bystander.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    const r = await t.api(authApi.resetPassword, {
      token: here,
      body: { password: 'Changed2026', password_again: 'Changed2026', old_password: FACTORY_PASSWORD },
    })
    expect(r.code).toBe(0)
    expect(await elsewhere.closed).toEqual({ code: LiveClose.REPLACED, reason: 'password_changed' })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(changer.ws.readyState).toBe(WebSocket.OPEN)
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN)
    changer.ws.close()
    bystander.ws.close()
  })

  it('closes the sockets of members of a disabled organisation and of those below it', async () => {
    const dept = await f.agency(branch)
    const below = await f.agency(dept)
    const sockets = [
      consoleSocket({ token: (await f.signedIn(dept)).token }),
      consoleSocket({ token: (await f.signedIn(below)).token }),
    ]
    const boss = consoleSocket({ token: admin })
    for (const s of [...sockets, boss])
      await s.until((fs) => fs.some((x) => x.data_type === LiveType.UNCONFIRMED))
    const r = await t.api(agencyApi.setState, {
      token: admin,
      params: { id: dept.id },
      body: { disabled: true },
    })
    expect(r.code).toBe(0)
    for (const s of sockets)
      expect(await s.closed).toEqual({ code: LiveClose.REPLACED, reason: 'agency_disabled' })
    expect(boss.ws.readyState).toBe(WebSocket.OPEN)
    boss.ws.close()
  })
})

describe('push ids', () => {
  const push = (n: number) => ({
    data_type: LiveType.DEVICE_STATUS,
    agency_id: null,
    index_link: '/0/',
    data: { n },
  })
  /** The committed ids of the test pushes, by their `n`. */
  const idsOf = async (ns: number[]) =>
    new Map(
      (
        await many<{ id: number; n: number }>(
          t.db,
          sql`SELECT id::int, (data->>'n')::int AS n FROM live_pushes WHERE (data->>'n')::int = ANY(${`{${ns.join(',')}}`}::int[])`,
        )
      ).map((r) => [r.n, r.id]),
    )

  it('are given at commit, in the order of the pushes, and announced with them', async () => {
    const { insertPushes } = await import('./live.repository.ts')
    const heard: { id: number; data?: { n?: number } }[] = []
    const stop = await t.ctx.events.subscribe<{ id: number; data?: { n?: number } }>('live_push', (p) => {
      heard.push(p)
    })
    await t.db.transaction(async (tx) => {
      await insertPushes(tx, [push(101), push(102)], clock.now())
      await insertPushes(tx, [push(103)], clock.now())
    })
    const ids = await idsOf([101, 102, 103])
    expect(ids.get(101)).toBeLessThan(ids.get(102)!)
    expect(ids.get(102)).toBeLessThan(ids.get(103)!)
    for (let i = 0; i < 100 && heard.filter((p) => (p.data?.n ?? 0) > 100).length < 3; i++)
      await new Promise((r) => setTimeout(r, 10))
    expect(heard.filter((p) => (p.data?.n ?? 0) > 100).map((p) => [p.id, p.data?.n])).toEqual([
      [ids.get(101), 101],
      [ids.get(102), 102],
      [ids.get(103), 103],
    ])
    await stop()
  })

  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'follow commit order, and a push waits for no transaction that pushed and has not committed',
    async () => {
      const { insertPushes } = await import('./live.repository.ts')
      const { promise: held, resolve: release } = signal()
      const { promise: firstIn, resolve: inserted } = signal()
      const first = t.db.transaction(async (tx) => {
        await insertPushes(tx, [push(201)], clock.now())
        inserted()
        await held
      })
      await firstIn
      // Drawn after the first, committed before it: the smaller id.
      await t.db.transaction((tx) => insertPushes(tx, [push(202)], clock.now()))
      release()
      await first
      const ids = await idsOf([201, 202])
      expect(ids.get(202)).toBeLessThan(ids.get(201)!)
    },
  )
})
