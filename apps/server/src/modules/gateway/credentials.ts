import type { AppContext } from '../../context.ts'
import type { DeviceCredentials } from '../../plugins/auth/device.ts'
import { cabinetCredentials } from '../cabinet/cabinet-engine.service.ts'
import { deviceCredentials } from '../device/device.service.ts'

/**
 * Who signs with a serial: a live AED, else a live rescue cabinet (both kinds report on the same
 * routes and topics with their own serial and secret). An AED's serial wins should a cabinet
 * carry the same one.
 */
export async function senderCredentials(ctx: AppContext, sn: string): Promise<DeviceCredentials | null> {
  return (await deviceCredentials(ctx, sn)) ?? (await cabinetCredentials(ctx, sn))
}
