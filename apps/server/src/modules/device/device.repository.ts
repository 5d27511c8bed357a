import type { DeviceListQuery } from '@aed/contracts/device'
import { regionPrefix } from '@aed/contracts/regions'
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { devices, installationChanges, installations } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, insertOne, many, one, pageOf, paginate, updateOne } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'
import { betweenDates } from '../../lib/time.ts'

/** A registered device: the device, its installation, organisation and manager. */
export type DeviceRow = {
  id: number
  device_sn: string
  model: string
  fw_version: string | null
  status: number
  battery: number | null
  /** Would it work now (the engine's readiness), why not, its last passed self-test and last report. */
  readiness: 'ready' | 'not_ready' | 'unknown'
  readiness_reasons: string[]
  last_pass_at: Date | null
  last_seen_at: Date | null
  /** What the gateway last heard: signal (dBm), how the last fix was made, the cable's voltage (volts). */
  rssi: number | null
  positioning_type: string | null
  cable_voltage: number | null
  installation_id: number
  register_code: string
  agency_id: number
  agency_name: string
  index_link: string
  location: string
  location_desc: string | null
  address_code: string | null
  lat: number
  lon: number
  device_manager_id: number | null
  manager_name: string | null
  manager_phone: string | null
  contact: string | null
  contact_phone: string | null
  open_state: number
  open_day: number[]
  open_time_period: [string, string][]
  xcx_display: number
  disable_abnormal_sms_notify: number
  disable_abnormal_display: number
  chest_shot_img: string
  long_shot_img: string
  battery_expire: string
  electrode_sheet_expire: string
  host_expire: string
  safety_radius: number | null
  register_time: Date
  registrant_name: string | null
}

/** A device of the factory list. */
export type FactoryRow = {
  id: number
  device_sn: string
  model: string
  fw_version: string | null
  agency_id: number
  agency_name: string
  index_link: string
  create_time: Date
  installation_id: number | null
}

const registeredFrom = sql`FROM devices d
  JOIN installations i ON i.id = d.installation_id
  JOIN agencies g ON g.id = i.agency_id`
/** The latest cable voltage as the list and the export show it: volts to two places (kept to the millivolt). */
export const cableVoltageShown = sql`round(st.cable_voltage::numeric, 2)::float8`
const registeredSelect = sql`
  SELECT d.id, d.device_sn, d.model, d.fw_version, d.status, d.battery, d.readiness, d.readiness_reasons,
         d.last_pass_at, st.last_seen_at, st.rssi, st.positioning_type,
         ${cableVoltageShown} AS cable_voltage, i.id AS installation_id,
         i.register_code, i.agency_id, g.name AS agency_name, g.index_link, i.location, i.location_desc,
         i.address_code, i.lat, i.lon, i.device_manager_id, ma.name AS manager_name, ma.phone AS manager_phone,
         i.contact, i.contact_phone, i.open_state, i.open_day, i.open_time_period, i.xcx_display,
         i.disable_abnormal_sms_notify, i.disable_abnormal_display, i.chest_shot_img, i.long_shot_img,
         i.battery_expire, i.electrode_sheet_expire, i.host_expire, i.safety_radius, i.register_time,
         ra.name AS registrant_name
  ${registeredFrom}
  LEFT JOIN members mm ON mm.id = i.device_manager_id LEFT JOIN accounts ma ON ma.id = mm.account_id
  LEFT JOIN device_states st ON st.device_id = d.id
  LEFT JOIN members rm ON rm.id = i.registrant LEFT JOIN accounts ra ON ra.id = rm.account_id`

/**
 * The status a list shows: normal when the installation hides abnormal states. From the installation's
 * copy of its device's status (migration 0011: triggers keep it equal to d.status), so the list's
 * filters and order need no device row.
 */
const shownStatus = sql`CASE WHEN i.disable_abnormal_display = 1 THEN 0 ELSE i.device_status END`

/** Months from today to a date column, as the expiry bands count them. */
const monthsLeft = (column: SQL) => sql`(${column} - current_date) / 30.4375`

