import type { Cabinet } from '@aed/contracts/cabinet'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useDeleteCabinets } from '../api/useDeleteCabinets'

/**
 * Deletes the chosen cabinets after a confirm, in one call (all or nothing): no selection and a
 * bound cabinet are refused first with the spec's words; the server's message on success.
 */
export function useConfirmDeleteCabinets(onDone: () => void) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const remove = useDeleteCabinets()
  return (rows: Cabinet[]) => {
    if (rows.length === 0) return void message.error(t('cabinet.remove.empty'))
    if (rows.some((r) => r.bind_device === 1)) return void message.error(t('cabinet.remove.bound'))
    modal.confirm({
      title: t('cabinet.remove.button'),
      content: t('cabinet.remove.confirm', { count: rows.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'cabinet-delete-ok' },
      onOk: async () => {
        try {
          const { msg } = await remove.mutateAsync(rows.map((r) => r.cabinet_sn))
          message.success(msg)
        } catch {
          // The request client showed the refusal.
        }
        onDone()
      },
    })
  }
}
