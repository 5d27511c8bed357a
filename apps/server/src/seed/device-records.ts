import type { DbOrTx } from '../db/client.ts'
import type { deviceInspections, installationChanges } from '../db/schema.ts'
import type { Rng } from '../lib/random.ts'
import { insertRows } from './rows.ts'

// The demo devices' records: each installation's change records (its registration, and over the
// last year routine changes, moves and a few replacements whose old device went back to stock)
// and inspections every month or three.

const DAY = 86_400_000

/** A registered demo device as its records need it. */
export type RecordedInstallation = {
  installation: { id: number; device_id: number }
  agencyId: number
  registered: Date
  manager: { id: number; name: string }
}

/**
 * Writes the change records and inspections of `installations` up to `now`; a replacement names the next
 * serial of `stock`. Answers how many of each were written.
 */
export async function seedChangesAndInspections(
  tx: DbOrTx,
  rng: Rng,
  now: Date,
  installations: RecordedInstallation[],
  stock: { sn: string }[],
) {
  const daysFrom = (days: number) => new Date(now.getTime() + days * DAY)
  const changes: (typeof installationChanges.$inferInsert)[] = []
  const inspections: (typeof deviceInspections.$inferInsert)[] = []
  const since = (at: Date, days: number) => (at.getTime() > now.getTime() - days * DAY ? at : daysFrom(-days))
  let replaced = 0
  for (const s of installations) {
    const inst = s.installation
    const by = { updator: s.manager.id, updator_name: s.manager.name }
    changes.push({
      installation_id: inst.id,
      update_type: 0,
      update_field: '注册设备',
      update_time: s.registered,
      ...by,
    })
    const start = since(s.registered, 365).getTime()
    const span = now.getTime() - start
    if (span < DAY) continue
    const at = () => new Date(start + rng.next() * span)
    if (rng.next() < 0.25) {
      changes.push({
        installation_id: inst.id,
        update_type: 1,
        update_field: rng.pick([
          '电极片有效期',
          '电池有效期',
          '联系人、联系电话',
          '开放状态、开放日、开放时段',
          '近景图片、远景图片',
        ]),
        update_time: at(),
        ...by,
      })
    }
    if (rng.next() < 0.05) {
      changes.push({
        installation_id: inst.id,
        update_type: 2,
        update_field: '详细位置、坐标',
        update_time: at(),
        ...by,
      })
    }
    if (replaced < 8 && rng.next() < 0.06) {
      changes.push({
        installation_id: inst.id,
        update_type: 3,
        update_field: '设备SN',
        old_device_sn: stock[replaced].sn,
        update_time: at(),
        ...by,
      })
      replaced++
    }
    const every = rng.pick([30, 45, 60, 90])
    for (let t = start + rng.int(1, every) * DAY; t < now.getTime(); t += every * DAY) {
      const ok = rng.next() < 0.92
      inspections.push({
        device_id: inst.device_id,
        installation_id: inst.id,
        agency_id: s.agencyId,
        inspect_status: ok ? 1 : 0,
        process_content: ok
          ? '外观完好，自检通过'
          : rng.pick(['电极片已更换', '电池电量低，已联系更换', '箱门锁损坏，已报修']),
        inspector_name: s.manager.name,
        inspect_time: new Date(t),
        creator: s.manager.id,
        create_time: new Date(t),
      })
    }
  }
  await insertRows(
    tx,
    'installation_changes',
    {
      installation_id: 'bigint',
      update_type: 'smallint',
      update_field: 'text',
      old_device_sn: 'text',
      updator: 'bigint',
      updator_name: 'text',
      update_time: 'timestamptz',
    },
    changes,
  )
  await insertRows(
    tx,
    'device_inspections',
    {
      device_id: 'bigint',
      installation_id: 'bigint',
      agency_id: 'bigint',
      inspect_status: 'smallint',
      process_content: 'text',
      inspector_name: 'text',
      inspect_time: 'timestamptz',
      creator: 'bigint',
      create_time: 'timestamptz',
    },
    inspections,
  )
  return { changes: changes.length, inspections: inspections.length }
}
