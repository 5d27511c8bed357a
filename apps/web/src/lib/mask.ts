/** Masks a phone as its first 3 and last 4 digits around ****. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return ''
  if (phone.length < 7) return phone
  return `${phone.slice(0, 3)}****${phone.slice(-4)}`
}
