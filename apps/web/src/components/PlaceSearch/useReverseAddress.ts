import { mapApi } from '@aed/contracts/map'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../lib/api'

/** The address at a point, on demand; without a map vendor the server answers code 6 and the message is shown. */
export function useReverseAddress() {
  return useMutation({
    mutationFn: (point: { lat: number; lon: number }) => callApi(mapApi.address, { query: point }),
  })
}
