import type { MapAddress } from '@aed/contracts/map'
import { useMutation } from '@tanstack/react-query'
import { http } from '../../lib/request'

/** GET /api/v1/map/address on demand; without a map vendor the server answers code 6 and the message is shown. */
export function useReverseAddress() {
  return useMutation({
    mutationFn: (point: { lat: number; lon: number }) =>
      http.get<MapAddress>('/v1/map/address', { query: point }),
  })
}
