import { type Device, deviceSchema } from '@aed/contracts/device'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

const isDevice = (data: object): data is Device => 'register_code' in data && 'device_sn' in data

/** The detail's basic info: the device by serial (whole phones), as single-detail data_type=base answers it. */
export function useDeviceBase(sn: string | null) {
  return useQuery({
    queryKey: deviceKeys.detail(`sn:${sn ?? ''}`),
    queryFn: async ({ signal }) => {
      const data = await callApi(deviceDetailApi.single, {
        query: { device_sn: sn as string, data_type: 'base' },
        signal,
      })
      return isDevice(data) ? data : deviceSchema.parse(data)
    },
    enabled: Boolean(sn),
    staleTime: 0,
  })
}
