import type { MessageRow } from '@aed/contracts/message'
import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import { messageKeys } from './keys'

type Page = { count: number; resource: MessageRow[] }

/** Puts a pushed or confirmed message into every loaded list: in place when listed, else in front. */
export function applyMessage(client: QueryClient, row: MessageRow) {
  client.setQueriesData<InfiniteData<Page, number>>({ queryKey: messageKeys.lists() }, (data) => {
    if (!data?.pages.length) return data
    const listed = data.pages.some((p) => p.resource.some((r) => r.id === row.id))
    if (listed)
      return {
        ...data,
        pages: data.pages.map((p) => ({
          ...p,
          resource: p.resource.map((r) => (r.id === row.id ? row : r)),
        })),
      }
    const [first, ...rest] = data.pages
    return { ...data, pages: [{ count: first.count + 1, resource: [row, ...first.resource] }, ...rest] }
  })
}
