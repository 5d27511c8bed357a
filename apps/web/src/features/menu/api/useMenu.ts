import { Code, type MenuItem } from '@aed/contracts'
import { useQuery } from '@tanstack/react-query'
import { ApiError } from '../../../lib/errors'
import { http } from '../../../lib/request'
import { StorageKey, storage } from '../../../lib/storage'

export const menuKey = (token: string | null) => ['system', 'menu', token] as const

/** GET /api/v1/system/menu. A code -1 also resets the remembered login way to password. */
export function useMenu(token: string | null) {
  return useQuery({
    queryKey: menuKey(token),
    queryFn: async ({ signal }) => {
      try {
        return await http.get<MenuItem[]>('/v1/system/menu', { signal })
      } catch (error) {
        if (error instanceof ApiError && error.code === Code.TOKEN) storage.set(StorageKey.loginWay, 1)
        throw error
      }
    },
    enabled: Boolean(token),
  })
}
