/** Sends text messages. The local default needs no vendor account. */
export interface SmsProvider {
  readonly name: string
  /** Sends a verification code; resolves when the vendor accepted it. */
  sendCode(phone: string, code: string): Promise<void>
  /**
   * Sends a notification (alert, digest, escalation) whose text starts with the platform's
   * signature 【AED云】; resolves when the vendor accepted it. A retry of the same SMS passes the
   * same idempotency key, so a vendor that keys on it (or its receipts) can tell a resend.
   */
  sendText(phone: string, text: string, idempotencyKey: string): Promise<void>
}
