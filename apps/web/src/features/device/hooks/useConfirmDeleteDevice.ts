import type { Device } from '@aed/contracts/device'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { useDeleteDevice } from '../api/useDeleteDevice'

/** 删除安装信息 of one registered device, after a confirm: the device becomes unregistered. */
export function useConfirmDeleteDevice() {
  const { t } = useTranslation()
  const { modal } = App.useApp()
  const remove = useSubmit(useDeleteDevice())
  return (device: Device) =>
    modal.confirm({
      title: t('device.deleteInstall'),
      content: t('device.deleteInstallConfirm', { sn: device.device_sn }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => remove(device.id),
    })
}
