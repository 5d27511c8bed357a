import crypto from 'node:crypto'
import type { Page } from 'playwright-core'

const MESSAGES_PATH = '/device-api/v1/messages'

type Envelope<T> = { code: number; msg: string; data: T }
export type DeviceAnswer = {
  acked: string[]
  duplicates: string[]
  cmds: { cmd_id: string; name: string; args: Record<string, unknown>; expires_at: string }[]
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex')

/** The token the console keeps after signing in (local storage `aed__token`). */
export async function consoleToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => localStorage.getItem('aed__token'))
  const token = raw ? (JSON.parse(raw) as { value: string | null }).value : null
  if (!token) throw new Error('not signed in: no token in local storage')
  return token
}

/** Calls the console API as the signed-in member and returns `data` (code 0 only). */
export async function consoleApi<T>(baseURL: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${baseURL}${path}`, { headers: { Authorization: `JWT ${token}` } })
  const body = (await res.json()) as Envelope<T>
  if (body.code !== 0) throw new Error(`${path}: ${body.code} ${body.msg}`)
  return body.data
}

/**
 * A device as the journey drives it: envelopes numbered in a boot later than any seeded history,
 * POSTed over the signed HTTPS transport (docs/device-protocol.md).
 */
export function deviceLink(baseURL: string, sn: string, secret: string) {
  const boot = Math.floor(Date.now() / 1000)
  let seq = 0
  return {
    async send(type: string, data: Record<string, unknown>): Promise<DeviceAnswer> {
      seq += 1
      const message = { v: 1, id: `e2e-${boot}-${seq}`, seq, boot, ts: Date.now(), type, data }
      const body = JSON.stringify([message])
      const ts = String(Date.now())
      const nonce = crypto.randomBytes(16).toString('hex')
      const sig = crypto
        .createHmac('sha256', secret)
        .update(`POST\n${MESSAGES_PATH}\n${ts}\n${nonce}\n${sha256(body)}`)
        .digest('hex')
      const res = await fetch(`${baseURL}${MESSAGES_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-device-id': sn,
          'x-ts': ts,
          'x-nonce': nonce,
          'x-sig': sig,
        },
        body,
      })
      const answer = (await res.json()) as Envelope<DeviceAnswer>
      if (res.status !== 200 || answer.code !== 0)
        throw new Error(`device ${sn} refused (${res.status}): ${answer.code} ${answer.msg}`)
      if (!answer.data.acked.includes(message.id)) throw new Error(`device ${sn}: ${message.id} not acked`)
      return answer.data
    },
  }
}

/** A listed device's secret (as its credential page shows it) and its link signing with it. */
export async function credentialLink(
  baseURL: string,
  token: string,
  listed: { id: number; device_sn: string },
) {
  const { secret } = await consoleApi<{ secret: string }>(
    baseURL,
    token,
    `/api/v1/device/${listed.id}/credential`,
  )
  return { secret, device: deviceLink(baseURL, listed.device_sn, secret) }
}

/** A date `days` from today, as the protocol writes consumable dates (YYYY-MM-DD). */
export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)

/**
 * A passing self-test with fresh consumables: it closes any fault and leaves no expiry warning,
 * so the device returns to normal and ready.
 */
export function healthyPass() {
  return {
    report_type: 2,
    result: 'pass',
    fault_codes: [],
    battery: 91,
    electrode_sheet_expire: inDays(700),
    battery_expire: inDays(700),
  }
}
