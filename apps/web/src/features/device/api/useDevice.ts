import { deviceApi } from '@aed/contracts/device'
import { useDetailQuery } from '../../../lib/useDetailQuery'
import { deviceKeys } from './keys'

/** One registered device with whole phones, for the change dialog. */
export function useDevice(id: number | null) {
  return useDetailQuery(deviceApi.detail, deviceKeys.detail, id)
}
