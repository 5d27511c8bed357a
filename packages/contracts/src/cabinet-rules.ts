import { modelOfSerial } from './device.ts'

/** The model the bind dialog shows for a typed serial: characters 2-3 (spec 5), '' when unknown. */
export function boundModel(serial: string | undefined): string {
  return modelOfSerial((serial ?? '').trim())
}
