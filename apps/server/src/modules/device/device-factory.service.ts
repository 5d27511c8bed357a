import { modelOfSerial } from '@aed/contracts/device'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { newDeviceSecret } from '../../lib/sealed.ts'
import * as repo from './device.repository.ts'

/** Creates factory devices with their own secrets (console create and the factory import). */
export async function createFactoryDevices(
  db: DbOrTx,
  ctx: AppContext,
  creator: number | null,
  rows: { device_sn: string; fw_version: string | null; agency_id: number }[],
) {
  return repo.insertDevices(
    db,
    rows.map((r) => ({
      device_sn: r.device_sn,
      model: modelOfSerial(r.device_sn),
      fw_version: r.fw_version,
      agency_id: r.agency_id,
      secret_enc: ctx.sealer.seal(newDeviceSecret()),
      creator,
    })),
  )
}
