import { modelOfSerial } from '@aed/contracts/device'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import type { DbOrTx } from '../db/client.ts'
import { many } from '../db/sql.ts'
import { seededRng } from '../lib/random.ts'
import { newDeviceSecret } from '../lib/sealed.ts'
import { insertRows } from './rows.ts'
import type { DemoPeople } from './seed-devices.ts'

// The demo network's rescue cabinets: 60 across the demo organisations, most holding one of the
// organisation's installed AEDs (at its installation), a few empty ones that report from an installation of the
// organisation, and a few new ones that never reported. Each has its own sealed secret, its
// assignment and bind records, and two days of self-checks. Doors are all closed: an open door
// is an event the engine opens, and the simulator opens them.

const HOUR = 3600_000
const DAY = 24 * HOUR

/** Cabinets per demo organisation. */
export const DEMO_CABINETS: Record<string, number> = {
  hz: 14,
  nj: 9,
  sz: 12,
  xm: 8,
  east: 6,
  south: 6,
  sys: 5,
}
const FIRMWARE = ['C1.0.2', 'C1.1.0', 'C1.2.0']

type Installation = {
  id: number
  device_sn: string
  agency_id: number
  lat: number
  lon: number
  location: string
}

/** Seeds the demo cabinets into the organisations of `people`; answers how many were made and bound. */
export async function seedDemoCabinets(tx: DbOrTx, ctx: AppContext, people: DemoPeople) {
  const rng = seededRng(20261210)
  const now = ctx.clock.now().getTime()
  const installations = await many<Installation>(
    tx,
    sql`SELECT d.id, d.device_sn, i.agency_id, i.lat, i.lon, i.location
        FROM devices d JOIN installations i ON i.id = d.installation_id
        WHERE d.deleted_at IS NULL ORDER BY d.id`,
  )
  const admin = people.managers.get('sys')?.[0]
  if (!admin) throw new Error('demo seed: no system administrator')

  type Plan = {
    sn: string
    agency: string
    installation: Installation | null
    bound: boolean
    reported: boolean
    created: number
  }
  const plans: Plan[] = []
  let n = 0
  for (const [agency, count] of Object.entries(DEMO_CABINETS)) {
    const agencyId = people.agencies.get(agency)
    const own = installations.filter((s) => s.agency_id === agencyId)
    if (own.length < count) throw new Error(`demo seed: ${agency} has too few sites for its cabinets`)
    // Every fifth one is empty, and of those every other one never reported (new from the factory).
    for (let i = 0; i < count; i++) {
      n++
      const empty = i % 5 === 4
      plans.push({
        sn: `CB26${String(100000 + n * 53).padStart(6, '0')}`,
        agency,
        installation: empty && i % 10 === 9 ? null : own[(i * 3) % own.length],
        bound: !empty,
        reported: !(empty && i % 10 === 9),
        created: now - rng.int(20, 300) * DAY,
      })
    }
  }

  const rows = plans.map((p) => ({
    cabinet_sn: p.sn,
    agency_id: people.agencies.get(p.agency)!,
    secret_enc: ctx.sealer.seal(newDeviceSecret()),
    device_id: p.bound && p.installation ? p.installation.id : null,
    door_status: p.reported ? 0 : null,
    battery_power: p.reported
      ? rng.weighted([
          [rng.int(40, 100), 9],
          [rng.int(3, 15), 1],
        ] as const)
      : null,
    fw_version: p.reported ? rng.pick(FIRMWARE) : null,
    lat: p.installation?.lat ?? null,
    lon: p.installation?.lon ?? null,
    altitude: p.installation ? rng.int(5, 60) : null,
    location: p.installation?.location ?? null,
    aed_present: p.reported ? p.bound : null,
    data_upload_time: p.reported ? new Date(now - rng.int(2, 50) * 60_000) : null,
    creator: admin.id,
    create_time: new Date(p.created),
    update_time: new Date(p.created),
  }))
  const made = await insertRows<{ id: number; cabinet_sn: string }>(
    tx,
    'cabinets',
    {
      cabinet_sn: 'text',
      agency_id: 'bigint',
      secret_enc: 'text',
      device_id: 'bigint',
      door_status: 'smallint',
      battery_power: 'smallint',
      fw_version: 'text',
      lat: 'float8',
      lon: 'float8',
      altitude: 'float8',
      location: 'text',
      aed_present: 'boolean',
      data_upload_time: 'timestamptz',
      creator: 'bigint',
      create_time: 'timestamptz',
      update_time: 'timestamptz',
    },
    rows,
    sql`RETURNING id, cabinet_sn`,
  )
  const idOf = new Map(made.map((r) => [r.cabinet_sn, r.id]))
  const agencyNames = new Map(
    (await many<{ id: number; name: string }>(tx, sql`SELECT id, name FROM agencies`)).map((a) => [
      a.id,
      a.name,
    ]),
  )

  // The assignment by the platform, then the organisation's own administrator binding the AED.
  const binds: object[] = []
  const records: object[] = []
  plans.forEach((p, i) => {
    const cabinet_id = idOf.get(p.sn)!
    const agency_id = rows[i].agency_id
    const agency_name = agencyNames.get(agency_id)!
    binds.push({
      cabinet_id,
      action: 1,
      agency_id,
      agency_name,
      operator_id: admin.id,
      operator: admin.name,
      operate_time: new Date(p.created + HOUR),
    })
    if (p.bound && p.installation) {
      const by = people.managers.get(p.agency)?.at(-1) ?? admin
      binds.push({
        cabinet_id,
        action: 2,
        device_id: p.installation.id,
        device_sn: p.installation.device_sn,
        device_model: modelOfSerial(p.installation.device_sn),
        agency_id,
        agency_name,
        operator_id: by.id,
        operator: by.name,
        operate_time: new Date(p.created + DAY + rng.int(0, 8) * HOUR),
      })
    }
    if (!p.reported) return
    // Two days of self-checks every four hours, the battery slowly draining to its level now.
    const row = rows[i]
    for (let k = 12; k >= 0; k--) {
      records.push({
        cabinet_id,
        upload_data_type: 'cabinet_status',
        device_sn: p.bound && p.installation ? p.installation.device_sn : null,
        device_model: p.bound && p.installation ? modelOfSerial(p.installation.device_sn) : null,
        door_status: 0,
        battery_power: Math.min(100, (row.battery_power ?? 0) + Math.floor(k / 4)),
        fw_version: row.fw_version,
        lat: row.lat,
        lon: row.lon,
        location: row.location,
        altitude: row.altitude,
        aed_present: row.aed_present,
        update_time: new Date(row.data_upload_time!.getTime() - k * 4 * HOUR),
      })
    }
  })
  await insertRows(
    tx,
    'cabinet_binds',
    {
      cabinet_id: 'bigint',
      action: 'smallint',
      device_id: 'bigint',
      device_sn: 'text',
      device_model: 'text',
      agency_id: 'bigint',
      agency_name: 'text',
      operator_id: 'bigint',
      operator: 'text',
      operate_time: 'timestamptz',
    },
    binds,
  )
  await insertRows(
    tx,
    'cabinet_records',
    {
      cabinet_id: 'bigint',
      upload_data_type: 'text',
      device_sn: 'text',
      device_model: 'text',
      door_status: 'smallint',
      battery_power: 'smallint',
      fw_version: 'text',
      lat: 'float8',
      lon: 'float8',
      location: 'text',
      altitude: 'float8',
      aed_present: 'boolean',
      update_time: 'timestamptz',
    },
    records,
  )
  return { cabinets: plans.length, bound: plans.filter((p) => p.bound).length, records: records.length }
}
