import type { BodyIn } from '@aed/contracts'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from './keys'

export type InspectionBody = BodyIn<typeof deviceDetailApi.inspect>

/** Records a routine inspection from the detail; refetches the device's inspection tab and the monthly maintenance. */
export function useRecordInspection() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: InspectionBody) => sendApi(deviceDetailApi.inspect, { body }),
    onSuccess: (_, body) =>
      Promise.all([
        client.invalidateQueries({ queryKey: deviceKeys.records(body.device_sn, 'inspect') }),
        client.invalidateQueries({ queryKey: deviceKeys.stats('monthly') }),
      ]),
  })
}