/** A band of the data dictionary (min < v <= max) as SQL over `value`. */
function inBand(value: SQL, band: { min?: number; max?: number }): SQL {
  const parts: SQL[] = []
  if (band.min !== undefined) parts.push(sql`${value} > ${band.min}`)
  if (band.max !== undefined) parts.push(sql`${value} <= ${band.max}`)
  return parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`
}

/**
 * The list's filters in two parts: those on the device row (`d`: serial, model) and those on its
 * installation and organisation (`i`, `g`), status and battery included: the installation holds
 * a copy of its device's (migration 0011, kept by triggers), and `i.device_status IS NOT NULL`
 * says a live device sits in it. `i.removed_at IS NULL AND i.device_id IS NOT NULL` holds for
 * every registered device's installation (installing sets both sides, uninstalling clears both in
 * one transaction). Stating all three lets the partial installation indexes of migration 0011
 * serve the list without reading a device.
 */
function registeredFilters(
  scope: Scope,
  f: DeviceListQuery,
  bands: { battery: Band[]; expiry: Band[]; host: Band[] },
  today: Date,
): { device: SQL[]; installation: SQL[] } {
  const device: SQL[] = []
  // The scope first (the only condition on `g`): listRegistered's count relies on it.
  const installation: SQL[] = [
    pathInScope(scope, sql`g.index_link`),
    sql`i.removed_at IS NULL`,
    sql`i.device_id IS NOT NULL`,
    sql`i.device_status IS NOT NULL`,
  ]
  if (f.device_sn) device.push(sql`d.device_sn ILIKE ${containsPattern(f.device_sn)}`)
  if (f.model) device.push(sql`d.model = ${f.model}`)
  if (f.status !== undefined) installation.push(sql`${shownStatus} = ${f.status}`)
  if (f.address_code) installation.push(sql`i.address_code LIKE ${`${regionPrefix(f.address_code)}%`}`)
  if (f.agency_id !== undefined) installation.push(sql`i.agency_id = ${f.agency_id}`)
  if (f.manager_id !== undefined) installation.push(sql`i.device_manager_id = ${f.manager_id}`)
  if (f.install_days !== undefined) {
    installation.push(sql`i.register_time >= ${new Date(today.getTime() - f.install_days * 86_400_000)}`)
  }
  const range = betweenDates(sql`i.register_time`, f.start_time, f.end_time)
  if (range) installation.push(range)
  const band = (to: SQL[], list: Band[], v: number | undefined, value: SQL) => {
    const b = v === undefined ? undefined : list.find((x) => x.value === v)
    if (b) to.push(inBand(value, b))
  }
  band(installation, bands.battery, f.battery_state, sql`i.device_battery`)
  band(installation, bands.expiry, f.battery_expire_state, monthsLeft(sql`i.battery_expire`))
  band(installation, bands.expiry, f.electrode_sheet_expire_state, monthsLeft(sql`i.electrode_sheet_expire`))
  band(installation, bands.host, f.host_expire_state, monthsLeft(sql`i.host_expire`))
  return { device, installation }
}

/** Filters shared by the list and its export. */
export function registeredWhere(
  scope: Scope,
  f: DeviceListQuery,
  bands: { battery: Band[]; expiry: Band[]; host: Band[] },
  today: Date,
): SQL[] {
  const { device, installation } = registeredFilters(scope, f, bands, today)
  return [sql`d.deleted_at IS NULL`, ...installation, ...device]
}

export type Band = { value: number | null; min?: number; max?: number }

const registeredOrder = (orderBy: string | undefined) =>
  orderTerms(
    orderBy,
    {
      device_sn: sql`d.device_sn`,
      status: shownStatus,
      battery: sql`i.device_battery`,
      register_time: sql`i.register_time`,
      battery_expire: sql`i.battery_expire`,
      electrode_sheet_expire: sql`i.electrode_sheet_expire`,
      host_expire: sql`i.host_expire`,
    },
    // i.device_id is the device's id (d.id) for every registered device.
    [sql`i.register_time DESC`, sql`i.device_id DESC`],
  )

/**
 * One page of the registered devices in the scope, filtered in the database. Without a filter on
 * the device row (serial, model) the page's installations and the total come from the
 * installations alone (migration 0011's indexes, index-only); the total is counted per
 * organisation in index order, then summed over the scope's organisations: no join of 100,000
 * devices. With no filter at all the total is the sum of the scope's organisations' counts
 * (registered_device_counts, kept by triggers in the same transaction as every change).
 */
export function listRegistered(
  db: DbOrTx,
  scope: Scope,
  f: DeviceListQuery,
  bands: { battery: Band[]; expiry: Band[]; host: Band[] },
  today: Date,
) {
  const { device, installation } = registeredFilters(scope, f, bands, today)
  const where = sql.join([sql`d.deleted_at IS NULL`, ...installation, ...device], sql` AND `)
  // installation[0] is the scope, the next three say "registered": nothing else narrows the list.
  const unfiltered = device.length === 0 && installation.length === 4
  const count = unfiltered
    ? sql`SELECT coalesce(sum(c.n), 0) AS n FROM registered_device_counts c
          JOIN agencies g ON g.id = c.agency_id WHERE ${installation[0]}`
    : device.length
      ? sql`SELECT count(*) AS n ${registeredFrom} WHERE ${where}`
      : sql`SELECT coalesce(sum(c.n), 0) AS n
          FROM (SELECT i.agency_id, count(*) AS n FROM installations i
                WHERE ${sql.join(installation.slice(1), sql` AND `)} GROUP BY i.agency_id) c
          JOIN agencies g ON g.id = c.agency_id WHERE ${installation[0]}`
  const terms = registeredOrder(f.order_by)
  const order = sql.join(terms, sql`, `)
  // Ordered by the device's serial, or filtered on the device row: the page's ids need the join.
  const needsDevice = device.length > 0 || /^-?device_sn$/.test(f.order_by ?? '')
  const pageIds = (limit: number, offset: number) =>
    needsDevice
      ? sql`SELECT i.id ${registeredFrom} WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
      : sql`SELECT i.id FROM installations i JOIN agencies g ON g.id = i.agency_id
            WHERE ${sql.join(installation, sql` AND `)} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`
  // The page's installations first, from the indexes alone, then only their rows in full (a
  // second statement, so no planner can turn the ten ids into a join of every device); the order
  // ends with the device id, so sorting the ten rows again gives the same order.
  return paginate<DeviceRow>(
    f,
    async (limit, offset) => {
      const ids = (await many<{ id: number }>(db, pageIds(limit, offset))).map((r) => r.id)
      if (ids.length === 0) return []
      return many<DeviceRow>(
        db,
        sql`${registeredSelect} WHERE i.id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND d.deleted_at IS NULL
            ORDER BY ${order}`,
      )
    },
    async () => Number((await one<{ n: number }>(db, count))?.n ?? 0),
  )
}

