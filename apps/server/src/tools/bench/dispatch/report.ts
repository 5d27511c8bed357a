import { printTable } from '../harness/report.ts'
import { ascending, percentile } from '../harness/stats.ts'
import type { Answers } from './calls.ts'
import type { firstSms, invariants } from './check.ts'
import type { timeChoices } from './choice.ts'
import type { SentCall } from './types.ts'

// 6. The figures: target 1's table was printed as it was measured; here targets 2 and 3.

/** The target of target 2: the first alert SMS at most this long after the call's commit, ms. */
const FIRST_SMS_TARGET_MS = 1000

type Invariants = Awaited<ReturnType<typeof invariants>>

export type ServerRun = {
  warm: SentCall[]
  paced: SentCall[]
  burst: SentCall[]
  sms: Awaited<ReturnType<typeof firstSms>>
  answersMs: number
  answers: Answers
  beforeAnswers: Invariants
  afterAnswers: Invariants
  allCalls: Invariants
  load0: string
  load1: string
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–')
/** p50 / p95 / p99 / max of `xs`, ms. */
function spread(xs: number[]) {
  const s = ascending(xs)
  return `${f0(percentile(s, 50))} / ${f0(percentile(s, 95))} / ${f0(percentile(s, 99))} / ${f0(s.at(-1) ?? Number.NaN)}`
}

/** Target 2's rows for a set of calls. */
function latencies(name: string, calls: SentCall[], sms: ServerRun['sms']) {
  const answered = calls.filter((c) => c.id !== null && c.answeredAt !== null)
  const intake: number[] = []
  const toSms: number[] = []
  const toStarted: number[] = []
  const toAlerted: number[] = []
  let noAlert = 0
  let noDispatch = 0
  for (const c of answered) {
    const at = c.answeredAt as number
    intake.push(at - c.sentAt)
    const s = sms.get(c.id as number)
    if (!s?.dispatch) noDispatch++
    if (s?.sms != null) toSms.push(s.sms - at)
    else noAlert++
    const started = c.frames.get('started')
    if (started !== undefined) toStarted.push(started - at)
    const alerted = c.frames.get('alerted')
    if (alerted !== undefined) toAlerted.push(alerted - at)
  }
  const worst = ascending(toSms).at(-1) ?? Number.NaN
  return [
    [
      name,
      `${answered.length} of ${calls.length}`,
      spread(intake),
      spread(toSms),
      spread(toAlerted),
      spread(toStarted),
      `${noAlert} (no dispatch: ${noDispatch})`,
      worst <= FIRST_SMS_TARGET_MS
        ? 'met'
        : `MISSED (${toSms.filter((x) => x > FIRST_SMS_TARGET_MS).length} over)`,
    ],
  ]
}

/** Prints targets 2 and 3 (target 1 printed its own table). */
export function report(r: {
  o: { paced: number; burst: number; instances: number; gapMs: number }
  choice: Awaited<ReturnType<typeof timeChoices>> | null
  server: ServerRun | null
  load: string
}) {
  if (r.choice) console.log(`\nTarget 1 (p95 ≤ 50 ms in every case): ${r.choice.met ? 'met' : 'MISSED'}`)
  const s = r.server
  if (s) {
    console.log(
      `\nTarget 2, the first alert SMS after the call's commit (HTTP answer), ms: p50 / p95 / p99 / max; ${r.o.instances} server(s); load average ${s.load0} before, ${s.load1} after\n`,
    )
    printTable(
      [
        'calls',
        'answered',
        'POST → answer',
        "answer → first alert SMS's create_time",
        "answer → console's 'alerted' frame (committed)",
        "answer → 'started' frame",
        'calls with no one to alert',
        'every SMS ≤ 1 s',
      ],
      [
        ...latencies(`one at a time, ${r.o.gapMs} ms apart`, s.paced, s.sms),
        ...latencies(
          `${r.o.burst} at once (answered in ${(s.answersMs / 1000).toFixed(1)} s)`,
          s.burst,
          s.sms,
        ),
      ],
    )
    const errors = [...s.warm, ...s.paced, ...s.burst].filter((c) => c.error)
    if (errors.length)
      console.log(`\n${errors.length} calls failed: ${[...new Set(errors.map((c) => c.error))].join('; ')}`)
    const refused = [...s.answers.refused].map(([m, k]) => `${m} ${k}`).join(', ') || 'none'
    console.log(
      `\nTarget 3, ${r.o.burst} calls at once: the responders tapped accept ${s.answers.sent} times: ${s.answers.accepted} accepted, refused: ${refused}; ${s.answers.failed} failed\n`,
    )
    const row = (name: string, v: Invariants) => [
      name,
      `${v.calls}`,
      `${v.without}`,
      `${v.outbox_left}`,
      `${v.dispatches} / ${v.alerts} / ${v.sms}`,
      `${v.alerts_without_one_sms} (stray: ${v.stray_sms})`,
      `${v.twice_in_one}`,
      `${v.accepted} (${v.enough} dispatches enough)`,
      `${v.two_accepted}`,
      `${v.alerted_by_several}`,
      `${v.past_enough}`,
    ]
    printTable(
      [
        'read',
        'calls',
        'calls without exactly one dispatch',
        'dispatch outbox rows left',
        'dispatches / alerts / alert SMS',
        'alerts without exactly one SMS',
        'responders alerted twice by one dispatch',
        'accepted alerts',
        'responders holding two accepted',
        'responders alerted by several dispatches',
        'dispatches past enough',
      ],
      [
        row('the burst, before the answers', s.beforeAnswers),
        row('the burst, after the answers', s.afterAnswers),
        row('every call of the run, after', s.allCalls),
      ],
    )
    const v = s.afterAnswers
    const lost =
      v.without + v.outbox_left + v.alerts_without_one_sms + v.twice_in_one + v.two_accepted + v.past_enough
    console.log(`\nTarget 3 (nothing lost, nothing twice): ${lost === 0 ? 'met' : 'MISSED'}`)
  }
  console.log(`\nload average at the end ${r.load}`)
}
