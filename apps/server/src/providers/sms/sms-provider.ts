/** Sends text messages. The local default needs no vendor account. */
export interface SmsProvider {
  readonly name: string
  /** Sends a verification code; resolves when the vendor accepted it. */
  sendCode(phone: string, code: string): Promise<void>
}