/** A registered device of the scope by id. */
export function findRegistered(db: DbOrTx, scope: Scope, id: number) {
  return one<DeviceRow>(
    db,
    sql`${registeredSelect} WHERE d.id = ${id} AND d.deleted_at IS NULL AND ${pathInScope(scope, sql`g.index_link`)}`,
  )
}

const factoryFrom = sql`FROM devices d JOIN agencies g ON g.id = d.agency_id`
const factorySelect = sql`SELECT d.id, d.device_sn, d.model, d.fw_version, d.agency_id, g.name AS agency_name,
                                  g.index_link, d.create_time, d.installation_id ${factoryFrom}`
const listOf = (values: (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )

/** One page of the factory list (every device of the scope's organisations), newest first. */
export function listFactory(db: DbOrTx, scope: Scope, f: DeviceListQuery) {
  const where: SQL[] = [sql`d.deleted_at IS NULL`, pathInScope(scope, sql`g.index_link`)]
  if (f.device_sn) where.push(sql`d.device_sn ILIKE ${containsPattern(f.device_sn)}`)
  if (f.model) where.push(sql`d.model = ${f.model}`)
  if (f.agency_id !== undefined) where.push(sql`d.agency_id = ${f.agency_id}`)
  if (f.is_register !== undefined) {
    where.push(f.is_register ? sql`d.installation_id IS NOT NULL` : sql`d.installation_id IS NULL`)
  }
  return pageOf<FactoryRow>(db, {
    select: factorySelect,
    from: factoryFrom,
    where,
    orderBy: orderTerms(f.order_by, { create_time: sql`d.create_time`, device_sn: sql`d.device_sn` }, [
      sql`d.create_time DESC`,
      sql`d.id DESC`,
    ]),
    page: f.page,
    page_size: f.page_size,
  })
}

/** Devices of the scope's factory list with these serials (live ones only). */
export function factoryBySerials(db: DbOrTx, scope: Scope, serials: string[]) {
  if (serials.length === 0) return Promise.resolve([] as FactoryRow[])
  return many<FactoryRow>(
    db,
    sql`${factorySelect} WHERE d.deleted_at IS NULL AND ${pathInScope(scope, sql`g.index_link`)}
          AND d.device_sn IN (${listOf(serials)})`,
  )
}

/** Factory devices of the scope by id, locked for a change. */
export function factoryByIds(db: DbOrTx, scope: Scope, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([] as FactoryRow[])
  return many<FactoryRow>(
    db,
    sql`${factorySelect} WHERE d.deleted_at IS NULL AND ${pathInScope(scope, sql`g.index_link`)}
          AND d.id IN (${listOf(ids)}) FOR UPDATE OF d`,
  )
}

/** Inserts factory devices; answers their ids in order. */
export async function insertDevices(db: DbOrTx, rows: (typeof devices.$inferInsert)[]) {
  if (rows.length === 0) return []
  const out = await db.insert(devices).values(rows).returning({ id: devices.id })
  return out.map((r) => r.id)
}

export async function updateDevices(db: DbOrTx, ids: number[], values: Partial<typeof devices.$inferInsert>) {
  if (ids.length === 0) return
  await db
    .update(devices)
    .set({ ...values, update_time: new Date() })
    .where(
      sql`${devices.id} IN (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`,
    )
}

/** A live device by id, with its sealed secrets (credential endpoints, gateway). */
export async function deviceSecrets(db: DbOrTx, by: { id: number } | { sn: string }) {
  const [row] = await db
    .select({
      id: devices.id,
      device_sn: devices.device_sn,
      agency_id: devices.agency_id,
      secret_enc: devices.secret_enc,
      prev_secret_enc: devices.prev_secret_enc,
      prev_secret_until: devices.prev_secret_until,
      // Open commands (maybe expired): an HTTPS answer without one need not look for any.
      commands_waiting: sql<boolean>`EXISTS (SELECT 1 FROM device_commands c WHERE c.sender_kind = 'aed'
        AND c.sender_id = "devices"."id" AND c.state IN ('pending', 'sent'))`,
    })
    .from(devices)
    .where(and('id' in by ? eq(devices.id, by.id) : eq(devices.device_sn, by.sn), isNull(devices.deleted_at)))
    .limit(1)
  return row ?? null
}

export const insertInstallation = (db: DbOrTx, values: typeof installations.$inferInsert) =>
  insertOne(db, installations, values)

export const updateInstallation = (
  db: DbOrTx,
  id: number,
  values: Partial<typeof installations.$inferInsert>,
) => updateOne(db, installations, id, values)

export async function insertChange(db: DbOrTx, values: typeof installationChanges.$inferInsert) {
  await db.insert(installationChanges).values(values)
}

/** The change record of an installation of the scope, newest first. */
export function changeRecord(db: DbOrTx, scope: Scope, registerCode: string) {
  return many<{
    update_time: Date
    updator_name: string
    update_field: string
    old_device_sn: string | null
    update_type: number
  }>(
    db,
    sql`SELECT c.update_time, c.updator_name, c.update_field, c.old_device_sn, c.update_type
        FROM installation_changes c JOIN installations i ON i.id = c.installation_id
        JOIN agencies g ON g.id = i.agency_id
        WHERE i.register_code = ${registerCode} AND ${pathInScope(scope, sql`g.index_link`)}
        ORDER BY c.update_time DESC, c.id DESC`,
  )
}

/** A new register code: R + the day (YYYYMMDD) + a sequence number. */
export async function nextRegisterCode(db: DbOrTx, day: string) {
  const row = await one<{ n: number }>(db, sql`SELECT nextval('installation_code_seq') AS n`)
  return `R${day.replaceAll('-', '')}${String(row!.n).padStart(6, '0')}`
}
