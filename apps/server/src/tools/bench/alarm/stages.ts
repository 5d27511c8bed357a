import pg from 'pg'
import { percentile } from '../harness/stats.ts'
import type { Rescue } from './types.ts'

/**
 * Where an alarm's time goes, from the server's own stamps: the inbox row's receipt (the handler
 * has the request parsed and its signature checked) and the push's creation (the message drain
 * after the engine's commit). Same machine, same clock. Answers the report's line, p50 / p99 ms.
 */
export async function stages(url: string, rescues: Rescue[]): Promise<string> {
  const q = new pg.Client({ connectionString: url })
  await q.connect()
  try {
    const inbox = new Map(
      // Message ids are unique per device only.
      (
        await q.query<{ sn: string; msg_id: string; at: number }>(
          `SELECT d.device_sn AS sn, i.msg_id, extract(epoch FROM i.received_at) * 1000 AS at
           FROM unnest($1::text[], $2::text[]) AS r (sn, msg_id)
           JOIN devices d ON d.device_sn = r.sn
           JOIN device_inbox i ON i.sender_kind = 'aed' AND i.sender_id = d.id AND i.msg_id = r.msg_id`,
          [rescues.map((r) => r.sn), rescues.map((r) => r.msgId)],
        )
      ).rows.map((r) => [`${r.sn} ${r.msg_id}`, Number(r.at)]),
    )
    const pushes = new Map(
      (
        await q.query<{ id: number; at: number }>(
          'SELECT id::int, extract(epoch FROM create_time) * 1000 AS at FROM live_pushes WHERE id = ANY($1)',
          [rescues.flatMap((r) => (r.pushId === null ? [] : [r.pushId]))],
        )
      ).rows.map((r) => [r.id, Number(r.at)]),
    )
    const receipt: number[] = []
    const toPush: number[] = []
    const toFirst: number[] = []
    const fanOut: number[] = []
    for (const r of rescues) {
      const taken = inbox.get(`${r.sn} ${r.msgId}`)
      const pushed = r.pushId === null ? undefined : pushes.get(r.pushId)
      if (taken === undefined || pushed === undefined || r.got.size === 0) continue
      const times = [...r.got.values()]
      receipt.push(taken - r.sentAt)
      toPush.push(pushed - taken)
      toFirst.push(r.sentAt + Math.min(...times) - pushed)
      fanOut.push(Math.max(...times) - Math.min(...times))
    }
    const line = (xs: number[]) => {
      xs.sort((x, y) => x - y)
      return `${Math.round(percentile(xs, 50))} / ${Math.round(percentile(xs, 99))}`
    }
    return `${receipt.length} rescues: POST to the server's receipt ${line(receipt)}; receipt to the push (engine, commit, message drain) ${line(toPush)}; push to the first console (drain's commit, NOTIFY, hub) ${line(toFirst)}; first to last console ${line(fanOut)}`
  } finally {
    await q.end()
  }
}
