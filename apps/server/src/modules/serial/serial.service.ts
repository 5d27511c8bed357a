import type { DbOrTx } from '../../db/client.ts'
import * as repo from './serial.repository.ts'

// Serials are unique across AEDs and rescue cabinets. The device and cabinet modules both check
// here, so neither imports the other for it.

export { takenCabinetSerials, takenSerials } from './serial.repository.ts'

/**
 * Which of these serials live AEDs hold, for the cabinets' create and import: a serial names an
 * AED or a rescue cabinet, never both. Takes the serials' lock first (call it in the transaction
 * that writes), so no AED takes one of them before that transaction ends.
 */
export async function aedSerialsIn(tx: DbOrTx, serials: string[]) {
  await repo.lockSerials(tx)
  return repo.takenSerials(tx, serials)
}

/**
 * Which of these serials live cabinets hold, for the AEDs' factory import: a serial names an AED
 * or a rescue cabinet, never both. Takes the serials' lock first (call it in the transaction that
 * writes), so no cabinet takes one of them before that transaction ends.
 */
export async function cabinetSerialsIn(tx: DbOrTx, serials: string[]) {
  await repo.lockSerials(tx)
  return repo.takenCabinetSerials(tx, serials)
}
