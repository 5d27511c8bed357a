import type { Lang } from '@aed/contracts/messages'
import { isMessageKey, translate } from '@aed/contracts/messages'
import { WEBHOOK_EVENTS } from '@aed/contracts/open-api'
import { serviceConfigCreate } from '@aed/contracts/service-config'

/** The services whose events go to a push URL (event_push, device_data_push). */
const PUSH_SERVICES: ReadonlySet<string> = new Set(Object.values(WEBHOOK_EVENTS))

/** True when the chosen services push events, so the configuration may have a push URL. */
export function pushesEvents(service: readonly string[] | undefined): boolean {
  return (service ?? []).some((s) => PUSH_SERVICES.has(s))
}

/** What the contract says of a typed push URL (http(s), at most 500), in `lang`; null when it passes. */
export function pushUrlProblem(value: unknown, lang: Lang): string | null {
  const result = serviceConfigCreate.shape.push_url.safeParse(value)
  if (result.success) return null
  const key = result.error.issues[0]?.message ?? ''
  return translate(isMessageKey(key) ? key : 'PUSH_URL_INVALID', lang)
}

/** The push URL to send: the typed one while a push service is chosen, else none. */
export function pushUrlToSend(service: readonly string[], typed: string | undefined): string | null {
  return pushesEvents(service) ? typed?.trim() || null : null
}
