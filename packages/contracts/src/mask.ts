/** Masks a phone as 3 + **** + 4, as lists show it. */
export function maskPhone(phone: string | null | undefined): string | null {
  if (!phone) return phone ?? null
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone
}

/** Masks an email as the first character, ***, and the part from the @. */
export function maskEmail(email: string | null | undefined): string | null {
  if (!email) return email ?? null
  const at = email.indexOf('@')
  return at > 0 ? `${email[0]}***${email.slice(at)}` : email
}
