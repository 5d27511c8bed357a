import { regionFullName } from '@aed/contracts/regions'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import type { DbOrTx } from '../db/client.ts'
import { many } from '../db/sql.ts'
import { type Rng, seededRng } from '../lib/random.ts'
import { formatDate } from '../lib/time.ts'
import { chineseName } from './names.ts'
import { certificatePhoto } from './photos.ts'
import { insertRows } from './rows.ts'
import type { DemoPeople } from './seed-devices.ts'

// The demo network's first-aid responders: two per registered AED, living within 1.5 km of it, in
// the AED's organisation and district. Professionals and lay responders; certificates mostly
// valid, some expiring within 30 or 7 days, some expired; a few paused. Each is an account (the
// person) and a register entry, with its history's 'created' line (and 'paused' for the paused).
// Certificate dates are counted from the seed's clock, so "expires in 5 days" stays true on the
// day of seeding. Deterministic: one seeded generator.

const DAY = 86_400_000

/** The demo mix: responders per registered AED, the professionals' share, and exact band sizes. */
export const DEMO_RESPONDERS = {
  perDevice: 2,
  professional: 0.45,
  /** Professionals whose certificate has expired. */
  expired: 25,
  /** Professionals whose certificate expires in 1-7 days. */
  within7: 10,
  /** Professionals whose certificate expires in 8-30 days. */
  within30: 30,
  /** Responders paused, with a reason. */
  paused: 20,
  /** Furthest a responder lives from their AED, metres. */
  radiusM: 1450,
} as const

/** Mobile prefixes in use: every one matches the responder form's ^1[34578]. */
const MOBILE_PREFIXES = [
  '130',
  '131',
  '132',
  '133',
  '135',
  '136',
  '137',
  '138',
  '139',
  '147',
  '150',
  '151',
  '152',
  '153',
  '155',
  '156',
  '157',
  '158',
  '159',
  '173',
  '176',
  '177',
  '178',
  '180',
  '181',
  '182',
  '183',
  '185',
  '186',
  '187',
  '188',
  '189',
]

/** Residential compounds a responder lives in (after the district's full name). */
const COMPOUNDS = [
  '翠苑一区',
  '阳光家园',
  '金色港湾',
  '绿城桂花苑',
  '万科城市花园',
  '保利天悦',
  '幸福里小区',
  '和平新村',
  '滨江花园',
  '星海名城',
  '锦绣江南',
  '丽景湾',
  '紫金花园',
  '龙湖春江郦城',
  '华侨城',
  '东方明珠花园',
  '碧桂园',
  '御景华庭',
  '新城公馆',
  '世纪嘉园',
]

const PAUSE_REASONS = [
  '休假中',
  '已搬离常驻地',
  '身体原因暂停',
  '长期出差',
  '工作调动，待重新登记',
  '本人申请暂停',
]

/** A YYYY-MM-DD date `days` after the date `day`. */
const plusDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)

/** The list in an order shuffled by `rng` (Fisher-Yates), as a copy. */
function shuffled<T>(rng: Rng, list: readonly T[]): T[] {
  const out = [...list]
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i)
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

/** A point uniformly inside `radiusM` of (lat, lon), to six decimals. */
function near(rng: Rng, lat: number, lon: number, radiusM: number) {
  const d = radiusM * Math.sqrt(rng.next())
  const a = rng.next() * 2 * Math.PI
  const metresPerDegree = 111_320
  return {
    lat: Number((lat + (d * Math.cos(a)) / metresPerDegree).toFixed(6)),
    lon: Number((lon + (d * Math.sin(a)) / (metresPerDegree * Math.cos((lat * Math.PI) / 180))).toFixed(6)),
  }
}

/**
 * Seeds the demo responders near the registered AEDs of `people`'s organisations, with phones no
 * account has yet; answers how many were made and of which kind.
 */
