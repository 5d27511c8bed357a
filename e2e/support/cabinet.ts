import { consoleApi, deviceLink } from './device.ts'

type Listed = { id: number; cabinet_sn: string; device_sn: string | null; bind_device: 0 | 1 }

/** A cabinet of the list by its number, as the signed-in member sees it. */
export async function findCabinet(baseURL: string, token: string, sn: string): Promise<Listed> {
  const page = await consoleApi<{ resource: Listed[] }>(
    baseURL,
    token,
    `/api/v1/cabinet/?cabinet_sn=${encodeURIComponent(sn)}&page=1&page_size=10`,
  )
  const found = page.resource.find((c) => c.cabinet_sn === sn)
  if (!found) throw new Error(`no cabinet ${sn}`)
  return found
}

/**
 * A simulated rescue cabinet, as the fleet simulator drives one (tools/fleet/cabinet-model.ts):
 * its secret read through the credential endpoint, then signed `door` and `cabinet_status`
 * messages over HTTPS (docs/device-protocol.md).
 */
export async function cabinetLink(baseURL: string, token: string, id: number, sn: string) {
  const { secret } = await consoleApi<{ secret: string }>(baseURL, token, `/api/v1/cabinet/${id}/credential`)
  const link = deviceLink(baseURL, sn, secret)
  const status = (door: 0 | 1, aed_present: boolean) =>
    link.send('cabinet_status', {
      door_status: door,
      battery_power: 88,
      fw_version: 'C1.1.0',
      lat: 30.26,
      lon: 120.13,
      altitude: 12,
      aed_present,
    })
  return {
    hello: () => link.send('hello', { model: 'CABINET', fw_version: 'C1.1.0', report_interval_s: 600 }),
    status,
    /** The door opens (`door` 1), as when someone takes the AED out. */
    open: () => link.send('door', { door_status: 1 }),
    /** The door closes (`door` 0). */
    close: () => link.send('door', { door_status: 0 }),
  }
}
