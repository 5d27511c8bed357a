import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { DeviceCredentials } from '../../plugins/auth/device.ts'
import {
  acceptPublish,
  authenticateConnect,
  connectClaim,
  filterMatches,
  isDownTopic,
  maySubscribe,
  mqttPassword,
  mqttUsername,
  parseUpTopic,
  publishType,
  serialOf,
} from './mqtt-auth.ts'

// The MQTT rules as pure functions: CONNECT credentials and the topic rules.

const SN = 'A640000001'
const SECRET = crypto.randomBytes(32).toString('hex')
const OLD = crypto.randomBytes(32).toString('hex')
const NOW = new Date('2026-11-22T02:00:00.000Z')
const ts = NOW.getTime()
const creds: Record<string, DeviceCredentials> = {
  [SN]: { kind: 'aed', id: 5, sn: SN, secrets: [SECRET, OLD] },
}
/** Every password is a first use here; the one-time rule has its own test. */
const deps = {
  deviceCredentials: async (sn: string) => creds[sn] ?? null,
  now: () => NOW,
  firstUse: async () => true,
}
const attempt = (
  o: { sn?: string; clientId?: string; ts?: number; secret?: string; password?: string } = {},
) => {
  const sn = o.sn ?? SN
  const t = o.ts ?? ts
  return {
    clientId: o.clientId ?? sn,
    username: mqttUsername(sn, t),
    password: Buffer.from(o.password ?? mqttPassword(o.secret ?? SECRET, sn, t)),
  }
}

describe('CONNECT', () => {
  it('the password is hex HMAC-SHA256 of serial + ts keyed with the 64-character secret text', () => {
    const expected = crypto.createHmac('sha256', SECRET).update(`${SN}${ts}`).digest('hex')
    expect(mqttPassword(SECRET, SN, ts)).toBe(expected)
    expect(mqttUsername(SN, ts)).toBe(`${SN}|${ts}`)
  })

  it('accepts the current and the previous secret', async () => {
    expect(await authenticateConnect(deps, attempt())).toEqual({ kind: 'aed', id: 5, sn: SN })
    expect(await authenticateConnect(deps, attempt({ secret: OLD }))).toEqual({ kind: 'aed', id: 5, sn: SN })
    // Upper-case hex is the same password.
    const upper = mqttPassword(SECRET, SN, ts).toUpperCase()
    expect(await authenticateConnect(deps, attempt({ password: upper }))).not.toBeNull()
  })

  it('refuses a wrong password, a stale or future ts, an unknown serial, a client id that is not the serial', async () => {
    expect(
      await authenticateConnect(deps, attempt({ secret: crypto.randomBytes(32).toString('hex') })),
    ).toBeNull()
    expect(await authenticateConnect(deps, attempt({ ts: ts - 15 * 60_000 - 1 }))).toBeNull()
    expect(await authenticateConnect(deps, attempt({ ts: ts + 15 * 60_000 + 1 }))).toBeNull()
    expect(await authenticateConnect(deps, attempt({ ts: ts - 15 * 60_000 }))).not.toBeNull()
    expect(await authenticateConnect(deps, attempt({ sn: 'A649999999' }))).toBeNull()
    expect(await authenticateConnect(deps, attempt({ clientId: 'other' }))).toBeNull()
    expect(await authenticateConnect(deps, { clientId: SN, username: SN, password: 'x' })).toBeNull()
    expect(
      await authenticateConnect(deps, { clientId: SN, username: undefined, password: undefined }),
    ).toBeNull()
  })

  it('accepts a password once: the same serial and ts again is refused, with either secret', async () => {
    const used = new Set<string>()
    const asked: string[] = []
    const once = {
      ...deps,
      firstUse: async (sn: string, t: string) => {
        asked.push(`${sn}|${t}`)
        if (used.has(`${sn}|${t}`)) return false
        used.add(`${sn}|${t}`)
        return true
      },
    }
    expect(await authenticateConnect(once, attempt())).toEqual({ kind: 'aed', id: 5, sn: SN })
    expect(await authenticateConnect(once, attempt())).toBeNull()
    expect(await authenticateConnect(once, attempt({ secret: OLD }))).toBeNull()
    expect(await authenticateConnect(once, attempt({ ts: ts + 1 }))).not.toBeNull()
    // A wrong password never reaches the record: it cannot use up a device's ts.
    asked.length = 0
    await authenticateConnect(once, attempt({ ts: ts + 2, secret: crypto.randomBytes(32).toString('hex') }))
    await authenticateConnect(once, attempt({ ts: ts + 16 * 60_000 }))
    expect(asked).toEqual([])
    expect(await authenticateConnect(once, attempt({ ts: ts + 2 }))).not.toBeNull()
  })

  it('reads the claim only from a well-formed username and password', () => {
    const good = attempt()
    expect(connectClaim(good)?.sn).toBe(SN)
    expect(connectClaim({ ...good, username: `${SN}|abc` })).toBeNull()
    expect(connectClaim({ ...good, username: `${SN}/x|${ts}`, clientId: `${SN}/x` })).toBeNull()
    expect(connectClaim({ ...good, password: 'not hex' })).toBeNull()
  })

  it('the ACL hook reads the serial from the client id, consistent with the username', () => {
    expect(serialOf(SN, `${SN}|${ts}`)).toBe(SN)
    expect(serialOf(SN)).toBe(SN)
    expect(serialOf(SN, `OTHER|${ts}`)).toBeNull()
    expect(serialOf('a/b')).toBeNull()
  })
})