export async function seedDemoResponders(tx: DbOrTx, ctx: AppContext, people: DemoPeople) {
  const rng = seededRng(20261127)
  const now = ctx.clock.now()
  const today = formatDate(now)
  const mix = DEMO_RESPONDERS
  const image = await ctx.storage.put('demo/responder-certificate.png', certificatePhoto(), 'image/png')
  const aeds = await many<{ agency_id: number; lat: number; lon: number; address_code: string }>(
    tx,
    sql`SELECT agency_id, lat, lon, address_code FROM installations
        WHERE removed_at IS NULL AND lat IS NOT NULL ORDER BY id`,
  )
  const keyOf = new Map([...people.agencies].map(([key, id]) => [id, key]))

  // One account per phone: none of the demo sign-ins' phones again.
  const taken = await many<{ phone: string }>(tx, sql`SELECT phone FROM accounts`)
  const phones = new Set(taken.map((a) => a.phone))
  const phone = () => {
    for (;;) {
      const p = rng.pick(MOBILE_PREFIXES) + String(rng.int(0, 99_999_999)).padStart(8, '0')
      if (phones.has(p)) continue
      phones.add(p)
      return p
    }
  }

  // Who is what: professionals by chance, then exact numbers of each certificate band among
  // them and of paused responders among all, so the demo always shows each state.
  const n = aeds.length * mix.perDevice
  const professional = Array.from({ length: n }, () => rng.chance(mix.professional))
  const bands: [count: number, days: [number, number]][] = [
    [mix.expired, [-365, -1]],
    [mix.within7, [1, 7]],
    [mix.within30, [8, 30]],
    [Number.POSITIVE_INFINITY, [31, 1095]],
  ]
  /** Days from today of the k-th professional's expiry, in the shuffled order. */
  const bandAt = (k: number) => {
    for (const [count, days] of bands) {
      if (k < count) return days
      k -= count
    }
    throw new Error('unreachable')
  }
  const professionals = shuffled(
    rng,
    professional.flatMap((p, i) => (p ? [i] : [])),
  )
  const band = new Map(professionals.map((i, k) => [i, bandAt(k)]))
  const paused = new Set(shuffled(rng, [...Array(n).keys()]).slice(0, mix.paused))

  let certificates = 0
  const plans = Array.from({ length: n }, (_, i) => {
    const aed = aeds[Math.floor(i / mix.perDevice)]
    const managers = people.managers.get(keyOf.get(aed.agency_id) ?? '') ?? []
    if (managers.length === 0) throw new Error(`demo seed: organisation ${aed.agency_id} has no manager`)
    const creator = rng.pick(managers)
    const gender = rng.chance(0.55) ? 1 : 2
    const created = new Date(now.getTime() - rng.int(1, 700) * DAY - rng.int(0, 86_399) * 1000)
    const pausedAt = paused.has(i)
      ? new Date(
          Math.max(created.getTime(), now.getTime() - rng.int(0, 60) * DAY - rng.int(0, 86_399) * 1000),
        )
      : null
    const days = band.get(i)
    const expire = days ? plusDays(today, rng.int(...days)) : null
    const point = near(rng, aed.lat, aed.lon, mix.radiusM)
    return {
      account: {
        phone: phone(),
        name: chineseName(rng, gender),
        email: rng.chance(0.35) ? `${rng.int(100_000_000, 2_999_999_999)}@qq.com` : null,
        gender,
        birth: `${rng.int(1960, 2004)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
        nationality: 'CN',
        location: `${regionFullName(aed.address_code) ?? ''}${rng.pick(COMPOUNDS)}`,
        location_desc: `${rng.int(1, 30)}幢${rng.int(1, 4)}单元${rng.int(1, 28)}0${rng.int(1, 4)}室`,
        address_code: aed.address_code,
        ...point,
        creator: creator.id,
        create_time: created,
        updator: creator.id,
        update_time: created,
      },
      responder: {
        agency_id: aed.agency_id,
        aid_aptitude: expire ? 1 : 0,
        // Three-year certificates, numbered by issue year and district.
        certificate_num: expire
          ? `JH${Number(expire.slice(0, 4)) - 3}${aed.address_code}${String(++certificates).padStart(4, '0')}`
          : null,
        certificate_expire: expire,
        certificate_img: expire ? image.url : null,
        status: rng.chance(expire ? 0.7 : 0.3) ? 1 : 0,
        paused: pausedAt !== null,
        pause_reason: pausedAt ? rng.pick(PAUSE_REASONS) : null,
        paused_at: pausedAt,
        creator: creator.id,
        create_time: created,
        updator: creator.id,
        update_time: pausedAt ?? created,
      },
      creator,
    }
  })

  const accounts = await insertRows<{ id: number; phone: string }>(
    tx,
    'accounts',
    {
      phone: 'text',
      name: 'text',
      email: 'text',
      gender: 'smallint',
      birth: 'date',
      nationality: 'text',
      location: 'text',
      location_desc: 'text',
      address_code: 'text',
      lat: 'float8',
      lon: 'float8',
      creator: 'bigint',
      create_time: 'timestamptz',
      updator: 'bigint',
      update_time: 'timestamptz',
    },
    plans.map((p) => p.account),
    sql`RETURNING id, phone`,
  )
  const accountOf = new Map(accounts.map((a) => [a.phone, a.id]))
  const registered = await insertRows<{ id: number; account_id: number }>(
    tx,
    'responders',
    {
      account_id: 'bigint',
      agency_id: 'bigint',
      aid_aptitude: 'smallint',
      certificate_num: 'text',
      certificate_expire: 'date',
      certificate_img: 'text',
      status: 'smallint',
      paused: 'boolean',
      pause_reason: 'text',
      paused_at: 'timestamptz',
      creator: 'bigint',
      create_time: 'timestamptz',
      updator: 'bigint',
      update_time: 'timestamptz',
    },
    plans.map((p) => ({ ...p.responder, account_id: accountOf.get(p.account.phone)! })),
    sql`RETURNING id, account_id`,
  )
  const responderOf = new Map(registered.map((r) => [r.account_id, r.id]))

  // Their history: registered by an administrator of the organisation, and the pauses.
  const changes = plans.flatMap((p) => {
    const line = {
      responder_id: responderOf.get(accountOf.get(p.account.phone)!)!,
      operator_id: p.creator.id,
    }
    return [
      {
        ...line,
        kind: 'created',
        detail: { aid_aptitude: p.responder.aid_aptitude },
        operator: p.creator.name,
        create_time: p.responder.create_time,
      },
      ...(p.responder.paused_at
        ? [
            {
              ...line,
              kind: 'paused',
              detail: { reason: p.responder.pause_reason },
              operator: p.creator.name,
              create_time: p.responder.paused_at,
            },
          ]
        : []),
    ]
  })
  await insertRows(
    tx,
    'responder_changes',
    {
      responder_id: 'bigint',
      kind: 'text',
      detail: 'jsonb',
      operator_id: 'bigint',
      operator: 'text',
      create_time: 'timestamptz',
    },
    changes,
  )
  return {
    responders: registered.length,
    professional: professional.filter(Boolean).length,
    paused: paused.size,
    changes: changes.length,
  }
}
