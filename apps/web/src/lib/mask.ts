import { maskPhone as maskPhoneOrNull } from '@aed/contracts/mask'

/**
 * The contracts' phone mask (first 3 and last 4 digits around ****) as the console shows it:
 * an empty string when there is no phone. The rule itself lives once, in contracts/mask.ts.
 */
export function maskPhone(phone: string | null | undefined): string {
  return maskPhoneOrNull(phone) ?? ''
}
