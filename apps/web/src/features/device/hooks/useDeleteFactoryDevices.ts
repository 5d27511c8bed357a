import type { FactoryDevice } from '@aed/contracts/device'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useDeleteDevice } from '../api/useDeleteDevice'

/** Deletes the chosen factory devices one by one after a confirm; registered ones are refused first. */
export function useDeleteFactoryDevices(onDone: () => void) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const remove = useDeleteDevice(true)
  return (rows: FactoryDevice[]) => {
    if (rows.length === 0) return void message.error(t('device.factory.deleteEmpty'))
    if (rows.some((r) => !r.can.delete)) return void message.error(t('device.factory.deleteRegistered'))
    modal.confirm({
      title: t('device.factory.delete'),
      content: t('device.factory.deleteConfirm', { count: rows.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        let last = ''
        try {
          for (const row of rows) last = (await remove.mutateAsync(row.id)).msg
        } catch {
          return onDone()
        }
        message.success(last)
        onDone()
      },
    })
  }
}
