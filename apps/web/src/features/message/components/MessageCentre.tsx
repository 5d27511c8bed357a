import type { MessageRow } from '@aed/contracts/message'
import { Empty, Spin } from 'antd'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useMessageList } from '../api/useMessageList'
import { useDebouncedCallback } from '../hooks/useDebouncedCallback'
import { actionOf, useHandleMessage } from '../hooks/useHandleMessage'
import { useNow } from '../hooks/useNow'
import { MessageItem } from './MessageItem'
import '../message.css'

/** The spec's scroll debounce of the message list. */
export const SCROLL_DEBOUNCE_MS = 200
/** How close to the bottom the next page is asked for. */
const NEAR_BOTTOM_PX = 40

type Props = { open: boolean; amount: number; onDetails: () => void }

/** The message centre: newest first, ten a page, the next page loaded when scrolled to the end. */
export function MessageCentre({ open, amount, onDetails }: Props) {
  const { t } = useTranslation()
  const list = useMessageList(open)
  const { handle, pending } = useHandleMessage()
  const now = useNow(open)
  const rows = list.data?.rows ?? []

  const scroller = useRef<HTMLDivElement>(null)
  const loadMore = useDebouncedCallback(() => {
    const target = scroller.current
    if (!target || !list.hasNextPage || list.isFetchingNextPage) return
    if (target.scrollHeight - target.scrollTop - target.clientHeight <= NEAR_BOTTOM_PX)
      void list.fetchNextPage()
  }, SCROLL_DEBOUNCE_MS)
  const onHandle = (row: MessageRow) => {
    if (actionOf(row.msg_type) === 'details') onDetails()
    void handle(row)
  }

  return (
    <div className="message-centre" data-testid="message-centre">
      <div className="message-centre-head">
        <strong>{t('message.centre')}</strong>
        <span data-testid="message-centre-unconfirmed">{t('message.unconfirmed', { count: amount })}</span>
      </div>
      <div className="message-centre-list" ref={scroller} onScroll={loadMore} data-testid="message-list">
        {list.isPending ? (
          <div className="message-centre-foot">
            <Spin size="small" />
          </div>
        ) : rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('message.empty')} />
        ) : (
          <>
            {rows.map((row) => (
              <MessageItem
                key={row.id}
                row={row}
                now={now}
                pending={pending === row.id}
                onHandle={onHandle}
              />
            ))}
            <div className="message-centre-foot">
              {list.isFetchingNextPage ? t('message.loading') : list.hasNextPage ? null : t('message.noMore')}
            </div>
          </>
        )}
      </div>
    </div>
  )
}
