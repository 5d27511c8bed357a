import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { one } from '../../db/sql.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'

export async function findFile(db: DbOrTx, device: DeviceIdentity, fileId: string) {
  return one<{ url: string }>(
    db,
    sql`SELECT url FROM device_files WHERE file_id = ${fileId} AND sender_kind = ${device.kind} AND sender_id = ${device.id}`,
  )
}

export async function insertFile(
  db: DbOrTx,
  device: DeviceIdentity,
  f: { fileId: string; kind: string; rescueEventId: string; sha256: string; size: number; url: string },
) {
  await db.execute(sql`
    INSERT INTO device_files (file_id, sender_kind, sender_id, kind, rescue_event_id, sha256, size, url)
    VALUES (${f.fileId}, ${device.kind}, ${device.id}, ${f.kind}, ${f.rescueEventId}, ${f.sha256}, ${f.size}, ${f.url})
    ON CONFLICT (file_id) DO NOTHING`)
}
