import { EMAIL_RULE } from '@aed/contracts/member'

export type SubmitInput = { phone?: string; name?: string; email?: string; lat?: number | null }

/**
 * The user dialog's submit-time checks, in order; the i18n key of the first failure. Whether the
 * member may save at all is RecordFormModal's, from the server's `can`.
 */
export function submitProblem(v: SubmitInput): string | null {
  const phone = (v.phone ?? '').replace(/\s+/g, '')
  if (!phone) return 'member.phoneMissing'
  if (phone.length !== 11) return 'member.phoneWrong'
  if (!v.name?.trim()) return 'member.nameMissing'
  if (!v.email?.trim()) return 'member.emailMissing'
  if (!EMAIL_RULE.test(v.email.trim())) return 'member.emailWrong'
  if (v.lat === undefined || v.lat === null) return 'member.addressMissing'
  return null
}
