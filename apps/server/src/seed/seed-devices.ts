import { sql } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import type { DbOrTx } from '../db/client.ts'
import { many } from '../db/sql.ts'
import { seededRng } from '../lib/random.ts'
import { formatDate } from '../lib/time.ts'
import { createFactoryDevices } from '../modules/device/device.service.ts'
import {
  BATTERY,
  BATTERY_MIX,
  checkBands,
  EXPIRY_DAYS,
  EXPIRY_MIX,
  FIRMWARE,
  HOST_DAYS,
  MODEL_CODES,
} from './device-mix.ts'
import { seedChangesAndInspections } from './device-records.ts'
import { closeUpPhoto, farViewPhoto } from './photos.ts'
import { CITIES, CONTACTS, HOURS, OPENING, type Place, SPOTS } from './places.ts'
import { insertRows, recordset } from './rows.ts'

// The demo network's devices: about 300 AEDs registered at real places of the demo
// organisations' cities (GCJ-02, the district's code), looked after by the organisations' own
// administrators, in every opening state, expiry band and battery band, with a spread of
// statuses (mostly normal), photos, a year of inspections and changes; and 60 devices of factory
// stock. Deterministic: one seeded generator, dates relative to the day of seeding.

const DAY = 86_400_000

/** Demo organisations by key, and their members who may look after devices (not general users). */
export type DemoPeople = {
  agencies: Map<string, number>
  /** Members of each organisation with role_type 0 or 1: id and name. */
  managers: Map<string, { id: number; name: string }[]>
}

const iso = (d: Date) => formatDate(d)

/**
 * Seeds the demo devices into the organisations of `people`: the factory devices with their own
 * sealed secrets (the device service's createFactoryDevices), the installations, their change
 * records and inspections, and the two photos in storage. Answers how many were made.
 */
