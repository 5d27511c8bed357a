import { MESSAGE_PAGE_SIZE, type MessageRow, messageApi } from '@aed/contracts/message'
import { useInfiniteQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { callApi } from '../../../lib/api'
import { messageKeys } from './keys'

/** The message centre's pages, newest first, asked while the centre is open. */
export function useMessageList(enabled: boolean) {
  const { i18n } = useTranslation()
  return useInfiniteQuery({
    // Titles come in the reader's language.
    queryKey: messageKeys.list({ lang: i18n.language }),
    queryFn: ({ pageParam, signal }) =>
      callApi(messageApi.list, { query: { page: pageParam, page_size: MESSAGE_PAGE_SIZE }, signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.resource.length, 0) < last.count ? pages.length + 1 : undefined,
    select: (data) => {
      const seen = new Set<number>()
      const rows: MessageRow[] = []
      for (const row of data.pages.flatMap((p) => p.resource)) {
        // A message pushed in front shifts the pages: the next page repeats rows already shown.
        if (!seen.has(row.id)) rows.push(row)
        seen.add(row.id)
      }
      return { rows, total: data.pages[0]?.count ?? 0 }
    },
    enabled,
    staleTime: 0,
  })
}
