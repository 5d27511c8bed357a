import crypto from 'node:crypto'
import type { MessagesAnswer } from '@aed/contracts/device-protocol'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect } from 'vitest'
import { devices } from '../db/schema.ts'
import { one } from '../db/sql.ts'
import type { TestClock } from '../lib/clock.ts'
import { signDeviceRequest } from '../plugins/auth/device.ts'
import { factories } from './factories.ts'
import { createTestApp, type TestApp } from './harness.ts'

/**
 * A device as a test drives it: numbered messages in its envelope, sent signed over HTTPS
 * (app.inject), with the device's real secret read from the registry.
 */
export async function deviceLink(t: TestApp, sn: string) {
  const [row] = await t.db
    .select({ id: devices.id, secret_enc: devices.secret_enc })
    .from(devices)
    .where(and(eq(devices.device_sn, sn)))
    .limit(1)
  if (!row) throw new Error(`no device ${sn}`)
  return senderLink(t, row.id, sn, t.ctx.sealer.open(row.secret_enc))
}

/** A signing sender (an AED or a cabinet) by its row id, serial and secret. */
function senderLink(t: TestApp, id: number, sn: string, secret: string) {
  let seq = 0
  let n = 0
  const link = {
    id,
    sn,
    secret,
    boot: 1,
    /** The next message of a type; `over` replaces envelope fields (id, seq, ts...). */
    msg(type: string, data: Record<string, unknown>, over: Record<string, unknown> = {}) {
      return {
        v: 1,
        id: `m${++n}-${Math.random().toString(36).slice(2, 8)}`,
        seq: ++seq,
        boot: link.boot,
        ts: t.ctx.clock.now().getTime(),
        type,
        data,
        ...over,
      }
    },
    /** POSTs a body to /device-api/v1/messages signed by this device (or as `as` tells). */
    async post(
      body: unknown,
      as: { secret?: string; ts?: number; nonce?: string; raw?: string | Buffer } = {},
    ) {
      const payload = as.raw ?? JSON.stringify(body)
      const headers = signDeviceRequest(sn, as.secret ?? secret, {
        method: 'POST',
        path: '/device-api/v1/messages',
        body: payload,
        ts: as.ts ?? t.ctx.clock.now().getTime(),
        nonce: as.nonce,
      })
      const res = await t.app.inject({
        method: 'POST',
        url: '/device-api/v1/messages',
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      })
      return {
        status: res.statusCode,
        ...(res.json() as { code: number; msg: string; data: MessagesAnswer }),
      }
    },
    /** Sends messages and fails the test unless all were taken (applied, duplicate or stale). */
    async send(...messages: unknown[]) {
      const r = await link.post(messages)
      if (r.code !== 0) throw new Error(`device ${sn} refused: ${r.code} ${r.msg}`)
      if (r.data.refused.length) throw new Error(`device ${sn} refused: ${JSON.stringify(r.data.refused)}`)
      return r.data
    },
  }
  return link
}

/**
 * Where device tests start: an app on a clock the test moves, a branch organisation two levels
 * down (under `agent`, a general agent of the system organisation), its super administrator's
 * token, and `registered()` for a device registered there and ready to send.
 */
export async function deviceTestApp(clock: TestClock) {
  const t = await createTestApp()
  t.ctx.clock = clock
  const f = factories(t)
  const agent = await f.agency(await f.root())
  const branch = await f.agency(agent)
  const admin = (await f.signedIn(branch)).token
  const registered = async () => deviceLink(t, (await f.registeredDevice(admin, branch)).device_sn)
  return { t, f, agent, branch, admin, registered }
}

export type DeviceTestEnv = Awaited<ReturnType<typeof deviceTestApp>>

/**
 * `deviceTestApp` for a whole test file: built before its tests and closed after them. `more`
 * builds the file's own fixtures (organisations, members, tokens) on it, once, and its answer
 * joins the fields. They are there once the tests run (read them inside tests and the helpers
 * they call, not at the file's top level).
 */
export function deviceTestFile<X extends object = Record<never, never>>(
  clock: TestClock,
  more?: (env: DeviceTestEnv) => Promise<X>,
): DeviceTestEnv & X {
  const env = {} as DeviceTestEnv & X
  beforeAll(async () => {
    Object.assign(env, await deviceTestApp(clock))
    if (more) Object.assign(env, await more(env))
  })
  afterAll(() => env.t?.close())
  return env
}

/**
 * A rescue cabinet of an organisation (bound to an AED when given), inserted as the cabinet
 * registry would with a sealed secret, and its link: it signs as the cabinet.
 */
export async function cabinetLink(
  t: TestApp,
  agencyId: number,
  o: { deviceId?: number | null; sn?: string; location?: string | null } = {},
) {
  const sn = o.sn ?? `CB${crypto.randomBytes(5).toString('hex').toUpperCase()}`
  const secret = crypto.randomBytes(32).toString('hex')
  const row = await one<{ id: number }>(
    t.db,
    sql`INSERT INTO cabinets (cabinet_sn, agency_id, secret_enc, device_id, location)
        VALUES (${sn}, ${agencyId}, ${t.ctx.sealer.seal(secret)}, ${o.deviceId ?? null}, ${o.location ?? null})
        RETURNING id`,
  )
  if (!row) throw new Error(`cabinet ${sn} not created`)
  return senderLink(t, row.id, sn, secret)
}

/** A POST of messages signed as serial `sn` (with `secret`), sent straight to the gateway. */
export function postSignedAs(t: TestApp, sn: string, secret: string, messages: unknown[], ts: number) {
  const payload = JSON.stringify(messages)
  const path = '/device-api/v1/messages'
  const headers = signDeviceRequest(sn, secret, { method: 'POST', path, body: payload, ts })
  return t.app.inject({ method: 'POST', url: path, headers, payload })
}

/** Makes detection records of one device fail to write (as a full disk would); answers the repair. */
export async function breakDetections(t: TestApp, deviceId: number) {
  await t.db.execute(
    sql.raw(`CREATE FUNCTION refuse_detection() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.device_id = ${deviceId} THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$`),
  )
  await t.db.execute(
    sql.raw(
      'CREATE TRIGGER refuse_detection BEFORE INSERT ON device_detections FOR EACH ROW EXECUTE FUNCTION refuse_detection()',
    ),
  )
  return async () => {
    await t.db.execute(sql.raw('DROP TRIGGER refuse_detection ON device_detections'))
    await t.db.execute(sql.raw('DROP FUNCTION refuse_detection()'))
  }
}

/**
 * A failing self-test (fault `code`) of a device that has reported, sent while its detections
 * cannot be written (breakDetections): it is acknowledged all the same, kept for the retry job.
 * Answers the message; the detections are repaired before it returns.
 */
export async function keptFailure(t: TestApp, d: Awaited<ReturnType<typeof deviceLink>>, code: string) {
  await d.send(d.msg('heartbeat', { battery: 90 }))
  const repair = await breakDetections(t, d.id)
  const m = d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: [code] })
  try {
    expect((await d.send(m)).acked).toEqual([m.id])
  } finally {
    await repair()
  }
  return m
}

/** Makes the device's installation hide abnormal states (the map shows it normal), as its setting would. */
export async function hideAbnormalStates(t: TestApp, deviceId: number) {
  await t.db.execute(
    sql`UPDATE installations SET disable_abnormal_display = 1
        WHERE id = (SELECT installation_id FROM devices WHERE id = ${deviceId})`,
  )
}