export async function seedDemoDevices(tx: DbOrTx, ctx: AppContext, people: DemoPeople) {
  checkBands()
  const rng = seededRng(20261122)
  const now = ctx.clock.now()
  const daysFrom = (days: number, at = now) => new Date(at.getTime() + days * DAY)
  const [near, far] = await Promise.all([
    ctx.storage.put('demo/aed-cabinet-near.png', closeUpPhoto(), 'image/png'),
    ctx.storage.put('demo/aed-cabinet-far.png', farViewPhoto(), 'image/png'),
  ])

  type Installation = {
    agency: string
    place: Place
    registered: Date
    made: Date
    manager: { id: number; name: string }
    sn: string
  }
  const installations: Installation[] = []
  const stock: { agency: string; sn: string; made: Date }[] = []
  let serial = 0
  const nextSerial = () => {
    serial++
    const code = rng.weighted(MODEL_CODES)
    return `M${code}${String(24 + (serial % 3))}${String(1000 + serial * 37).padStart(5, '0')}`
  }
  for (const city of CITIES) {
    const managers = people.managers.get(city.agency) ?? []
    if (managers.length === 0) throw new Error(`demo seed: ${city.agency} has no manager`)
    for (let i = 0; i < city.count; i++) {
      // Installed over two years, more of them recently: some in the last week, month, quarter.
      const age = rng.weighted([
        [rng.int(0, 6), 5],
        [rng.int(7, 29), 10],
        [rng.int(30, 89), 15],
        [rng.int(90, 720), 70],
      ] as const)
      const registered = daysFrom(-age - rng.next())
      installations.push({
        agency: city.agency,
        place: city.places[i % city.places.length],
        registered,
        made: daysFrom(-rng.int(10, 200), registered),
        manager: managers[i % managers.length],
        sn: nextSerial(),
      })
    }
    for (let i = 0; i < city.stock; i++) {
      stock.push({ agency: city.agency, sn: nextSerial(), made: daysFrom(-rng.int(1, 300)) })
    }
  }

  // Every device made, with its own secret.
  const ids = await createFactoryDevices(
    tx,
    ctx,
    null,
    [...installations, ...stock].map((d) => ({
      device_sn: d.sn,
      fw_version: rng.pick(FIRMWARE),
      agency_id: people.agencies.get(d.agency)!,
    })),
  )
  const installationIds = ids.slice(0, installations.length)
  const stockIds = ids.slice(installations.length)

  // The installations, their register codes from the service's sequence; status and battery as
  // the devices last reported them: mostly normal; offline, fault and offset by chance; a warning
  // where the battery runs low or a consumable has expired. A few installations hide their abnormal state.
  const codes = await many<{ n: number }>(
    tx,
    sql`SELECT nextval('installation_code_seq') AS n FROM generate_series(1, ${installations.length})`,
  )
  const today = iso(now)
  const inBand = (days: [number, number]) => iso(daysFrom(rng.int(days[0], days[1])))
  let abnormal = 0
  const rows = installations.map((s, i) => {
    const open_state = rng.weighted(OPENING[s.place.kind])
    const hours = open_state === 1 ? rng.pick(HOURS) : { open_day: [], open_time_period: [] }
    const jitter = () => (rng.next() - 0.5) * 0.004
    const battery_expire = inBand(EXPIRY_DAYS[rng.weighted(EXPIRY_MIX)])
    const electrode_sheet_expire = inBand(EXPIRY_DAYS[rng.weighted(EXPIRY_MIX)])
    const band = rng.weighted(BATTERY_MIX)
    const battery = band === null ? null : rng.int(...BATTERY[band])
    const roll = rng.next()
    const expired = battery_expire < today || electrode_sheet_expire < today
    const status =
      roll < 0.07
        ? 4
        : roll < 0.11
          ? 2
          : roll < 0.14
            ? 3
            : (battery !== null && battery <= 9) || (expired && rng.next() < 0.5)
              ? 1
              : 0
    const hidden = status !== 0 && abnormal++ % 9 === 4
    return {
      device: { id: installationIds[i], status, battery, made: s.made },
      installation: {
        register_code: `R${iso(s.registered).replaceAll('-', '')}${String(codes[i].n).padStart(6, '0')}`,
        device_id: installationIds[i],
        agency_id: people.agencies.get(s.agency)!,
        location: `${s.place.address} ${s.place.name}`,
        location_desc: rng.pick(SPOTS[s.place.kind]),
        address_code: s.place.code,
        lat: Number((s.place.lat + jitter()).toFixed(6)),
        lon: Number((s.place.lon + jitter()).toFixed(6)),
        device_manager_id: s.manager.id,
        contact: rng.pick(CONTACTS),
        contact_phone: `139${String(rng.int(0, 99_999_999)).padStart(8, '0')}`,
        open_state,
        ...hours,
        xcx_display: rng.next() < 0.92 ? 1 : 0,
        disable_abnormal_sms_notify: rng.next() < 0.05 ? 1 : 0,
        disable_abnormal_display: hidden ? 1 : 0,
        chest_shot_img: near.url,
        long_shot_img: far.url,
        battery_expire,
        electrode_sheet_expire,
        host_expire: inBand(HOST_DAYS[rng.weighted(EXPIRY_MIX)]),
        safety_radius: rng.weighted([
          [null, 8],
          [200, 1],
          [500, 1],
        ] as const),
        registrant: s.manager.id,
        register_time: s.registered,
        updator: s.manager.id,
        update_time: s.registered,
      },
    }
  })
  const installed = await insertRows<{ id: number; device_id: number }>(
    tx,
    'installations',
    {
      register_code: 'text',
      device_id: 'bigint',
      agency_id: 'bigint',
      location: 'text',
      location_desc: 'text',
      address_code: 'text',
      lat: 'float8',
      lon: 'float8',
      device_manager_id: 'bigint',
      contact: 'text',
      contact_phone: 'text',
      open_state: 'smallint',
      open_day: 'smallint[]',
      open_time_period: 'jsonb',
      xcx_display: 'smallint',
      disable_abnormal_sms_notify: 'smallint',
      disable_abnormal_display: 'smallint',
      chest_shot_img: 'text',
      long_shot_img: 'text',
      battery_expire: 'date',
      electrode_sheet_expire: 'date',
      host_expire: 'date',
      safety_radius: 'integer',
      registrant: 'bigint',
      register_time: 'timestamptz',
      updator: 'bigint',
      update_time: 'timestamptz',
    },
    rows.map((r) => r.installation),
    sql`RETURNING id, device_id`,
  )
  const installationOf = new Map(installed.map((r) => [r.device_id, r.id]))
  const reported = [
    ...rows.map((r) => ({ ...r.device, installation_id: installationOf.get(r.device.id)! })),
    ...stock.map((s, i) => ({
      id: stockIds[i],
      status: 0,
      battery: null,
      made: s.made,
      installation_id: null,
    })),
  ]
  await tx.execute(sql`
    UPDATE devices d SET installation_id = x.installation_id, status = x.status, battery = x.battery,
                         create_time = x.made, update_time = x.made
    FROM ${recordset(reported, { id: 'bigint', installation_id: 'bigint', status: 'smallint', battery: 'smallint', made: 'timestamptz' })}
    WHERE d.id = x.id`)

  const records = await seedChangesAndInspections(
    tx,
    rng,
    now,
    installations.map((s, i) => ({
      installation: { id: installationOf.get(installationIds[i])!, device_id: installationIds[i] },
      agencyId: people.agencies.get(s.agency)!,
      registered: s.registered,
      manager: s.manager,
    })),
    stock,
  )
  return {
    registered: installations.length,
    stock: stock.length,
    changes: records.changes,
    inspections: records.inspections,
  }
}
