import type { CabinetListQuery } from '@aed/contracts/cabinet'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import type { cabinetBinds, cabinetRecords as cabinetRecordsTable, cabinets } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, many, one, type PageRequest, pageOf } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'

type Cabinet = typeof cabinets.$inferSelect

/** A live cabinet with its organisation, bound AED and online state. */
export type CabinetRow = Pick<
  Cabinet,
  | 'id'
  | 'cabinet_sn'
  | 'agency_id'
  | 'device_id'
  | 'door_status'
  | 'battery_power'
  | 'fw_version'
  | 'lat'
  | 'lon'
  | 'altitude'
  | 'location'
  | 'aed_present'
  | 'data_upload_time'
  | 'create_time'
> & {
  agency_name: string
  index_link: string
  device_sn: string | null
  /** null: never reported (no cabinet_states row). */
  offline: boolean | null
  creator_name: string | null
}

const listOf = (values: (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )

const cabinetFrom = sql`FROM cabinets c
  JOIN agencies g ON g.id = c.agency_id
  LEFT JOIN devices d ON d.id = c.device_id`
const cabinetSelect = sql`
  SELECT c.id, c.cabinet_sn, c.agency_id, g.name AS agency_name, g.index_link, c.device_id,
         d.device_sn, c.door_status, c.battery_power, c.fw_version, c.lat, c.lon, c.altitude, c.location,
         c.aed_present, c.data_upload_time, s.offline, c.create_time, ca.name AS creator_name
  ${cabinetFrom}
  LEFT JOIN cabinet_states s ON s.cabinet_id = c.id
  LEFT JOIN members cm ON cm.id = c.creator
  LEFT JOIN accounts ca ON ca.id = cm.account_id`
const live = (scope: Scope) => [sql`c.deleted_at IS NULL`, pathInScope(scope, sql`g.index_link`)]

/** One page of the scope's cabinets, newest first. */
export function listCabinets(db: DbOrTx, scope: Scope, q: CabinetListQuery) {
  const where: SQL[] = live(scope)
  if (q.cabinet_sn) where.push(sql`c.cabinet_sn ILIKE ${containsPattern(q.cabinet_sn)}`)
  if (q.device_sn) where.push(sql`d.device_sn ILIKE ${containsPattern(q.device_sn)}`)
  if (q.door_status !== undefined) where.push(sql`c.door_status = ${q.door_status}`)
  if (q.bind_status !== undefined)
    where.push(q.bind_status ? sql`c.device_id IS NOT NULL` : sql`c.device_id IS NULL`)
  if (q.agency_id !== undefined)
    where.push(
      sql`g.index_link LIKE (SELECT a.index_link FROM agencies a WHERE a.id = ${q.agency_id}) || '%'`,
    )
  return pageOf<CabinetRow>(db, {
    select: cabinetSelect,
    from: cabinetFrom,
    where,
    orderBy: orderTerms(
      q.order_by,
      {
        cabinet_sn: sql`c.cabinet_sn`,
        battery_power: sql`c.battery_power`,
        data_upload_time: sql`c.data_upload_time`,
        create_time: sql`c.create_time`,
      },
      [sql`c.create_time DESC`, sql`c.id DESC`],
    ),
    page: q.page,
    page_size: q.page_size,
  })
}

/** A live cabinet of the scope; `lock` takes the row for a change. */
export function findCabinet(db: DbOrTx, scope: Scope, id: number, lock = false) {
  return one<CabinetRow>(
    db,
    sql`${cabinetSelect} WHERE ${sql.join(live(scope), sql` AND `)} AND c.id = ${id}
        ${lock ? sql`FOR UPDATE OF c` : sql``}`,
  )
}

/** Live cabinets of the scope whose `column` is one of `values`, locked for a change. */
function lockedLive(db: DbOrTx, scope: Scope, column: SQL, values: (number | string)[]) {
  if (values.length === 0) return Promise.resolve([] as CabinetRow[])
  return many<CabinetRow>(
    db,
    sql`${cabinetSelect} WHERE ${sql.join(live(scope), sql` AND `)} AND ${column} IN (${listOf(values)})
        FOR UPDATE OF c`,
  )
}

/** Live cabinets of the scope by id, locked for a change. */
export const cabinetsByIds = (db: DbOrTx, scope: Scope, ids: number[]) =>
  lockedLive(db, scope, sql`c.id`, ids)

/** Live cabinets of the scope by number, locked for a change. */
export const cabinetsBySerials = (db: DbOrTx, scope: Scope, serials: string[]) =>
  lockedLive(db, scope, sql`c.cabinet_sn`, serials)

/** An AED a cabinet may hold: live, and its organisation or its installation's in the scope. */
export type BindableDevice = {
  id: number
  device_sn: string
  /** The live cabinet it is bound to, if any. */
  cabinet_id: number | null
  cabinet_sn: string | null
}

/** Devices of the scope with these serials (factory stock or registered), with the cabinet holding each. */
export function bindableDevices(db: DbOrTx, scope: Scope, serials: string[]) {
  if (serials.length === 0) return Promise.resolve([] as BindableDevice[])
  return many<BindableDevice>(
    db,
    sql`
    SELECT d.id, d.device_sn, bc.id AS cabinet_id, bc.cabinet_sn
    FROM devices d
    JOIN agencies g ON g.id = d.agency_id
    LEFT JOIN installations i ON i.id = d.installation_id
    LEFT JOIN agencies ig ON ig.id = i.agency_id
    LEFT JOIN cabinets bc ON bc.device_id = d.id AND bc.deleted_at IS NULL
    WHERE d.deleted_at IS NULL AND d.device_sn IN (${listOf(serials)})
      AND (${pathInScope(scope, sql`g.index_link`)} OR ${pathInScope(scope, sql`ig.index_link`)})
    FOR UPDATE OF d`,
  )
}

export type NewCabinet = Pick<Cabinet, 'cabinet_sn' | 'agency_id' | 'secret_enc' | 'device_id'> & {
  creator: number
}

/** Inserts cabinets; answers their ids in order. */
export async function insertCabinets(db: DbOrTx, rows: NewCabinet[]) {
  if (rows.length === 0) return []
  const values = sql.join(
    rows.map((r) => sql`(${r.cabinet_sn}, ${r.agency_id}, ${r.secret_enc}, ${r.device_id}, ${r.creator})`),
    sql`, `,
  )
  const out = await many<{ id: number }>(
    db,
    sql`INSERT INTO cabinets (cabinet_sn, agency_id, secret_enc, device_id, creator)
        VALUES ${values} RETURNING id`,
  )
  return out.map((r) => r.id)
}

/** Changes who owns cabinets and what they hold. */
export async function updateCabinets(
  db: DbOrTx,
  ids: number[],
  values: { agency_id?: number; device_id?: number | null; deleted_at?: Date },
) {
  if (ids.length === 0) return
  const sets: SQL[] = [sql`update_time = now()`]
  if (values.agency_id !== undefined) sets.push(sql`agency_id = ${values.agency_id}`)
  if (values.device_id !== undefined) sets.push(sql`device_id = ${values.device_id}`)
  if (values.deleted_at) sets.push(sql`deleted_at = ${values.deleted_at.toISOString()}::timestamptz`)
  await db.execute(sql`UPDATE cabinets SET ${sql.join(sets, sql`, `)} WHERE id IN (${listOf(ids)})`)
}

/** A cabinet's secrets (credential endpoints). */
export function cabinetSecrets(db: DbOrTx, id: number) {
  return one<
    Pick<Cabinet, 'id' | 'cabinet_sn' | 'agency_id' | 'secret_enc' | 'prev_secret_enc' | 'prev_secret_until'>
  >(
    db,
    sql`SELECT id, cabinet_sn, agency_id, secret_enc, prev_secret_enc, prev_secret_until
        FROM cabinets WHERE id = ${id} AND deleted_at IS NULL`,
  )
}

export async function rotateSecret(db: DbOrTx, id: number, secretEnc: string, prevEnc: string, until: Date) {
  await db.execute(
    sql`UPDATE cabinets SET secret_enc = ${secretEnc}, prev_secret_enc = ${prevEnc},
          prev_secret_until = ${until.toISOString()}::timestamptz, update_time = now()
        WHERE id = ${id}`,
  )
}

type Bind = typeof cabinetBinds.$inferSelect

export type NewBind = Pick<
  Bind,
  'cabinet_id' | 'device_id' | 'device_sn' | 'device_model' | 'agency_id' | 'agency_name' | 'operator'
> & { action: 1 | 2 | 3; operator_id: number }

/** Writes bind records (assignment 1, bind 2, unbind 3). */
export async function insertBinds(db: DbOrTx, rows: NewBind[], at: Date) {
  if (rows.length === 0) return
  const values = sql.join(
    rows.map(
      (r) => sql`(${r.cabinet_id}, ${r.action}, ${r.device_id}, ${r.device_sn}, ${r.device_model},
        ${r.agency_id}, ${r.agency_name}, ${r.operator_id}, ${r.operator}, ${at.toISOString()}::timestamptz)`,
    ),
    sql`, `,
  )
  await db.execute(
    sql`INSERT INTO cabinet_binds (cabinet_id, action, device_id, device_sn, device_model, agency_id,
          agency_name, operator_id, operator, operate_time) VALUES ${values}`,
  )
}

export type BindRow = Pick<
  Bind,
  'id' | 'action' | 'device_sn' | 'device_model' | 'agency_name' | 'operator' | 'operate_time'
>

/** A cabinet's bind records, newest first. */
export function bindRecords(db: DbOrTx, cabinetId: number, p: PageRequest) {
  return pageOf<BindRow>(db, {
    select: sql`SELECT id, action, device_sn, device_model, agency_name, operator, operate_time FROM cabinet_binds`,
    from: sql`FROM cabinet_binds`,
    where: [sql`cabinet_id = ${cabinetId}`],
    orderBy: [sql`operate_time DESC`, sql`id DESC`],
    page: p.page,
    page_size: p.page_size,
  })
}

/** The latest bind record of a cabinet (the detail's operator_info). */
export function lastBind(db: DbOrTx, cabinetId: number) {
  return one<BindRow>(
    db,
    sql`SELECT id, action, device_sn, device_model, agency_name, operator, operate_time FROM cabinet_binds
        WHERE cabinet_id = ${cabinetId} ORDER BY operate_time DESC, id DESC LIMIT 1`,
  )
}

export type RecordRow = Pick<
  typeof cabinetRecordsTable.$inferSelect,
  | 'id'
  | 'update_time'
  | 'upload_data_type'
  | 'device_sn'
  | 'device_model'
  | 'door_status'
  | 'battery_power'
  | 'fw_version'
  | 'lat'
  | 'lon'
  | 'location'
  | 'altitude'
  | 'aed_present'
>

/** A cabinet's self-check records, newest first. */
export function cabinetRecords(db: DbOrTx, cabinetId: number, p: PageRequest) {
  return pageOf<RecordRow>(db, {
    select: sql`SELECT id, update_time, upload_data_type, device_sn, device_model, door_status, battery_power,
                       fw_version, lat, lon, location, altitude, aed_present FROM cabinet_records`,
    from: sql`FROM cabinet_records`,
    where: [sql`cabinet_id = ${cabinetId}`],
    orderBy: [sql`update_time DESC`, sql`id DESC`],
    page: p.page,
    page_size: p.page_size,
  })
}
