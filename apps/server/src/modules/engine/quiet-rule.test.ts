import { type DeviceMessage, parseDeviceMessage } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import { TestClock } from '../../lib/clock.ts'
import { formatDate } from '../../lib/time.ts'
import { deviceTestFile } from '../../test/device-link.ts'
import { lockDevice } from './engine.repository.ts'
import {
  changesNothing,
  DEADLINE_GRACE_MS,
  DEFAULT_REPORT_INTERVAL_S,
  MISSED_FACTOR,
} from './engine.rules.ts'
import { applyCheck } from './engine.service.ts'
import type { NewInboxRow } from './inbox.repository.ts'
import { isNewer } from './inbox.ts'
import { quietBatch } from './quiet.repository.ts'
import { summarize } from './quiet.ts'
import { quietFactsOf, reduce } from './reducer.ts'

// "Changes nothing" is one rule (engine.rules.ts, changesNothing). The quiet batch's SQL
// (engine_quiet_batch, migration 0017) mirrors it, and the reducer asks it: on each case below
// the three agree, and what the rule calls quiet the reducer answers with no change but the
// device's clock, battery and self-test record.

const clock = new TestClock('2026-11-22T02:00:00.000Z')
const env = deviceTestFile(clock)
type Device = Awaited<ReturnType<typeof env.registered>>

/** A device that reported, passed a self-test and holds 90%. */
async function ready() {
  const d = await env.registered()
  await d.send(d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }))
  return d
}

class Rollback extends Error {}

/** What the rule, the reducer and the quiet batch's SQL make of one message of a device now. */
async function judge(d: Device, raw: ReturnType<Device['msg']>) {
  const { t } = env
  const parsed = parseDeviceMessage(raw)
  if (!parsed.ok || !parsed.known) throw new Error('the case message is not valid')
  const m: DeviceMessage = parsed.message
  const now = clock.now()
  const facts = await lockDevice(t.db, d.id, Number.MAX_SAFE_INTEGER)
  if (!facts) throw new Error('no device')
  const stale = facts.has_state && !isNewer(m.boot, m.seq, facts.state)
  const rule = changesNothing(m, {
    ...quietFactsOf(facts.state, facts.installation),
    stale,
    waiting: facts.waiting,
    deleted: facts.deleted,
  })

  const out = reduce(
    facts.state,
    { kind: 'message', message: m, time: now, stale },
    {
      installation: facts.installation,
      rules: facts.rules,
      today: formatDate(now),
      notReturned: facts.notReturned,
    },
  )

  const row: NewInboxRow = {
    sender_kind: 'aed',
    sender_id: d.id,
    msg_id: m.id,
    type: m.type,
    boot: m.boot,
    seq: m.seq,
    device_ts: new Date(m.ts),
    event_time: new Date(m.ts),
    ts_flagged: false,
    received_at: now,
    transport: 'https',
    data: m.data as Record<string, unknown>,
  }
  const { devices, tests } = summarize([row])
  let loud: boolean | undefined
  await t.db
    .transaction(async (tx) => {
      const [stored] = await quietBatch(tx, [row], devices, tests, now)
      loud = stored.loud
      // Nothing of the case stays: the next case starts from the same database.
      throw new Rollback()
    })
    .catch((e) => {
      if (!(e instanceof Rollback)) throw e
    })
  return { rule, sql: loud === false, out, facts }
}

const cases: {
  name: string
  quiet: boolean
  make: () => Promise<{ d: Device; m: ReturnType<Device['msg']> }>
}[] = [
  {
    name: 'a heartbeat in the same battery band',
    quiet: true,
    make: async () => {
      const d = await ready()
      return { d, m: d.msg('heartbeat', { battery: 88, rssi: -70 }) }
    },
  },
  {
    name: 'a heartbeat that crosses into another battery band',
    quiet: false,
    make: async () => {
      const d = await ready()
      return { d, m: d.msg('heartbeat', { battery: 8 }) }
    },
  },
  {
    name: 'a pass of a verified device, with the dates its site has',
    quiet: true,
    make: async () => {
      const d = await ready()
      const installation = (await lockDevice(env.t.db, d.id))?.installation
      return {
        d,
        m: d.msg('selftest', {
          report_type: 1,
          result: 'pass',
          battery: 89,
          electrode_sheet_expire: installation?.padsExpire,
        }),
      }
    },
  },
  {
    name: 'a pass while a fault is open',
    quiet: false,
    make: async () => {
      const d = await env.registered()
      await d.send(d.msg('selftest', { report_type: 0, result: 'pass', battery: 90 }))
      await d.send(d.msg('selftest', { report_type: 1, result: 'fail', fault_codes: ['E02'] }))
      return { d, m: d.msg('selftest', { report_type: 1, result: 'pass' }) }
    },
  },
  {
    name: 'a pass bringing new pads dates',
    quiet: false,
    make: async () => {
      const d = await ready()
      return {
        d,
        m: d.msg('selftest', { report_type: 1, result: 'pass', electrode_sheet_expire: '2029-03-01' }),
      }
    },
  },
  {
    name: 'the first pass of a device (never verified)',
    quiet: false,
    make: async () => {
      const d = await env.registered()
      await d.send(d.msg('heartbeat', { battery: 90 }))
      return { d, m: d.msg('selftest', { report_type: 1, result: 'pass' }) }
    },
  },
  {
    name: 'a heartbeat of a device that never reported',
    quiet: false,
    make: async () => {
      const d = await env.registered()
      return { d, m: d.msg('heartbeat', { battery: 90 }) }
    },
  },
  {
    name: 'a heartbeat of an offline device',
    quiet: false,
    make: async () => {
      const d = await ready()
      clock.advance(DEFAULT_REPORT_INTERVAL_S * 1000 * MISSED_FACTOR + DEADLINE_GRACE_MS + 1000)
      expect(await applyCheck(env.t.ctx, d.id, 'deadline')).toBe(true)
      return { d, m: d.msg('heartbeat', { battery: 90 }) }
    },
  },
  {
    name: 'a heartbeat while a rescue is under way',
    quiet: false,
    make: async () => {
      const d = await ready()
      await d.send(
        d.msg('usage', { rescue_event_id: 'QR1', event_time: clock.now().getTime(), event_desc: 'power_on' }),
      )
      return { d, m: d.msg('heartbeat', { battery: 90 }) }
    },
  },
  {
    name: 'a stale heartbeat (older than the state)',
    quiet: false,
    make: async () => {
      const d = await ready()
      await d.send(d.msg('heartbeat', { battery: 90 }, { seq: 10 }))
      return { d, m: d.msg('heartbeat', { battery: 90 }, { seq: 5 }) }
    },
  },
]

describe('"changes nothing": the rule, the quiet batch and the reducer agree', () => {
  for (const c of cases) {
    it(`${c.name}: ${c.quiet ? 'quiet' : 'not quiet'}`, async () => {
      const { d, m } = await c.make()
      const { rule, sql, out, facts } = await judge(d, m)
      expect(rule).toBe(c.quiet)
      expect(sql).toBe(rule)
      expect(out.quiet).toBe(rule)
      if (rule) {
        // Quiet: no effect but the self-test's record, no event, the same status and readiness.
        expect(out.effects.filter((e) => e.type !== 'detection')).toEqual([])
        expect(out.state.open).toEqual(facts.state.open)
        expect({ status: out.status, readiness: out.readiness, reasons: out.reasons }).toEqual({
          status: facts.status,
          readiness: facts.readiness,
          reasons: facts.readiness_reasons,
        })
      }
    })
  }
})
