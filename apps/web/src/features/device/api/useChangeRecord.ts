import { deviceApi } from '@aed/contracts/device'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** The change record of an installation, newest first as the server answers it. */
export function useChangeRecord(registerCode: string | null) {
  return useQuery({
    queryKey: deviceKeys.changeRecord(registerCode ?? ''),
    queryFn: ({ signal }) =>
      callApi(deviceApi.changeRecord, { query: { register_code: registerCode as string }, signal }),
    enabled: Boolean(registerCode),
  })
}
