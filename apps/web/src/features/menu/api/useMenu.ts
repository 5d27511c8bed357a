import { Code } from '@aed/contracts'
import { menuApi } from '@aed/contracts/menu'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { ApiError } from '../../../lib/errors'
import { StorageKey, storage } from '../../../lib/storage'
import { menuKeys } from './keys'

/** The sidebar menu. A code -1 also resets the remembered login way to password. */
export function useMenu(token: string | null) {
  return useQuery({
    queryKey: menuKeys.menu(token),
    queryFn: async ({ signal }) => {
      try {
        return await callApi(menuApi.menu, { signal })
      } catch (error) {
        if (error instanceof ApiError && error.code === Code.TOKEN) storage.set(StorageKey.loginWay, 1)
        throw error
      }
    },
    enabled: Boolean(token),
  })
}
