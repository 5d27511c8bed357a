import type { Lang } from '@aed/contracts'
import { labelIn } from '@aed/contracts/constants'
import { POSITIONING_TYPE_LABELS } from '@aed/contracts/device'

/** The gateway's radio and power readings as the list and the detail show them ('-' when never reported). */
export const radioText = {
  rssi: (v: number | null, empty: string) => (v === null ? empty : `${v} dBm`),
  positioning: (v: string | null, lang: Lang, empty: string) =>
    v === null ? empty : POSITIONING_TYPE_LABELS[v] ? labelIn(POSITIONING_TYPE_LABELS[v], lang) : v,
  cableVoltage: (v: number | null, empty: string) => (v === null ? empty : `${v} V`),
}
