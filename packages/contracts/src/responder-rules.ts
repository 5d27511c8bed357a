import type { MessageKey } from './messages.ts'
import { AidAptitude, type DispatchState } from './responder.ts'

// Rules the server derives and the console shows alike, written once.

/** Whole days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/** Whole years of someone born on `birth` on the date `today` (YYYY-MM-DD); null without a birth date. */
export function ageOn(birth: string | null, today: string): number | null {
  if (!birth) return null
  const [by, bm, bd] = birth.split('-').map(Number)
  const [ty, tm, td] = today.split('-').map(Number)
  const age = ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0)
  return age < 0 ? null : age
}

/**
 * 1 valid, 0 expired: a certificate is valid through its expiry date. Null for non-professionals
 * (the console shows a dash) and for a professional without an expiry (an import in progress).
 */
export function certificateStatus(aptitude: number, expire: string | null, today: string): 0 | 1 | null {
  if (aptitude !== AidAptitude.PROFESSIONAL || !expire) return null
  return expire >= today ? 1 : 0
}

/** Whether an alert may reach a responder now: a pause wins over an expired certificate. */
export function dispatchState(
  r: { paused: boolean; aid_aptitude: number; certificate_expire: string | null },
  today: string,
): DispatchState {
  if (r.paused) return 'paused'
  if (certificateStatus(r.aid_aptitude, r.certificate_expire, today) === 0) return 'certificate_expired'
  return 'ready'
}

/** What the dialog's submit checks read (spec 5), as the form holds it. */
export type ResponderSubmitValues = {
  phone?: string | null
  name?: string | null
  birth?: string | null
  gender?: number | null
  lat?: number | null
  lon?: number | null
  aid_aptitude?: number | null
  certificate_img?: string | null
}

/**
 * The dialog's nine submit-time checks in the spec's order; the first failing one's message, or
 * null. The server's schema refuses the same input with the same messages (responderForm).
 */
export function responderSubmitCheck(v: ResponderSubmitValues, canEdit: boolean): MessageKey | null {
  if (!canEdit) return 'NO_PERMISSION'
  const phone = (v.phone ?? '').replace(/\s+/g, '')
  if (!phone) return 'CONTACT_PHONE_REQUIRED'
  if (phone.length !== 11) return 'CONTACT_PHONE_WRONG'
  if (!v.name?.trim()) return 'RESPONDER_NAME_REQUIRED'
  if (!v.birth) return 'BIRTH_REQUIRED'
  if (!v.gender) return 'GENDER_REQUIRED'
  if (v.lat === null || v.lat === undefined) return 'ADDRESS_PICK'
  if (v.aid_aptitude === AidAptitude.PROFESSIONAL && !v.certificate_img) return 'CERT_IMG_REQUIRED'
  if (v.lon === null || v.lon === undefined) return 'RESPONDER_POINT_REQUIRED'
  return null
}