describe('topics', () => {
  it('a device publishes only to its own up topic', () => {
    expect(publishType(SN, `aed/v1/${SN}/up/heartbeat`)).toBe('heartbeat')
    expect(publishType(SN, `aed/v1/${SN}/up/new_type`)).toBe('new_type')
    expect(publishType(SN, 'aed/v1/OTHER/up/heartbeat')).toBeNull()
    expect(publishType(SN, `aed/v1/${SN}/down/cmd`)).toBeNull()
    expect(publishType(SN, `aed/v1/${SN}/up/heartbeat/x`)).toBeNull()
    expect(publishType(SN, `aed/v1/${SN}/up/Heartbeat`)).toBeNull()
    expect(publishType(SN, `aed/v2/${SN}/up/heartbeat`)).toBeNull()
    expect(publishType(SN, 'elsewhere')).toBeNull()
    expect(parseUpTopic(`aed/v1/${SN}/up/selftest`)).toEqual({ sn: SN, type: 'selftest' })
  })

  it('a device subscribes only under its own down topic', () => {
    for (const ok of [
      `aed/v1/${SN}/down/#`,
      `aed/v1/${SN}/down/cmd`,
      `aed/v1/${SN}/down/+`,
      `aed/v1/${SN}/down`,
    ]) {
      expect(maySubscribe(SN, ok), ok).toBe(true)
    }
    for (const no of [
      '#',
      'aed/#',
      'aed/v1/+/down/#',
      `aed/v1/${SN}/#`,
      `aed/v1/${SN}/up/#`,
      'aed/v1/OTHER/down/#',
      `aed/v1/${SN}/down/#/x`,
      `aed/v1/${SN}/down/c#`,
      `aed/v1/${SN}/downx`,
      `$share/g/aed/v1/${SN}/down/#`,
    ]) {
      expect(maySubscribe(SN, no), no).toBe(false)
    }
  })

  it('matches filters and knows a down topic', () => {
    expect(filterMatches(`aed/v1/${SN}/down/#`, `aed/v1/${SN}/down/cmd`)).toBe(true)
    expect(filterMatches(`aed/v1/${SN}/down/+`, `aed/v1/${SN}/down/cmd`)).toBe(true)
    expect(filterMatches(`aed/v1/${SN}/down`, `aed/v1/${SN}/down/cmd`)).toBe(false)
    expect(filterMatches(`aed/v1/${SN}/down/x`, `aed/v1/${SN}/down/cmd`)).toBe(false)
    expect(isDownTopic(`aed/v1/${SN}/down/cmd`)).toBe(true)
    expect(isDownTopic(`aed/v1/${SN}/up/cmd`)).toBe(false)
    expect(isDownTopic('aed/v1/+/down/cmd')).toBe(false)
  })
})

describe('a PUBLISH', () => {
  const msg = (type: string, data: Record<string, unknown>, over: Record<string, unknown> = {}) =>
    JSON.stringify({ v: 1, id: 'm1', seq: 1, boot: 1, ts, type, data, ...over })

  it('is one valid message whose type is the topic type', () => {
    const r = acceptPublish(SN, `aed/v1/${SN}/up/heartbeat`, Buffer.from(msg('heartbeat', { battery: 80 })))
    expect(r).toMatchObject({ ok: true, accepted: { known: true, message: { id: 'm1', type: 'heartbeat' } } })
    // An unknown type is stored (and ignored by the engine), as over HTTPS.
    expect(acceptPublish(SN, `aed/v1/${SN}/up/future`, msg('future', {}))).toMatchObject({
      ok: true,
      accepted: { known: false },
    })
  })

  it('is forbidden on a wrong topic; refused as non-JSON, as an array, malformed, or under another type', () => {
    const hb = msg('heartbeat', { battery: 80 })
    expect(acceptPublish(SN, 'aed/v1/OTHER/up/heartbeat', hb)).toEqual({
      ok: false,
      forbidden: expect.stringContaining('topic not allowed'),
    })
    const refusal = (payload: string | Buffer, flags = {}) => {
      const r = acceptPublish(SN, `aed/v1/${SN}/up/heartbeat`, payload, flags)
      return 'refusal' in r ? r.refusal : null
    }
    expect(refusal('{not json')).toMatchObject({ code: 'invalid', field: '(message)' })
    expect(refusal(Buffer.from([0x7b, 0xff, 0x7d]))).toMatchObject({ code: 'invalid', field: '(message)' })
    expect(refusal(`[${hb}]`)).toMatchObject({ code: 'invalid', reason: 'one message per publish' })
    expect(refusal(msg('heartbeat', { battery: 101 }))).toMatchObject({
      code: 'invalid',
      field: 'data.battery',
    })
    expect(refusal(msg('heartbeat', { battery: 1, blob: 'x'.repeat(70_000) }))).toMatchObject({
      code: 'too_large',
    })
    expect(refusal(hb, { qos: 0 })).toMatchObject({ code: 'qos' })
    expect(refusal(hb, { qos: 2 })).toMatchObject({ code: 'qos' })
    expect(refusal(hb, { qos: 1, retain: true })).toMatchObject({ code: 'retained' })
    expect(refusal(hb, { qos: 1, retain: false })).toBeNull()
    const other = acceptPublish(SN, `aed/v1/${SN}/up/selftest`, hb)
    expect('refusal' in other && other.refusal).toMatchObject({
      code: 'invalid',
      field: 'type',
      reason: 'type heartbeat on the topic of selftest',
    })
  })
})
